"""Where a line's motifs come back: two-bar units lettered A, A', B… as a producer marks a form.

A line is cut, section by section, into two-bar units from each section's first
bar (the unit the listening benchmark counts). A unit's *shape* is its onsets on
the 16th grid and its intervals from its first note, so a unit played again a
step higher is the same idea. Shapes heard at least twice get a letter, in the
order they first appear; a unit with the same rhythm as a lettered one and most
of its intervals is that letter varied (A'). Units heard once stay unmarked: a
roll full of letters would say nothing.

Pure: the studio's piano roll and `bench/piano_roll.py` draw the same marks.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from string import ascii_uppercase

#: Bars in the unit a motif is looked for in.
UNIT_BARS = 2
#: Share of a unit's intervals a varied restatement keeps (with the same rhythm).
VARIED_SHARE = 0.6
_STEPS_PER_BEAT = 4

Shape = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class MotifMark:
    """One occurrence of a motif: where it sounds, its letter, and the pitches it spans."""

    start: float
    end: float
    letter: str  # "A", or "A'" for a varied restatement
    low: int
    high: int

    @property
    def family(self) -> str:
        """The motif it belongs to, variations included ("A" for A and A')."""
        return self.letter.rstrip("'")


@dataclass(frozen=True)
class Span:
    """A stretch of the song (a section) in beats, the units are counted from its start."""

    start: float
    end: float


def find_motifs(
    notes: Sequence[tuple[float, int]], spans: Sequence[Span], beats_per_bar: float
) -> list[MotifMark]:
    """The recurring two-bar units of a line of (onset beat, pitch) notes, in song order."""
    line = sorted(notes)
    starts = [at for at, _ in line]
    units = [u for span in spans for u in _units(line, starts, span, beats_per_bar)]
    counts = Counter(shape for _, _, shape, _ in units)
    letters: dict[Shape, str] = {}
    for _, _, shape, _ in units:
        if counts[shape] >= 2 and shape not in letters:
            letters[shape] = _letter(len(letters))
    marks = []
    for start, end, shape, pitches in units:
        letter = letters.get(shape) or _varied(shape, letters)
        if letter is not None:
            marks.append(MotifMark(start, end, letter, min(pitches), max(pitches)))
    return marks


def _units(
    line: Sequence[tuple[float, int]], starts: Sequence[float], span: Span, beats_per_bar: float
) -> list[tuple[float, float, Shape, list[int]]]:
    """(start, end, shape, pitches) of each non-empty whole unit of a span.

    `line` is sorted and `starts` are its onsets: a unit is a slice of it, so a
    3,000-note chords track opens in the roll without a pass over it per unit.
    """
    length = UNIT_BARS * beats_per_bar
    found = []
    start = span.start
    while start + length <= span.end + 1e-6:
        inside = line[
            bisect_left(starts, start - 1e-6) : bisect_left(starts, start + length - 1e-6)
        ]
        if inside:
            found.append((start, start + length, shape_of(inside, start), [p for _, p in inside]))
        start += length
    return found


def shape_of(notes: Sequence[tuple[float, int]], origin: float) -> Shape:
    """Onsets in 16ths from `origin` and pitches from the first note: transposition-free."""
    first = notes[0][1]
    return tuple((round((at - origin) * _STEPS_PER_BEAT), pitch - first) for at, pitch in notes)


def _varied(shape: Shape, letters: dict[Shape, str]) -> str | None:
    """The letter (primed) of a lettered shape with this rhythm and most of its intervals."""
    rhythm = [at for at, _ in shape]
    for known, letter in letters.items():
        if [at for at, _ in known] != rhythm or len(shape) < 2:
            continue
        same = sum(a == b for (_, a), (_, b) in zip(shape[1:], known[1:], strict=True))
        if same / (len(shape) - 1) >= VARIED_SHARE:
            return letter + "'"
    return None


def _letter(index: int) -> str:
    return ascii_uppercase[index % len(ascii_uppercase)]
