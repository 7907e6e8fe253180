"""Reading the 16th-step grids of `skills/rhythm/` into hits with lengths."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

STEP = 0.25  # beats per 16th step


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
    """Bar `bar` of a one-or-more-bar grid looped from the section start (3/4 bars truncate).

    Cached: the skills' grids are few, and every section of every part tiles them again.
    """
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
