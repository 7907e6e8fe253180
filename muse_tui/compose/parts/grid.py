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
def tile(grid: str, bar: int, bar_steps: int, plan: FitPlan = ()) -> str:
    """Bar `bar` of a one-or-more-bar grid looped from the section start.

    A grid written in 4/4 (whole 16-step bars) played in another meter is fitted bar by
    bar, so every bar still starts on the grid's downbeat. With a `plan` (`fit_plan`:
    the meter's groups), each group takes its share of the 4/4 grid, so the grouping is
    heard: in 6/8, 12/8 and 7/8 each group takes one 4/4 beat (a group of three 8ths
    reads its 8ths as triplets, `_as_triplets`), and in 5/4 as 3+2 each group takes
    half a 4/4 bar, so a pad's half notes land on beats 1 and 4. Without one the grid
    is cut short for a shorter bar, its last steps played again to fill a longer one.
    Grids written in the meter (`skills/rhythm/meters.json`) loop as they are.
    Cached: the skills' grids are few, and every section of every part tiles them again.
    """
    fitted = bar_steps != _COMMON_BAR and not len(grid) % _COMMON_BAR and len(grid) != bar_steps
    if fitted and plan:
        return _by_groups(grid, bar, plan)[:bar_steps].ljust(bar_steps, "-")
    if fitted:
        first = (bar % (len(grid) // _COMMON_BAR)) * _COMMON_BAR
        own = grid[first : first + _COMMON_BAR]
        while len(own) < bar_steps:
            own += own[-min(_COMMON_BAR // 2, bar_steps - len(own)) :]
        return own[:bar_steps]
    return "".join(grid[(bar * bar_steps + i) % len(grid)] for i in range(bar_steps))


#: How a meter's groups take a 4/4 grid: ("beat", steps) takes one 4/4 beat into a group
#: of that many 16ths (4 as it is, 6 as triplets); ("half", beats) takes half a 4/4 bar.
FitPlan = tuple[tuple[str, int], ...]


def fit_plan(numerator: int, denominator: int, grouping: tuple[int, ...]) -> FitPlan:
    """The plan `tile` fits a 4/4 grid by in this meter; () where cutting it is right
    (3/4, 2/4, 6/4 counted in quarters: every beat is a beat of the 4/4 grid)."""
    if denominator == 8 and all(g in (2, 3) for g in grouping) and len(grouping) > 1:
        return tuple(("beat", 2 * g) for g in grouping)
    if denominator == 4 and len(grouping) == 2 and min(grouping) >= 2:
        return tuple(("half", g) for g in grouping)
    return ()


def _by_groups(grid: str, bar: int, plan: FitPlan) -> str:
    """One bar of a 4/4 grid laid over the meter's groups, group by group."""
    unit = 4 if plan[0][0] == "beat" else 8
    units = len(grid) // unit
    first = (bar * len(plan)) % units
    out = []
    for index, (kind, size) in enumerate(plan):
        at = unit * ((first + index) % units)
        piece = grid[at : at + unit]
        if kind == "beat":
            out.append(piece if size == 4 else _as_triplets(piece))
            continue
        beats = [piece[:4], piece[4:]]
        while len(beats) < size:  # a longer group plays the half's last beat again
            beats.append(beats[-1])
        out.append("".join(beats[:size]))
    return "".join(out)


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


@lru_cache(maxsize=1024)
def at_half_speed(grid: str) -> str:
    """A grid played at half speed: every step takes two, a hit held through its second
    (a 4/4 bar becomes two, the backbeat on 2 and 4 lands on 3 of each: half time)."""
    return "".join(c + ("." if c == "." else "-") for c in grid)


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
    bar_grids: Sequence[str], bar_steps: int, start_letter: str = "x", plan: FitPlan = ()
) -> list[Hit]:
    """Hits of consecutive bars; holds (`-`) run across bar lines, a leading hold starts a hit.

    `plan`: how the meter's groups take a 4/4 grid (see `tile`)."""
    text = "".join(tile(grid, bar, bar_steps, plan) for bar, grid in enumerate(bar_grids))
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
