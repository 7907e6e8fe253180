"""The lead as a listener follows it: does it breathe, and does an idea come back."""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence

from muse_tui.contracts.song import Section

from ..melody.recurrence import shape_of
from .listening import Part

Note = tuple[float, float, int, int]


def lead_notes(parts: Sequence[Part]) -> list[Note]:
    """Every note of the song's lead tracks, in onset order."""
    return sorted(n for p in parts if p.track.role == "lead" for n in p.notes)


def rest_share(
    notes: Sequence[Note], sections: Sequence[Section], bar_beat: Callable[[int], float]
) -> float | None:
    """Share of the time the lead is silent, over the sections it plays in (None: it never does).

    `bar_beat` places bar N (`SongState.bar_beat`, through meter changes)."""
    every = [(bar_beat(s.start_bar), bar_beat(s.end_bar)) for s in sections]
    spans = [(lo, hi) for lo, hi in every if any(lo <= n[0] < hi for n in notes)]
    total = sum(hi - lo for lo, hi in spans)
    if not total:
        return None
    sounding = reach = 0.0
    for start, end, _, _ in notes:
        begin = max(start, reach)
        if end > begin and any(lo <= start < hi for lo, hi in spans):
            sounding += end - begin
        reach = max(reach, end)
    return max(0.0, 1 - sounding / total)


def motif_units(
    notes: Sequence[Note], sections: Sequence[Section], bpb: float, unit_bars: int
) -> list[tuple[tuple[int, int], ...]]:
    """The lead cut into units of `unit_bars` from each section's start, transposition-free.

    `notes` are in onset order (as `lead_notes` gives them).

    A unit is its onsets (16th steps from the unit's start) and its pitches against
    the unit's first note, so a sequence a tone higher is the same idea: `shape_of`,
    the shape the studio roll letters motifs by.
    """
    units = []
    for section in sections:
        for first in range(section.start_bar, section.end_bar - unit_bars + 1, unit_bars):
            lo, hi = first * bpb, (first + unit_bars) * bpb
            inside = notes[bisect_left(notes, (lo,)) : bisect_left(notes, (hi,))]
            if inside:
                units.append(shape_of([(n[0], n[2]) for n in inside], lo))
    return units


def motif_recurrence(
    notes: Sequence[Note], sections: Sequence[Section], bpb: float, unit_bars: int
) -> float | None:
    """Share of the lead's units heard at least twice (None: fewer than two units to compare)."""
    units = motif_units(notes, sections, bpb, unit_bars)
    if len(units) < 2:
        return None
    counts = Counter(units)
    return sum(1 for u in units if counts[u] >= 2) / len(units)
