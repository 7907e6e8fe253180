"""Chords, keys, pads, arps and textures: S2's voicings played in the genre's comping rhythm.

Voicings come from the progression, moved by octaves (or inverted) into the
track's register with the least motion from the chord before. A hit that is
still held when the chord changes is struck again on the new chord; a push
(`P`) plays the next chord an 8th early and holds it across the bar line.
"""

from __future__ import annotations

import random

from muse_tui.contracts import ControlChange

from ..humanize import Draft
from ..transitions import expression_fade
from .context import PartContext, PartDraft
from .grid import Hit, pick_per_phrase, read_hits
from .harmony import nearest_pitch

_VELOCITY = {"X": 100, "x": 86, "o": 66, "P": 96, "p": 80}
_RESTRIKE = 0.85  # velocity of a held chord struck again on a chord change
_STRUM_GAP = 0.02  # beats between strings
_EXPRESSION = 11


def write_comping(ctx: PartContext, rng: random.Random, rhythm: str | None = None) -> PartDraft:
    """Chord hits in `rhythm` (default: the genre's chord rhythm) for one section."""
    rhythm = rhythm or ctx.style.chord_rhythm
    if rhythm == "none":
        rhythm = "sustained"
    comp = ctx.table.comping[rhythm]  # type: ignore[index]
    grids = pick_per_phrase(getattr(comp, ctx.density), ctx.bars, rng)
    voicings = voice_led(ctx)
    notes: list[Draft] = []
    arp_up_down = rng.random() < 0.5
    arp_count, arp_chord = 0, -1
    for hit in read_hits(grids, ctx.bar_steps, "x"):
        for index, start, end, restruck in _segments(ctx, hit):
            velocity = _VELOCITY[hit.letter] * ctx.loud * (_RESTRIKE if restruck else 1.0)
            length = (end - start) * comp.gate
            voicing = voicings[index]
            if rhythm == "arpeggiated":
                arp_count = 0 if index != arp_chord else arp_count + 1
                arp_chord = index
                pitch = _arp_note(voicing, arp_count, arp_up_down)
                notes.append(Draft(pitch, velocity, start, length, ctx.track.role))
            elif rhythm == "strum":
                notes += _strum(ctx, voicing, velocity, start, length)
            else:
                notes += _chord(ctx, voicing, velocity, start, length)
    return PartDraft(notes=notes, feel=ctx.feel.scaled(timing=1.1, velocity=0.7))


def write_pad(ctx: PartContext, rng: random.Random) -> PartDraft:
    """Held chords, soft, with an expression swell in and a fade where the section fades."""
    draft = write_comping(ctx, rng, "sustained")
    for note in draft.notes:
        note.velocity *= 0.78
    before = ctx.neighbours[0]
    swells = ctx.section.kind == "intro" or (before is not None and before.energy < 0.35)
    start = 50 if swells else 100
    draft.control_changes = _ramp(ctx, 0.0, min(ctx.length, ctx.beats_per_bar * 2), start, 100)
    fade = expression_fade(ctx.section.transition, ctx.length, ctx.beats_per_bar)
    if fade is not None:
        draft.control_changes += _ramp(ctx, *fade, 100, 40)[1:]
    return draft


def write_texture(ctx: PartContext, rng: random.Random) -> PartDraft:
    """Long, high chord tones drifting over the changes: one every bar or two."""
    low, high = ctx.pitch_range
    every = ctx.beats_per_bar * (1 if ctx.density == "busy" else 2)
    target = low + (high - low) * 0.4
    notes: list[Draft] = []
    start = 0.0
    while start < ctx.length - 1e-6:
        chord = ctx.harmony.at(start)
        target += rng.choice((-3, -2, 0, 2, 3))
        target = min(max(target, low + 4), high - 4)
        pitch = nearest_pitch(target, chord.tones, low, high)
        length = min(every * 0.95, ctx.length - start)
        velocity = rng.uniform(52, 68) * ctx.loud
        notes.append(Draft(pitch, velocity, start, length, "texture"))
        others = chord.tones - {pitch % 12}
        if ctx.density == "busy" and others and pitch + 2 <= high:
            second = nearest_pitch(pitch + 4, others, pitch + 2, high)
            notes.append(Draft(second, velocity * 0.85, start + 0.5, length - 0.5, "texture"))
        start += every
    return PartDraft(notes=notes, feel=ctx.feel.scaled(timing=1.5))


