"""Lead lines built from a 1–2 bar motif, repeated with variation and resolved at phrase ends.

A motif is a rhythm (from `skills/rhythm/motifs.json`) and a contour in scale
steps. Each repeat is re-anchored on the chord sounding (so it follows the
harmony) and may be transposed, displaced by an 8th, inverted or given a new
tail. Notes on the beat (and long notes) land on chord tones; the notes
between are scale passing tones, or chromatic approaches as the harmonic dial
rises. Phrases are four bars (shorter sections: the whole section) and end on
a long chord tone, the tonic when the chord holds it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..humanize import Draft
from .context import PartContext, PartDraft
from .grid import read_hits
from .harmony import nearest_pitch

_VARIATIONS = ("repeat", "transpose", "displace", "tail", "invert")


@dataclass(frozen=True)
class _Motif:
    rhythm: list[tuple[float, float]]  # (start, length) in beats from the motif's start
    contour: list[int]  # scale steps from the anchor, one per note
    bars: int


def write_lead(ctx: PartContext, rng: random.Random) -> PartDraft:
    """The lead of one section: phrases of a motif and its variations."""
    low, high = ctx.pitch_range
    phrase_bars = min(4, ctx.bars)
    motif = _motif(ctx, rng, 2 if phrase_bars >= 4 and rng.random() < 0.4 else 1)
    anchor = nearest_pitch(
        low + (high - low) * (0.3 + 0.35 * ctx.energy), ctx.harmony.at(0).tones, low, high
    )
    notes: list[Draft] = []
    unit = 0
    for phrase_start in range(0, ctx.bars, phrase_bars):
        bars = min(phrase_bars, ctx.bars - phrase_start)
        for offset in range(0, bars, motif.bars):
            start = (phrase_start + offset) * ctx.beats_per_bar
            span = min(motif.bars, bars - offset) * ctx.beats_per_bar
            chord = ctx.harmony.at(start)
            anchor = nearest_pitch(anchor, chord.tones, low + 2, high - 5)
            last = offset + motif.bars >= bars
            if last:
                notes += _cadence(ctx, motif, anchor, start, span, rng)
            elif ctx.density == "sparse" and offset % 2 == 1 and rng.random() < 0.5:
                pass  # leave space: a quiet section answers its motif with a rest
            else:
                variation = "repeat" if unit == 0 else rng.choice(_VARIATIONS)
                varied, anchor = _vary(ctx, motif, variation, anchor, chord.tones, rng)
                notes += _realise(ctx, varied, anchor, start, span, rng)
            unit += 1
    return PartDraft(notes=notes, feel=ctx.feel.scaled(timing=1.2))


def _motif(ctx: PartContext, rng: random.Random, bars: int) -> _Motif:
    grids = [rng.choice(getattr(ctx.table.motifs, ctx.density)) for _ in range(bars)]
    hits = read_hits(grids, ctx.bar_steps, "x")
    rhythm = [(h.start, h.length) for h in hits]
    contour = [0]
    for _ in rhythm[1:]:
        move = rng.choices((-2, -1, 1, 2, 3, -3), weights=(2, 4, 4, 2, 1, 1))[0]
        if abs(contour[-1] + move) > 5:
            move = -move  # turn back towards the anchor
        contour.append(contour[-1] + move)
    return _Motif(rhythm, contour, bars)


def _vary(
    ctx: PartContext,
    motif: _Motif,
    variation: str,
    anchor: int,
    chord_tones: frozenset[int],
    rng: random.Random,
) -> tuple[_Motif, int]:
    """A repeat of the motif, changed one way, and the anchor it now sits on."""
    low, high = ctx.pitch_range
    if variation == "transpose":
        moved = anchor + rng.choice((-4, -3, 3, 4))
        return motif, nearest_pitch(moved, chord_tones, low + 2, high - 5)
    if variation == "displace":
        span = motif.bars * ctx.beats_per_bar
        rhythm = [(s + 0.5, min(n, span - s - 0.5)) for s, n in motif.rhythm if s + 0.5 < span]
        return _Motif(rhythm, motif.contour[: len(rhythm)], motif.bars), anchor
    if variation == "invert":
        return _Motif(motif.rhythm, [-c for c in motif.contour], motif.bars), anchor
    if variation == "tail" and len(motif.contour) > 2:
        keep = len(motif.contour) * 2 // 3
        tail = list(motif.contour[:keep])
        while len(tail) < len(motif.contour):
            tail.append(tail[-1] + rng.choice((-2, -1, 1, 2)))
        return _Motif(motif.rhythm, tail, motif.bars), anchor
    return motif, anchor


def _cadence(
    ctx: PartContext, motif: _Motif, anchor: int, start: float, span: float, rng: random.Random
) -> list[Draft]:
    """The phrase's last bar(s): the motif's opening, then a long resolved note."""
    cadence = read_hits([rng.choice(ctx.table.motifs.cadence)], ctx.bar_steps, "x")
    bar = ctx.beats_per_bar
    lead_in = span - bar
    opening = [(s, n) for s, n in motif.rhythm if s + n <= lead_in + 1e-6]
    ending = [(lead_in + h.start, h.length) for h in cadence]
    rhythm = opening + ending
    contour = motif.contour[: len(opening)] + [motif.contour[-1]] * len(ending)
    notes = _realise(ctx, _Motif(rhythm, contour, motif.bars), anchor, start, span, rng)
    if notes:
        final = notes[-1]
        chord = ctx.harmony.at(final.start)
        tonic = ctx.harmony.key.tonic_pc
        goal = {tonic} if tonic in chord.tones else {chord.root_pc}
        low, high = ctx.pitch_range
        final.pitch = nearest_pitch(notes[-2].pitch if len(notes) > 1 else anchor, goal, low, high)
    return notes


def _realise(
    ctx: PartContext, motif: _Motif, anchor: int, start: float, span: float, rng: random.Random
) -> list[Draft]:
    """Pitches for a motif placed at `start`: chord tones on the beat, passing tones between."""
    low, high = ctx.pitch_range
    harmony = ctx.harmony
    targets = [harmony.step(anchor, steps) for steps in motif.contour]
    notes: list[Draft] = []
    for index, ((onset, length), target) in enumerate(zip(motif.rhythm, targets, strict=True)):
        if onset >= span - 1e-6:
            break
        when = start + onset
        chord = harmony.at(when)
        strong = abs(onset - round(onset)) < 1e-6 or length >= 1.0
        if strong:
            pitch = nearest_pitch(target, chord.tones, low, high)
        else:
            pitch = _in_range(harmony.snap(target), low, high)
            following = index + 1 < len(targets) and motif.rhythm[index + 1][0] < span
            colour = rng.random()
            if following and ctx.style.harmonic >= 0.4 and colour < ctx.style.harmonic * 0.3:
                next_chord = harmony.at(start + motif.rhythm[index + 1][0])
                goal = nearest_pitch(targets[index + 1], next_chord.tones, low + 1, high - 1)
                pitch = goal - 1 if pitch < goal else goal + 1  # chromatic approach
            elif ctx.style.harmonic >= 0.5 and colour > 1 - (ctx.style.harmonic - 0.4) * 0.5:
                pitch = _blue_note(ctx, pitch)
        accent = 1.08 if abs(when % ctx.beats_per_bar) < 1e-6 else 1.0
        velocity = rng.uniform(88, 100) * ctx.loud * accent
        length = min(length, span - onset)
        notes.append(Draft(pitch, velocity, when, max(length * 0.95, 0.1), "lead"))
    return notes


def _blue_note(ctx: PartContext, pitch: int) -> int:
    """The nearest blue note (the key's flat fifth, or flat third in major) if it is close by."""
    tonic = ctx.harmony.key.tonic_pc
    blues = {(tonic + 6) % 12} | ({(tonic + 3) % 12} if 4 in _intervals(ctx) else set())
    low, high = ctx.pitch_range
    blue = nearest_pitch(pitch, blues, low, high)
    return blue if abs(blue - pitch) <= 2 else pitch


def _intervals(ctx: PartContext) -> set[int]:
    tonic = ctx.harmony.key.tonic_pc
    return {(pc - tonic) % 12 for pc in ctx.harmony.scale}


def _in_range(pitch: int, low: int, high: int) -> int:
    while pitch < low:
        pitch += 12
    while pitch > high:
        pitch -= 12
    return pitch
