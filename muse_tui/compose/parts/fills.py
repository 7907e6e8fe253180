"""A section's edges on the drums: the crash in, fills at phrase ends and into the next section."""

from __future__ import annotations

import random

from muse_tui.knowledge.rhythm import FamilyRhythm, Fill

from ..humanize import Draft
from ..transitions import drum_ending
from .context import PartContext
from .grid import STEP
from .kit import hit

_PEAK_KINDS = frozenset({"chorus", "hook", "drop"})


def crash_in(ctx: PartContext) -> bool:
    before = ctx.neighbours[0]
    opens_hot = ctx.section.kind in _PEAK_KINDS or ctx.energy >= 0.6
    return before is not None and opens_hot and before.energy < ctx.energy + 0.2


def section_end(
    ctx: PartContext, family: FamilyRhythm, notes: list[Draft], rng: random.Random
) -> list[Draft]:
    """Fills at phrase ends and into the next section; a cut silences the last beat."""
    fills = ctx.table.drums.fills
    short = [fills[name] for name in family.fills if fills[name].steps <= 4]
    for bar in range(7, ctx.bars - 1, 8):
        if short and rng.random() < 0.6 + 0.3 * ctx.style.rhythmic:
            notes = apply_fill(ctx, rng.choice(short), notes, (bar + 1) * ctx.beats_per_bar)
    ending = drum_ending(
        ctx.section.transition,
        leads_on=ctx.leads_on,
        sparse=ctx.density == "sparse",
        family_fills=family.fills,
        drums=ctx.table.drums,
        rng=rng,
    )
    if ending.silent_beats:
        return [n for n in notes if n.start < ctx.length - ending.silent_beats]
    if ending.fill is not None:
        return apply_fill(ctx, ending.fill, notes, ctx.length)
    return notes


def apply_fill(ctx: PartContext, fill: Fill, notes: list[Draft], bar_end: float) -> list[Draft]:
    span = min(fill.steps, ctx.bar_steps) * STEP
    begin = bar_end - span
    kept = [
        n for n in notes if not (begin - 1e-9 <= n.start < bar_end and n.voice not in fill.keep)
    ]
    low, high = fill.ramp
    for voice, grid in fill.voices.items():
        for step, letter in enumerate(grid[: round(span / STEP)]):
            if letter != ".":
                ramp = low + (high - low) * step / max(1, fill.steps - 1)
                kept.append(hit(ctx, voice, letter, begin + step * STEP, ramp))
    return kept
