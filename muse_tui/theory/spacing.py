"""How chord notes may be spaced: the low-interval limit, and two players' notes kept apart.

Low in the register close intervals turn to mud: arrangers' "low interval limits"
put a major or minor 2nd no lower than about E3 and any 3rd no lower than about C3,
so under C3 only fifths and octaves stand. The floors are data
(`skills/harmony/voicings.json`); `LOW_LIMIT` holds the usual ones for callers without it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class LowLimit:
    """The low-interval limit: no 2nd with both notes under `second_floor`, nothing under a
    5th with both notes under `third_floor` (MIDI; E3 and C3 by default)."""

    second_floor: int = 52
    third_floor: int = 48

    def muddy(self, low: int, high: int) -> bool:
        """Whether two notes sounding together break the limit."""
        low, high = min(low, high), max(low, high)
        interval = high - low
        return (high < self.second_floor and interval in (1, 2)) or (
            high < self.third_floor and interval < 7
        )


#: The limit the producer audit holds voicings to (skills/harmony/voicings.json).
LOW_LIMIT = LowLimit()


def low_interval_faults(
    voicing: Sequence[int], limit: LowLimit = LOW_LIMIT
) -> list[tuple[int, int]]:
    """Every pair of notes of the voicing (lower first) that breaks the low-interval limit."""
    notes = sorted(set(voicing))
    return [(a, b) for i, a in enumerate(notes) for b in notes[i + 1 :] if limit.muddy(a, b)]


def clear_low_intervals(
    voicing: Sequence[int], high: int = 127, limit: LowLimit = LOW_LIMIT
) -> tuple[int, ...]:
    """The voicing with every muddy pair opened: the upper note of the lowest pair goes up
    an octave (it keeps its pitch class), or out when that would pass `high` or double a note.

    The bottom note stays where it is: it is the voicing's bass, or the note the
    register put lowest.
    """
    notes = sorted(set(voicing))
    while faults := low_interval_faults(notes, limit):
        _, upper = faults[0]
        notes.remove(upper)
        if upper + 12 <= high and upper + 12 not in notes:
            notes.append(upper + 12)
            notes.sort()
    return tuple(notes)


def nested(a: Collection[int], b: Collection[int]) -> bool:
    """Whether two voicings sound the same chord: one's pitch classes lie inside the other's.

    Two players striking nested sets at once are heard as one doubled chord.
    """
    pcs_a, pcs_b = {p % 12 for p in a}, {p % 12 for p in b}
    return bool(pcs_a) and bool(pcs_b) and (pcs_a <= pcs_b or pcs_b <= pcs_a)


def upper_voice_motion(before: Sequence[int], after: Sequence[int]) -> float:
    """Semitones the upper voices move from one voicing to the next, the lowest note left out.

    Voices pair from the top down (the top voice is the one heard as a line); a
    voice with no partner moves as far as its nearest note in the other voicing.
    """
    upper_a, upper_b = sorted(before)[1:], sorted(after)[1:]
    if not upper_a or not upper_b:
        return 0.0
    pairs = min(len(upper_a), len(upper_b))
    moved = sum(
        abs(x - y) for x, y in zip(upper_a[::-1][:pairs], upper_b[::-1][:pairs], strict=True)
    )
    longer, other = (upper_a, upper_b) if len(upper_a) > len(upper_b) else (upper_b, upper_a)
    for note in longer[::-1][pairs:]:
        moved += min(abs(note - o) for o in other)
    return float(moved)
