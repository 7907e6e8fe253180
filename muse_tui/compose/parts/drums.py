"""Drums and hand percussion on the GM drum map, from the pattern families of `skills/rhythm/`.

A section plays its family's sparse, base or busy groove by energy, with a
variation at phrase ends, a crash into hot sections, hat rolls where the
family has rules for them (trap), fills at phrase and section ends, and the
producer's constraints ("no drums except kick") applied last.
"""

from __future__ import annotations

import random
import re

from muse_tui.knowledge.rhythm import DrumPattern, FamilyRhythm, Fill, HatRoll, HatRollRules
from muse_tui.theory.drums import VOICE_PITCHES

from ..humanize import Draft
from ..transitions import drum_ending
from .context import PartContext, PartDraft
from .grid import STEP, tile

_PEAK_KINDS = frozenset({"chorus", "hook", "drop"})
_BUSIER = {"sparse": "base", "base": "busy", "busy": "busy"}
_DENSE_ROLL = 12  # hits a beat from which a roll puts three hats inside one 16th


def write_drums(ctx: PartContext, rng: random.Random) -> PartDraft:
    """The drum kit part of one section."""
    family = ctx.table.drums.families.get(ctx.style.family)  # type: ignore[call-overload]
    if family is None:
        return PartDraft(feel=ctx.feel)
    notes = _groove(ctx, family, rng)
    if family.hat_rolls is not None:
        _hat_rolls(ctx, family.hat_rolls, notes, rng)
    if _crash_in(ctx):
        notes.append(_hit(ctx, "crash", "X", 0.0))
    notes = _section_end(ctx, family, notes, rng)
    allowed = allowed_voices(ctx.intent.constraints, ctx.table.drums.voice_words)
    if allowed is not None:
        notes = [n for n in notes if n.voice in allowed]
    return PartDraft(notes=notes, feel=ctx.feel)


def write_percussion(ctx: PartContext, rng: random.Random) -> PartDraft:
    """Hand percussion (congas, shakers, tambourine) over the groove, thinner when it's quiet."""
    family = ctx.table.drums.families.get(ctx.style.family)  # type: ignore[call-overload]
    patterns = (family.percussion if family else []) or ctx.table.drums.percussion
    pattern = rng.choice(patterns)
    voices = list(pattern.voices)
    if ctx.density == "sparse":
        voices = voices[:1]
    elif ctx.density == "base" and len(voices) > 2:
        voices = voices[:2]
    notes = [n for n in _play(ctx, pattern, range(ctx.bars), scale=0.85) if n.voice in set(voices)]
    allowed = allowed_voices(ctx.intent.constraints, ctx.table.drums.voice_words)
    if allowed is not None:
        notes = [n for n in notes if n.voice in allowed]
    return PartDraft(notes=notes, feel=ctx.feel.scaled(timing=1.3))


def allowed_voices(constraints: list[str], words: dict[str, list[str]]) -> set[str] | None:
    """The drum voices the producer's constraints leave (None: no drum constraint).

    "no drums except kick" and "kick only" keep what they name; "no hi-hats"
    drops what it names; "no drums" drops everything. Constraints naming no
    drum ("only piano") are not about drums and change nothing.
    """
    allowed: set[str] | None = None
    dropped: set[str] = set()
    for constraint in constraints:
        text = " " + re.sub(r"[^a-z0-9\- ]", " ", constraint.lower()) + " "
        named = {
            voice
            for word, voices in words.items()
            if re.search(rf"(?<![a-z-]){re.escape(word)}(?![a-z-])", text)
            for voice in voices
        }
        if re.search(r"\b(except|only|just)\b", text):
            if named:
                allowed = named if allowed is None else allowed & named
        elif re.search(r"\b(no|without)\b", text):
            if named:
                dropped |= named
            elif re.search(r"\bdrums?\b", text):
                allowed = set()
    if allowed is None and not dropped:
        return None
    return (set(VOICE_PITCHES) if allowed is None else allowed) - dropped


def _groove(ctx: PartContext, family: FamilyRhythm, rng: random.Random) -> list[Draft]:
    """The section's groove, bar by bar: a main pattern and variations at phrase ends."""
    levels = family.patterns
    main = rng.choice(getattr(levels, ctx.density))
    chance = 0.35 + 0.4 * ctx.style.rhythmic
    notes: list[Draft] = []
    for bar in range(ctx.bars):
        pattern = main
        if bar % 4 == 3 and bar != ctx.bars - 1 and rng.random() < chance:
            pattern = rng.choice(getattr(levels, _BUSIER[ctx.density]))
        notes += _play(ctx, pattern, [bar])
    return notes


