"""Meter: how many beats a bar holds, of what note value, and how they group.

One `Meter` is the song's; a section may carry its own (a 6/8 bridge in a 4/4 song).
`BarMap` answers "where does bar N start, and how long is it" for a whole song, so
every layer places bars the same way.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import pairwise
from typing import Literal

from pydantic import Field, model_validator

from .base import Contract

Denominator = Literal[2, 4, 8, 16]

_LABEL = re.compile(r"^\s*(\d{1,2})\s*/\s*(\d{1,2})\s*$")


def default_grouping(numerator: int, denominator: int) -> tuple[int, ...]:
    """How a meter groups when nobody says: compound 8ths in threes, odd 8ths 2+2+3,
    5/4 as 3+2 (the Take Five count), simple meters beat by beat."""
    if denominator >= 8 and numerator % 3 == 0 and numerator > 3:
        return (3,) * (numerator // 3)
    if denominator >= 8 and numerator > 3:
        twos, rest = divmod(numerator, 2)
        return (2,) * (twos - 1) + (3,) if rest else (2,) * twos
    if numerator == 5:
        return (3, 2)
    if numerator == 7:
        return (4, 3)
    return (1,) * numerator


class Meter(Contract):
    """A time signature and its grouping, counted in the denominator's note value."""

    numerator: int = Field(ge=1, le=32)
    denominator: Denominator = 4
    #: Pulses per felt beat, in the denominator's value: 6/8 = (3, 3), 7/8 = (2, 2, 3).
    grouping: tuple[int, ...] = ()

    @model_validator(mode="after")
    def _grouping_fills_the_bar(self) -> Meter:
        if not self.grouping:
            object.__setattr__(self, "grouping", default_grouping(self.numerator, self.denominator))
        elif sum(self.grouping) != self.numerator or min(self.grouping) < 1:
            raise ValueError(
                f"grouping {'+'.join(map(str, self.grouping))} does not add up to "
                f"{self.numerator} in {self.numerator}/{self.denominator}"
            )
        return self

    @classmethod
    def parse(cls, label: str, grouping: Sequence[int] = ()) -> Meter:
        """'6/8' → Meter(6, 8, (3, 3)); raises ValueError for anything that is not a meter."""
        match = _LABEL.match(label)
        if match is None:
            raise ValueError(f"{label!r} is not a time signature like 3/4 or 6/8")
        numerator, denominator = int(match[1]), int(match[2])
        if denominator not in (2, 4, 8, 16) or not 1 <= numerator <= 32:
            raise ValueError(f"{label} is not a time signature a DAW can hold")
        return cls(numerator=numerator, denominator=denominator, grouping=tuple(grouping))

    @property
    def label(self) -> str:
        return f"{self.numerator}/{self.denominator}"

    @property
    def time_signature(self) -> tuple[int, int]:
        return self.numerator, self.denominator

    @property
    def pulse(self) -> float:
        """Quarter-note beats one pulse (the denominator's note) lasts."""
        return 4 / self.denominator

    @property
    def beats_per_bar(self) -> float:
        """The bar's length in quarter-note beats (the unit every note is placed in)."""
        return self.numerator * self.pulse

    @property
    def group_starts(self) -> tuple[float, ...]:
        """Where each felt beat starts in the bar, in quarter-note beats: 7/8 → (0, 1, 2)."""
        starts, at = [], 0
        for size in self.grouping:
            starts.append(at * self.pulse)
            at += size
        return tuple(starts)

    @property
    def is_common(self) -> bool:
        return self.time_signature == (4, 4)

    @property
    def is_compound(self) -> bool:
        """Felt in dotted beats (6/8, 9/8, 12/8)."""
        return self.denominator >= 8 and all(g == 3 for g in self.grouping)

    @property
    def feel_words(self) -> str:
        """How a player counts it: '6/8, felt in two (3+3)'."""
        groups = len(self.grouping)
        if self.denominator == 4 and all(g == 1 for g in self.grouping):
            return self.label
        counted = "+".join(map(str, self.grouping))
        return f"{self.label}, felt in {_COUNT_WORDS.get(groups, str(groups))} ({counted})"


_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}

COMMON_TIME = Meter(numerator=4, denominator=4)


class BarMap:
    """Where every bar of a song starts, in quarter-note beats, through its meter changes.

    `changes` are (first bar, meter) pairs in bar order; bar 0 always has one.
    """

    __slots__ = ("_bars", "_meters", "_starts")

    def __init__(self, changes: Sequence[tuple[int, Meter]]) -> None:
        if not changes or changes[0][0] != 0:
            changes = [(0, COMMON_TIME), *changes]
        self._bars = [bar for bar, _ in changes]
        self._meters = [meter for _, meter in changes]
        starts = [0.0]
        for (bar, meter), (following, _) in pairwise(changes):
            starts.append(starts[-1] + (following - bar) * meter.beats_per_bar)
        self._starts = starts

    def _index(self, bar: int) -> int:
        return max(0, bisect_right(self._bars, bar) - 1)

    def meter_at(self, bar: int) -> Meter:
        return self._meters[self._index(bar)]

    def bar_start(self, bar: int) -> float:
        """The beat bar `bar` (from 0) starts on; bars past the end keep the last meter."""
        index = self._index(bar)
        return self._starts[index] + (bar - self._bars[index]) * self._meters[index].beats_per_bar

    def bar_length(self, bar: int) -> float:
        return self.meter_at(bar).beats_per_bar

    def bar_at(self, beat: float) -> int:
        """The bar (from 0) that holds `beat`."""
        index = max(0, bisect_right(self._starts, beat + 1e-9) - 1)
        offset = beat - self._starts[index]
        return self._bars[index] + int((offset + 1e-9) // self._meters[index].beats_per_bar)

    @property
    def changes(self) -> list[tuple[int, Meter]]:
        return list(zip(self._bars, self._meters, strict=True))
