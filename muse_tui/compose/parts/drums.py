"""The drum kit on the GM drum map, from the pattern families of `skills/rhythm/drum-families/`.

A section plays its family's sparse, base or busy groove by energy (the song's
seed picks the main pattern, each kind of section steps to its own), with a
variation at phrase ends, hat rolls where the family has rules for them
(trap), the section's edges from `fills` (crash in, fills), and the
producer's constraints ("no drums except kick") applied last.
"""

from __future__ import annotations

import random

from muse_tui.knowledge.rhythm import (
    DrumLevels,
    DrumPattern,
    FamilyRhythm,
    HatRoll,
    HatRollRules,
)
from muse_tui.theory.drums import VOICE_PITCHES

from ..humanize import Draft
from ..seeding import derive_rng
from .context import PartContext, PartDraft
from .fills import crash_in, section_end
from .grid import STEP, at_half_speed
from .kit import allowed_voices, hit, play
from .percussion import percussion_voices
from .style import family_of

_BUSIER = {"sparse": "base", "base": "busy", "busy": "busy"}
#: How far along its density's list each kind of section steps from the song's main pattern.
_KIND_STEP = {
    "verse": 0,
    "chorus": 1,
    "hook": 1,
    "drop": 1,
    "pre_chorus": 2,
    "bridge": 2,
    "breakdown": 2,
    "build": 2,
    "solo": 2,
    "interlude": 3,
    "break": 3,
    "outro": 1,
}
_DENSE_ROLL = 12  # hits a beat from which a roll puts three hats inside one 16th


def write_drums(ctx: PartContext, rng: random.Random) -> PartDraft:
    """The drum kit part of one section.

    A genre without drums (a string quartet, bluegrass) plays the neutral backbeat on the
    kit the producer asked for ("with brushes"): a kit that was asked for is heard.
    """
    family = family_of(ctx.style, ctx.table)
    notes = _groove(ctx, family, rng)
    if family.hat_rolls is not None:
        _hat_rolls(ctx, family.hat_rolls, notes, rng)
    if crash_in(ctx):
        notes.append(hit(ctx, "crash", "X", 0.0))
    notes = section_end(ctx, family, notes, rng)
    taken = percussion_voices(ctx)  # a shaker or cowbell the percussion track plays, not doubled
    notes = [n for n in notes if n.voice not in taken]
    allowed = allowed_voices(ctx.intent.constraints, ctx.table.drums.voice_words)
    if allowed is not None:
        notes = [n for n in notes if n.voice in allowed]
    return PartDraft(notes=notes, feel=ctx.feel)


def _groove(ctx: PartContext, family: FamilyRhythm, rng: random.Random) -> list[Draft]:
    """The section's groove, bar by bar: a main pattern and variations at phrase ends."""
    levels = ctx.meter_groove.drum_levels() if ctx.meter_groove else family.patterns
    if ctx.half_time:
        levels = _at_half_speed(levels)
    main = main_pattern(ctx, at_tempo(getattr(levels, ctx.density), ctx.song.tempo))
    chance = 0.35 + 0.4 * ctx.style.rhythmic
    notes: list[Draft] = []
    for bar in range(ctx.bars):
        pattern = main
        if bar % 4 == 3 and bar != ctx.bars - 1 and rng.random() < chance:
            pattern = rng.choice(at_tempo(getattr(levels, _BUSIER[ctx.density]), ctx.song.tempo))
        notes += play(ctx, pattern, [bar])
    return notes


def _at_half_speed(levels: DrumLevels) -> DrumLevels:
    """Every pattern of the family at half speed: the half-time feel of a doubled tempo."""
    return DrumLevels.model_construct(
        **{
            density: [
                p.model_copy(update={"voices": {v: at_half_speed(g) for v, g in p.voices.items()}})
                for p in getattr(levels, density)
            ]
            for density in ("sparse", "base", "busy")
        }
    )


def at_tempo(patterns: list[DrumPattern], bpm: float) -> list[DrumPattern]:
    """The patterns a density plays at this tempo.

    A pattern tied to a tempo range (a metal blast beat) plays only there, and there it is
    what the density plays: a drummer blasts because the song is that fast, not by chance.
    """
    tied = [p for p in patterns if p.tempo_range is not None]
    inside = [p for p in tied if p.tempo_range[0] <= bpm <= p.tempo_range[1]]  # type: ignore[index]
    return inside or [p for p in patterns if p.tempo_range is None] or patterns


def main_pattern(ctx: PartContext, patterns: list[DrumPattern]) -> DrumPattern:
    """The pattern a section grooves on: the song's seed picks where to start, the kind moves on.

    One pick per song (seed and take), not per section, so that each kind of section can step
    to its own pattern: a verse and a chorus at the same density never play the same bar, and
    every chorus of a song plays the same one.
    """
    take = next((t.variant for t in ctx.intent.takes if t.role == ctx.track.role), 0)
    # 12 divides evenly by lists of 2, 3, 4 or 6 patterns, so every pattern is as likely.
    start = derive_rng(ctx.song.seed, "drums:main", ctx.style.family, take).randrange(12)
    return patterns[(start + _KIND_STEP.get(ctx.section.kind, 0)) % len(patterns)]


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