def _play(
    ctx: PartContext, pattern: DrumPattern, bars: range | list[int], scale: float = 1.0
) -> list[Draft]:
    notes: list[Draft] = []
    for bar in bars:
        for voice, grid in pattern.voices.items():
            for step, letter in enumerate(tile(grid, bar, ctx.bar_steps)):
                if letter != ".":
                    when = bar * ctx.beats_per_bar + step * STEP
                    notes.append(_hit(ctx, voice, letter, when, scale))
    return notes


def _hit(ctx: PartContext, voice: str, letter: str, when: float, scale: float = 1.0) -> Draft:
    velocity = ctx.table.drums.velocities[letter] * ctx.loud * scale  # type: ignore[index]
    gate = ctx.table.drums.gates.get(voice, 0.2)  # type: ignore[call-overload]
    return Draft(VOICE_PITCHES[voice], velocity, when, gate, voice)


def _crash_in(ctx: PartContext) -> bool:
    before = ctx.neighbours[0]
    opens_hot = ctx.section.kind in _PEAK_KINDS or ctx.energy >= 0.6
    return before is not None and opens_hot and before.energy < ctx.energy + 0.2


def _hat_rolls(
    ctx: PartContext, rules: HatRollRules, notes: list[Draft], rng: random.Random
) -> None:
    """Trap hat rolls: 1/32s, triplets and 1/64s over the hats, ramping in velocity."""
    if not any(n.voice == rules.voice for n in notes):
        return
    chance = rules.chance * (0.3 + 0.7 * ctx.energy) * (0.7 + 0.6 * ctx.style.rhythmic)
    last_bar = ctx.bars - 1 if ctx.bars > 1 else ctx.bars  # the last bar is left to the fill
    dense = False
    for bar in range(last_bar):
        if rng.random() < chance:
            roll = rng.choices(rules.rolls, weights=[r.weight for r in rules.rolls])[0]
            step = rng.choice(rules.start_steps) % ctx.bar_steps
            _roll(ctx, rules, roll, notes, bar * ctx.beats_per_bar + step * STEP)
            dense |= roll.per_beat >= _DENSE_ROLL
    if not dense and ctx.density != "sparse":
        rolls = [r for r in rules.rolls if r.per_beat >= _DENSE_ROLL] or rules.rolls
        bar = max(0, last_bar - 1)
        _roll(ctx, rules, rng.choice(rolls), notes, bar * ctx.beats_per_bar + 6 * STEP)


def _roll(
    ctx: PartContext, rules: HatRollRules, roll: HatRoll, notes: list[Draft], start: float
) -> None:
    start = max(0.0, min(start, ctx.length - roll.beats))
    end = start + roll.beats
    notes[:] = [n for n in notes if not (n.voice == rules.voice and start <= n.start < end)]
    count = max(2, round(roll.per_beat * roll.beats))
    base = ctx.table.drums.velocities["x"] * ctx.loud
    low, high = roll.ramp
    for index in range(count):
        ramp = low + (high - low) * index / (count - 1)
        notes.append(
            Draft(
                VOICE_PITCHES[rules.voice],
                base * ramp,
                start + index / roll.per_beat,
                0.9 / roll.per_beat,
                rules.voice,
                locked=True,
            )
        )


def _section_end(
    ctx: PartContext, family: FamilyRhythm, notes: list[Draft], rng: random.Random
) -> list[Draft]:
    """Fills at phrase ends and into the next section; a cut silences the last beat."""
    fills = ctx.table.drums.fills
    short = [fills[name] for name in family.fills if fills[name].steps <= 4]
    for bar in range(7, ctx.bars - 1, 8):
        if short and rng.random() < 0.6 + 0.3 * ctx.style.rhythmic:
            notes = _apply_fill(ctx, rng.choice(short), notes, (bar + 1) * ctx.beats_per_bar)
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
        return _apply_fill(ctx, ending.fill, notes, ctx.length)
    return notes


def _apply_fill(ctx: PartContext, fill: Fill, notes: list[Draft], bar_end: float) -> list[Draft]:
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
                kept.append(_hit(ctx, voice, letter, begin + step * STEP, ramp))
    return kept
