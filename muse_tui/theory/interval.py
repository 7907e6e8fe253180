"""Interval names (m3, P5, M9, A11…) and their sizes in semitones."""

from __future__ import annotations

import re

# Semitones of the major-scale step for each generic interval number 1–7.
_DIATONIC = (0, 2, 4, 5, 7, 9, 11)
_PERFECT_NUMBERS = {1, 4, 5}
_INTERVAL = re.compile(r"^(?P<quality>P|M|m|A|d)(?P<number>\d{1,2})$")

# The name we give each size: the spelling a chord chart uses (A4 for the
# tritone, m10 rather than A9 for 15 semitones).
_NAMES = (
    "P1", "m2", "M2", "m3", "M3", "P4", "A4", "P5", "m6", "M6", "m7", "M7",
    "P8", "m9", "M9", "m10", "M10", "P11", "A11", "P12", "m13", "M13", "m14", "M14",
    "P15",
)  # fmt: skip


class IntervalSyntaxError(ValueError):
    """An interval name that cannot be read."""


def interval_semitones(name: str) -> int:
    """Semitones in a named interval: "m3" → 3, "A4" → 6, "d5" → 6, "M13" → 21.

    Quality letters are case-sensitive (M major, m minor, P perfect, A augmented,
    d diminished); numbers run from 1 to 15.
    """
    match = _INTERVAL.match(name.strip())
    if match is None:
        raise IntervalSyntaxError(
            f"{name!r} is not an interval name; expected e.g. 'm3', 'P5', 'A4', 'M9'"
        )
    quality, number = match["quality"], int(match["number"])
    if not 1 <= number <= 15:
        raise IntervalSyntaxError(f"{name!r}: interval numbers run from 1 to 15")
    octaves, step = divmod(number - 1, 7)
    base = _DIATONIC[step] + 12 * octaves
    if step + 1 in _PERFECT_NUMBERS:
        offsets = {"P": 0, "A": 1, "d": -1}
    else:
        offsets = {"M": 0, "m": -1, "A": 1, "d": -2}
    if quality not in offsets:
        kind = "perfect" if step + 1 in _PERFECT_NUMBERS else "major/minor"
        raise IntervalSyntaxError(f"{name!r}: a {number} is a {kind} interval")
    return base + offsets[quality]


def interval_name(semitones: int) -> str:
    """The usual name of an interval of 0–24 semitones (7 → "P5", 14 → "M9")."""
    if not 0 <= semitones < len(_NAMES):
        raise ValueError(f"no interval name for {semitones} semitones (0–24 supported)")
    return _NAMES[semitones]