def voice_led(ctx: PartContext) -> list[tuple[int, ...]]:
    """Every chord's voicing, in the track's register, moving as little as it can."""
    low, high = ctx.pitch_range
    centre = (low + high) / 2
    chords = ctx.harmony.chords
    every = [p for c in chords for p in c.voicing]
    shift = 12 * round((centre - sum(every) / len(every)) / 12)
    placed: list[tuple[int, ...]] = []
    for chord in chords:
        base = _fold([p + shift for p in chord.voicing], low, high)
        if not placed:
            placed.append(base)
            continue
        before = placed[-1]
        candidates = [(c, cost) for c, cost in _candidates(base, low, high)]
        placed.append(min(candidates, key=lambda cc: (_motion(before, cc[0]) + cc[1], cc[0]))[0])
    return _sized(ctx, placed)


def _candidates(base: tuple[int, ...], low: int, high: int) -> list[tuple[tuple[int, ...], int]]:
    """The voicing by octaves and its inversions, with a cost for leaving S2's shape."""
    found = []
    for rotation in range(-2, 3):
        notes = list(base)
        for _ in range(abs(rotation)):
            if rotation > 0:
                notes = sorted([*notes[1:], notes[0] + 12])
            else:
                notes = sorted([notes[-1] - 12, *notes[:-1]])
        for octave in (-12, 0, 12):
            moved = tuple(n + octave for n in notes)
            if moved[0] >= low and moved[-1] <= high:
                found.append((moved, 2 * abs(rotation) + (3 if octave else 0)))
    return found or [(base, 0)]


def _fold(notes: list[int], low: int, high: int) -> tuple[int, ...]:
    folded = set()
    for note in notes:
        while note < low:
            note += 12
        while note > high:
            note -= 12
        folded.add(note)
    return tuple(sorted(folded))


def _motion(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    if len(a) == len(b):
        return sum(abs(x - y) for x, y in zip(a, b, strict=True))
    return abs(sum(a) / len(a) - sum(b) / len(b)) * len(b) + abs(a[-1] - b[-1])


def _sized(ctx: PartContext, voicings: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Thinner voicings when quiet, an octave doubling on top when hot."""
    low, high = ctx.pitch_range
    sized = []
    for voicing in voicings:
        notes = list(voicing)
        if ctx.density == "sparse" and len(notes) > 3:
            notes = notes[1:]
        elif ctx.density == "busy":
            if notes[-1] + 12 <= high and notes[-1] + 12 - notes[-2] > 2:
                notes.append(notes[-1] + 12)
            elif notes[0] - 12 >= low:
                notes.insert(0, notes[0] - 12)
        sized.append(tuple(notes))
    return sized


def _segments(ctx: PartContext, hit: Hit) -> list[tuple[int, float, float, bool]]:
    """(chord index, start, end, struck again?) for a hit, split where the chord changes."""
    chords = ctx.harmony.chords
    pushed = hit.letter in "Pp"
    index = ctx.harmony.index(hit.start + (0.5 if pushed else 0.0))
    end = min(hit.start + hit.length, ctx.length)
    segments = [(index, hit.start, min(end, chords[index].end), False)]
    while chords[index].end < end - 1e-6 and index + 1 < len(chords):
        index += 1
        segments.append((index, chords[index].start, min(end, chords[index].end), True))
    return [s for s in segments if s[2] - s[1] > 1e-6]


def _chord(
    ctx: PartContext, voicing: tuple[int, ...], velocity: float, start: float, length: float
) -> list[Draft]:
    top = len(voicing) - 1
    return [
        Draft(
            pitch,
            velocity * (1.06 if i == top else 0.94 if i == 0 else 1.0),
            start,
            length,
            ctx.track.role,
        )
        for i, pitch in enumerate(voicing)
    ]


def _strum(
    ctx: PartContext, voicing: tuple[int, ...], velocity: float, start: float, length: float
) -> list[Draft]:
    """Strings struck one after another: down on the beat-side 8ths, up on the off-8ths."""
    upstroke = round(start * 2) % 2 == 1
    order = list(reversed(voicing)) if upstroke else list(voicing)
    return [
        Draft(
            pitch,
            velocity * (0.85 if upstroke else 1.0),
            start + k * _STRUM_GAP,
            max(length - k * _STRUM_GAP, 0.05),
            ctx.track.role,
        )
        for k, pitch in enumerate(order)
    ]


def _arp_note(voicing: tuple[int, ...], count: int, up_down: bool) -> int:
    notes = list(voicing)
    if up_down and len(notes) > 2:
        notes = notes + notes[-2:0:-1]
    return notes[count % len(notes)]


def _ramp(
    ctx: PartContext, start: float, end: float, begin: int, finish: int
) -> list[ControlChange]:
    points = max(1, round((end - start) * 2))
    return [
        ControlChange(
            beat=start + (end - start) * k / points,
            controller=_EXPRESSION,
            value=round(begin + (finish - begin) * k / points),
            channel=ctx.track.channel,
        )
        for k in range(points + 1)
    ]
