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
def tile(grid: str, bar: int, bar_steps: int, felt: int = 0) -> str:
    """Bar `bar` of a one-or-more-bar grid looped from the section start.

    A grid written in 4/4 (whole 16-step bars) played in another meter is fitted bar by
    bar, so every bar still starts on the grid's downbeat: cut short for a shorter bar,
    its last steps played again to fill a longer one. In a compound meter (`felt` dotted
    beats: 2 in 6/8, 4 in 12/8) each 4/4 beat becomes a dotted beat instead, its 8ths
    read as triplets (`_as_triplets`), so a pad's half notes land on 12/8's beats 1 and
    3, not every fourth 8th. Grids written in the meter (`skills/rhythm/meters.json`)
    loop as they are.
    Cached: the skills' grids are few, and every section of every part tiles them again.
    """
    fitted = bar_steps != _COMMON_BAR and not len(grid) % _COMMON_BAR and len(grid) != bar_steps
    if fitted and felt:
        beats = len(grid) // 4
        first = (bar * felt) % beats
        return "".join(
            _as_triplets(grid[4 * ((first + b) % beats) : 4 * ((first + b) % beats) + 4])
            for b in range(felt)
        )[:bar_steps].ljust(bar_steps, "-")
    if fitted:
        first = (bar % (len(grid) // _COMMON_BAR)) * _COMMON_BAR
        own = grid[first : first + _COMMON_BAR]
        while len(own) < bar_steps:
            own += own[-min(_COMMON_BAR // 2, bar_steps - len(own)) :]
        return own[:bar_steps]
    return "".join(grid[(bar * bar_steps + i) % len(grid)] for i in range(bar_steps))


#: Where each 16th of a straight beat falls among a dotted beat's six 16ths: the 8th
#: off-beat on the third triplet 8th, as a shuffle is felt in 12/8.
_TRIPLET_STEP = (0, 2, 4, 5, 6)


@lru_cache(maxsize=1024)
def _as_triplets(beat: str) -> str:
    """One beat of a straight grid (four 16ths) as one dotted beat (six 16ths).

    A hit stays one step; holds (`-`) stretch over the room their steps now cover.
    """
    out = ["."] * 6
    index = 0
    while index < len(beat):
        letter, end = beat[index], index + 1
        while end < len(beat) and beat[end] == "-":
            end += 1
        first, last = _TRIPLET_STEP[index], _TRIPLET_STEP[end]
        if letter == "-":  # a hold carried in from the beat before
            out[first:last] = ["-"] * (last - first)
        elif letter != ".":
            out[first] = letter
            if end > index + 1:
                out[first + 1 : last] = ["-"] * (last - first - 1)
        index = end
    return "".join(out)


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


def read_hits(
    bar_grids: Sequence[str], bar_steps: int, start_letter: str = "x", felt: int = 0
) -> list[Hit]:
    """Hits of consecutive bars; holds (`-`) run across bar lines, a leading hold starts a hit.

    `felt`: the dotted beats of a compound meter (see `tile`)."""
    text = "".join(tile(grid, bar, bar_steps, felt) for bar, grid in enumerate(bar_grids))
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
