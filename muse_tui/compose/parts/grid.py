"""Reading the 16th-step grids of `skills/rhythm/` into hits with lengths."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

STEP = 0.25  # beats per 16th step
_COMMON_BAR = 16  # steps in a 4/4 bar, the meter most grids are written in


@dataclass(frozen=True)
class Hit:
    """A hit of a grid: its letter, its step from the section start, how many steps it holds."""

    letter: str
    step: int
    steps: int

    @property
    def start(self) -> float:
        return self.step * STEP

    @property
    def length(self) -> float:
        return self.steps * STEP


def steps_per_bar(beats_per_bar: float) -> int:
    return max(1, round(beats_per_bar * 4))


@lru_cache(maxsize=4096)
def tile(grid: str, bar: int, bar_steps: int) -> str:
    """Bar `bar` of a one-or-more-bar grid looped from the section start.

    A grid written in 4/4 (whole 16-step bars) played in another meter is fitted bar by
    bar, so every bar still starts on the grid's downbeat: cut short for a shorter bar,
    its last steps played again to fill a longer one. Grids written in the meter
    (`skills/rhythm/meters.json`) loop as they are.
    Cached: the skills' grids are few, and every section of every part tiles them again.
    """
    if bar_steps != _COMMON_BAR and not len(grid) % _COMMON_BAR and len(grid) != bar_steps:
        first = (bar % (len(grid) // _COMMON_BAR)) * _COMMON_BAR
        own = grid[first : first + _COMMON_BAR]
        while len(own) < bar_steps:
            own += own[-min(_COMMON_BAR // 2, bar_steps - len(own)) :]
        return own[:bar_steps]
    return "".join(grid[(bar * bar_steps + i) % len(grid)] for i in range(bar_steps))


def pick_per_phrase(
    options: Sequence[str], bars: int, rng: random.Random, phrase: int = 4
) -> list[str]:
    """One grid per bar: a main grid held for each phrase, an alternative now and then."""
    main = rng.choice(list(options))
    chosen: list[str] = []
    for bar in range(bars):
        phrase_end = bar % phrase == phrase - 1
        chosen.append(rng.choice(list(options)) if phrase_end and rng.random() < 0.5 else main)
    return chosen


def read_hits(bar_grids: Sequence[str], bar_steps: int, start_letter: str = "x") -> list[Hit]:
    """Hits of consecutive bars; holds (`-`) run across bar lines, a leading hold starts a hit."""
    text = "".join(tile(grid, bar, bar_steps) for bar, grid in enumerate(bar_grids))
    hits: list[Hit] = []
    letter: str | None = None
    begin = 0
    for index, char in enumerate(text):
        if char == "-":
            if letter is None:
                letter, begin = start_letter, index
            continue
        if letter is not None:
            hits.append(Hit(letter, begin, index - begin))
            letter = None
        if char != ".":
            letter, begin = char, index
    if letter is not None:
        hits.append(Hit(letter, begin, len(text) - begin))
    return hits
