"""Players that re-voice a drafted part in time (`picked` and `line` idioms of
`skills/sound/articulations.json`).

A fingerpicking guitarist does not hold the chord the comping writer drafted: the
thumb plays its bass on the `thumb` steps and the fingers its upper notes on the
`pattern` steps, one at a time up and back (an arpeggio) or all together (a
bossa nova pinch). A melody instrument seated on an arp or a pad (a tin whistle)
plays a line: one note at a time, legato, by step, with a cut on its longer notes.
"""

from __future__ import annotations

import math

from muse_tui.knowledge.articulations import Idiom
from muse_tui.theory import fold_into

from ..humanize import Draft
from .context import PartContext, PartDraft

_STEP = 0.25
#: A cut: the grace note's length (beats), too short to be heard as a note.
_CUT = 0.06


def picked(ctx: PartContext, draft: PartDraft, idiom: Idiom) -> PartDraft:
    """Each drafted chord picked on the thumb and finger patterns while it sounds."""
    chords = _chords(draft.notes)
    played: list[Draft] = []
    for i, (onset, chord) in enumerate(chords):
        following = chords[i + 1][0] if i + 1 < len(chords) else math.inf
        end = min(max(n.end for n in chord), following)
        if end - onset < 2 * _STEP:
            played += chord  # too short to pick: a stab stays a stab
            continue
        played += _pick(chord, onset, end, idiom) or chord
    return PartDraft(played, draft.control_changes, draft.pitch_bends, draft.feel)


def _pick(chord: list[Draft], onset: float, end: float, idiom: Idiom) -> list[Draft]:
    bass, upper = chord[0], chord[1:] or chord[:1]
    order = upper + upper[-2:0:-1]  # up and back: i m a m
    finger = 0
    notes: list[Draft] = []
    for k in range(math.ceil(onset / _STEP - 1e-6), math.ceil(end / _STEP - 1e-6)):
        at = k * _STEP
        thumb, fingers = step_at(idiom.thumb, at), step_at(idiom.pattern, at)
        struck: list[Draft] = []
        if thumb != ".":
            struck.append(bass)
        if fingers != ".":
            struck += upper if idiom.pinch else [order[finger % len(order)]]
            finger += 1
        for note in struck:
            weight = 1.0 if note is bass else 0.85
            length = min(idiom.longest, end - at)
            notes.append(Draft(note.pitch, note.velocity * weight, at, length, note.voice))
    return notes


def line(ctx: PartContext, draft: PartDraft, idiom: Idiom) -> PartDraft:
    """The draft as one legato line on `pattern`'s steps, by step within `leap`, cut."""
    kept: list[Draft] = []
    for note in sorted(draft.notes, key=lambda n: (n.start, -n.pitch)):
        if kept and note.start < kept[-1].start + _STEP - 1e-6:
            continue  # one note at a time: the top one, then the next step
        if idiom.pattern and step_at(idiom.pattern, note.start) == ".":
            continue
        kept.append(note)
    scale = ctx.harmony.scale
    low, high = idiom.pitch_range or (0, 127)
    played: list[Draft] = []
    last: int | None = None
    for i, note in enumerate(kept):
        pitch = fold_into(note.pitch, low, high)
        if last is not None and abs(pitch - last) > idiom.leap:
            pitch = _toward(last, pitch, idiom.leap, scale, low, high)
        end = note.end
        if i + 1 < len(kept):
            following = kept[i + 1].start
            end = following if following - note.end <= 0.5 else min(end, following)
        length = max(end - note.start, _STEP / 2)
        start = note.start
        if idiom.cut and length >= 1.0:
            grace = _above(pitch, scale)
            played.append(Draft(grace, note.velocity * 0.7, start, _CUT, note.voice, True))
            start, length = start + _CUT, length - _CUT
        played.append(Draft(pitch, note.velocity, start, length, note.voice, note.locked))
        last = pitch
    return PartDraft(played, draft.control_changes, draft.pitch_bends, draft.feel)


def _toward(last: int, target: int, leap: int, scale: tuple[int, ...], low: int, high: int) -> int:
    """The widest scale step from `last` toward `target` within `leap`, inside the range."""
    for direction in (1 if target > last else -1, -1 if target > last else 1):
        for size in range(leap, 0, -1):
            pitch = last + direction * size
            if pitch % 12 in scale and low <= pitch <= high:
                return pitch
    return last


def _above(pitch: int, scale: tuple[int, ...]) -> int:
    """The scale tone above `pitch` (a cut's grace note)."""
    return next(p for p in range(pitch + 1, pitch + 13) if p % 12 in scale)


def _chords(notes: list[Draft]) -> list[tuple[float, list[Draft]]]:
    """The notes struck together, by onset, each chord lowest first."""
    by_onset: dict[float, list[Draft]] = {}
    for note in notes:
        by_onset.setdefault(round(note.start, 4), []).append(note)
    return [(t, sorted(c, key=lambda n: n.pitch)) for t, c in sorted(by_onset.items())]


def step_at(pattern: str, start: float) -> str:
    """The pattern's 16th step at `start` ('.' off the 16th grid or with no pattern)."""
    if not pattern or abs(start / _STEP - round(start / _STEP)) > 1e-3:
        return "."
    return pattern[round(start / _STEP) % len(pattern)]
