"""Ornaments a repeated hook is sung with: passing and neighbour notes in its longer gaps.

The tune's own notes stay where and what they are, so the hook is the hook; one note is
added in the longest gap of a bar, off the beat, just before the note that closes the gap
(an 8th, a 16th in a gap under a beat). A passing note steps toward the next note; a note
one step or none away is approached from the other side (an upper or lower neighbour).
An ornament stays inside its bar, so the bar comes back whole wherever it recurs.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from ..humanize import Draft
from .harmony import SectionHarmony

#: An ornament's length in beats (half that in a gap under a beat).
ORNAMENT = 0.5
#: An ornament's loudness against the note it leads into: a grace, not an accent.
SOFTER = 0.85
_NEAR = 1e-6


def ornaments(
    notes: Sequence[Draft],
    begin: float,
    end: float,
    harmony: SectionHarmony,
    window: tuple[int, int],
    bar: float,
    *,
    every: int = 1,
    first: int = 0,
) -> list[Draft]:
    """The ornaments for the line `notes` between `begin` and `end` (bars of `bar` beats): one
    in every `every`-th bar from bar `first`, where a bar has a gap for it, within the
    `window` of pitches. Nothing is drawn at random, so the line's own notes after them are
    what they would have been."""
    line = sorted(notes, key=lambda n: n.start)
    added: list[Draft] = []
    start = begin + first * bar
    while start < end - _NEAR:
        gaps = [
            (a, b, ORNAMENT if b.start - a.start >= 2 * ORNAMENT - _NEAR else ORNAMENT / 2)
            for a, b in pairwise(line)
            if start <= a.start < b.start < start + bar - _NEAR
            and b.start - a.start >= ORNAMENT - _NEAR
        ]
        gaps = [(a, b, size) for a, b, size in gaps if not _on_beat(b.start - size)]
        start += every * bar
        if not gaps:
            continue
        a, b, size = max(gaps, key=lambda gap: gap[1].start - gap[0].start)
        rise = (b.pitch > a.pitch) - (b.pitch < a.pitch) or -1
        pitch = harmony.step(b.pitch, -rise)  # the step just before `b`, from `a`'s side
        if (pitch - a.pitch) * rise <= 0:  # `a` is that step already: from beyond `b`
            pitch = harmony.step(b.pitch, rise)
        if pitch not in (a.pitch, b.pitch) and window[0] <= pitch <= window[1]:
            added.append(Draft(pitch, b.velocity * SOFTER, b.start - size, size, b.voice))
    return added


def _on_beat(when: float) -> bool:
    return abs(when - round(when)) < _NEAR
