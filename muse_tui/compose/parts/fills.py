"""A section's edges on the drums: the crash in, fills at phrase ends and into the next section.

The form (`arrangement-templates.json`) says whether its genre crashes on section
downbeats, how often a phrase ends on a fill and how long that fill may be (a
trap 808 fill is a beat, a rock tom run two, house mostly drops its kick for a
bar instead); the drum family says which fills it plays. A repeated section
develops: it ends on a different fill than the last time, adds a pickup fill at
its first phrase end, and crashes back in after its drop-out bar. A build rolls
its snare faster and faster into the drop instead of filling.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from muse_tui.knowledge.arrangement import (
    ArrangementTemplate,
    BuildRoll,
    PhraseFills,
    arrangement_table,
)
from muse_tui.knowledge.rhythm import FamilyRhythm, Fill
from muse_tui.theory.drums import VOICE_PITCHES

from ..arrangement.repeats import Repeat, section_repeat
from ..humanize import Draft
from ..transitions import drum_ending, turned
from .context import PartContext
from .grid import STEP
from .kit import hit

#: Sections that open low: no crash on their downbeat whatever the genre.
_QUIET_OPENINGS = frozenset({"intro", "break", "breakdown"})
#: Below this energy a section starts too softly for a crash.
_TOO_SOFT = 0.3
_STEPS_PER_BEAT = 4


def crash_in(ctx: PartContext) -> bool:
    """A crash on the downbeat of a new section, in a genre that crashes.

    As a drummer marks the "one" of every new part (verse 2 after the chorus too),
    except where the music drops away: an intro, a break, a soft section.
    """
    form = _form(ctx)
    if ctx.neighbours[0] is None or (form is not None and not form.crashes):
        return False
    return ctx.section.kind not in _QUIET_OPENINGS and ctx.energy >= _TOO_SOFT


def section_end(
    ctx: PartContext, family: FamilyRhythm, notes: list[Draft], rng: random.Random
) -> list[Draft]:
    """Fills at phrase ends and into the next section; a build's roll; a cut's silent beat."""
    form = _form(ctx)
    repeat = section_repeat(ctx.song, ctx.section)
    is_build = ctx.section.kind == "build"
    if is_build:
        notes = build_roll(ctx, notes, arrangement_table().build_roll, repeat)
    else:
        style = form.phrase_fills if form is not None else PhraseFills()
        notes = phrase_fills(ctx, family, notes, rng, style, repeat)
    back_in = None if repeat.dropout_bar is None else repeat.dropout_bar + 1
    crashes = form is None or form.crashes
    if repeat.drops_out("drums") and back_in is not None and back_in < ctx.bars and crashes:
        notes.append(hit(ctx, "crash", "X", back_in * ctx.beats_per_bar))
    ending = drum_ending(
        ctx.section.transition,
        leads_on=ctx.leads_on,
        sparse=ctx.density == "sparse",
        family_fills=family.fills,
        drums=ctx.table.drums,
        rng=rng,
        turn=repeat.ordinal - 1,
    )
    if ending.silent_beats:
        return [n for n in notes if n.start < ctx.length - ending.silent_beats]
    if ending.fill is not None and not is_build:
        return apply_fill(ctx, ending.fill, notes, ctx.length)
    return notes


def phrase_fills(
    ctx: PartContext,
    family: FamilyRhythm,
    notes: list[Draft],
    rng: random.Random,
    style: PhraseFills,
    repeat: Repeat,
) -> list[Draft]:
    """Fills (or a dropped kick) at the phrase ends inside the section, the genre's way.

    A repeat always fills its first phrase end too, with a fill turned on from the
    first time's, so the second verse is heard as the second.
    """
    options = _fitting(family.fills, ctx.table.drums.fills, style.beats)
    if not options:
        return notes
    turn = repeat.ordinal - 1
    chance = min(1.0, style.chance + 0.3 * ctx.style.rhythmic)
    ends = set(range(style.every - 1, ctx.bars - 1, style.every))
    pickup = (3 if ctx.bars >= 8 else 1) if repeat.is_repeat and ctx.bars >= 4 else None
    for bar in sorted(ends | ({pickup} if pickup is not None else set())):
        # Every draw is made whatever it decides, so a repeat's choices line up with
        # the first time's and the turned fill is a different one.
        wanted = rng.random() < chance
        drops_kick = style.kick_drop and rng.random() < 0.5
        fill = turned(options, rng.randrange(len(options)), turn)
        if bar != pickup and not wanted:
            continue
        if drops_kick and bar != pickup:
            notes = _without_kick(ctx, notes, bar)
            continue
        notes = apply_fill(ctx, fill, notes, (bar + 1) * ctx.beats_per_bar)
    return notes


def build_roll(
    ctx: PartContext, notes: list[Draft], roll: BuildRoll, repeat: Repeat
) -> list[Draft]:
    """The build's snare accelerating stage by stage (quarters, 8ths, 16ths, 32nds), rising.

    Only the `keep` voices of the groove play on under it; a stage too fast for
    the tempo holds the last speed that is not. A later build doubles its last
    stage with `repeat_layer`.
    """
    if roll.voice not in VOICE_PITCHES:
        return notes
    per_second = ctx.song.tempo / 60
    fastest = max(
        (rate for rate in roll.per_beat if rate * per_second <= roll.max_per_second),
        default=min(roll.per_beat),
    )
    rates = [min(rate, fastest) for rate in roll.per_beat]
    stage_beats = ctx.length / len(rates)
    low, high = roll.ramp
    kept = [n for n in notes if n.voice in roll.keep]
    layer = roll.repeat_layer if repeat.is_repeat and roll.repeat_layer in VOICE_PITCHES else None
    for stage, rate in enumerate(rates):
        for index in range(round(stage_beats * rate)):
            when = stage * stage_beats + index / rate
            scale = low + (high - low) * when / ctx.length
            voices = [roll.voice] + ([layer] if layer and stage == len(rates) - 1 else [])
            for voice in voices:
                note = hit(ctx, voice, "x", when, scale)
                note.duration = min(note.duration, 0.9 / rate)
                note.locked = True
                kept.append(note)
    return kept


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


def _fitting(names: Sequence[str], fills: dict[str, Fill], beats: float) -> list[Fill]:
    """The family's fills no longer than `beats`, else its shortest one."""
    known = [fills[name] for name in names if name in fills]
    short = [f for f in known if f.steps <= beats * _STEPS_PER_BEAT]
    return short or sorted(known, key=lambda f: f.steps)[:1]


def _without_kick(ctx: PartContext, notes: list[Draft], bar: int) -> list[Draft]:
    """The bar with its kick taken out: house's way of marking a phrase end."""
    begin, end = bar * ctx.beats_per_bar, (bar + 1) * ctx.beats_per_bar
    return [n for n in notes if not (n.voice == "kick" and begin <= n.start < end)]


def _form(ctx: PartContext) -> ArrangementTemplate | None:
    """The song form this section belongs to (None without an arrangement)."""
    if ctx.song.arrangement is None:
        return None
    return arrangement_table().template(ctx.song.arrangement.template)[1]
