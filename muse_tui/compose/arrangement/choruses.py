"""Songs in choruses of a whole form: a jazz head and its solo choruses, a blues chorus.

Such a chorus (`wholeForm` in the template) lasts as long as the song's form, the
progression S2 picked (a 32-bar AABA, a 12-bar blues, the 8- or 16-bar blues a seed
may pick instead), and plays it once. A song is made longer or shorter by adding or
dropping choruses, never by stretching one: the changes a soloist blows over are the
head's. The sections around them (the intro on the turnaround, the tag) take up the rest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from muse_tui.compose.arrangement.plan import SectionPlan
from muse_tui.compose.arrangement.scaling import MIN_SECTION_BARS, scale_bars
from muse_tui.knowledge.arrangement import MAX_SECTION_BARS, WHOLE_FORM_BARS

#: The shortest progression heard as a form rather than a loop (the 8-bar blues).
SHORTEST_FORM_BARS = 8


def sized_to_form(plans: Sequence[SectionPlan], form_bars: int | None) -> list[SectionPlan]:
    """Each whole-form chorus as long as the form; a loop shorter than a form keeps the
    template's length (a jazz relative on a 2-bar vamp plays it 16 times a head)."""
    if form_bars is None or not SHORTEST_FORM_BARS <= form_bars <= WHOLE_FORM_BARS:
        return list(plans)
    return [replace(p, bars=form_bars) if p.whole_form else p for p in plans]


def has_choruses(plans: Sequence[SectionPlan]) -> bool:
    return any(p.whole_form for p in plans)


def fit_choruses(levels: Sequence[Sequence[SectionPlan]], target: int) -> list[SectionPlan] | None:
    """The form with as many choruses as `target` holds, the other sections taking up the
    rest (4 to 16 bars each); None when no count of whole choruses fits."""
    # A tag or an intro the length leaves no room for goes before a chorus is cut.
    bare = [[p for p in level if p.whole_form] for level in levels]
    fitting = [level for level in levels if _rest_fits(level, target)]
    fitting = fitting or [level for level in bare if level and _rest_fits(level, target)]
    if not fitting:
        return None
    chosen = min(fitting, key=lambda lvl: abs(math.log(target / sum(p.bars for p in lvl))))
    free = [p for p in chosen if not p.whole_form]
    if not free:
        return list(chosen)
    rest = target - sum(p.bars for p in chosen if p.whole_form)
    kinds = [p.kind for p in free]
    lengths = iter(
        scale_bars([p.bars for p in free], rest, MIN_SECTION_BARS, MAX_SECTION_BARS, kinds)
    )
    return [p if p.whole_form else replace(p, bars=next(lengths)) for p in chosen]


def natural_target(levels: Sequence[Sequence[SectionPlan]], low: int, high: int) -> int | None:
    """The longest form in whole choruses inside [low, high] bars, with its tag and intro or,
    where they would not fit, without; None when no count of choruses fits."""
    bare = [[p for p in level if p.whole_form] for level in levels]
    lengths = [sum(p.bars for p in level) for level in (*levels, *bare) if level]
    fitting = [t for t in lengths if low <= t <= high]
    return max(fitting) if fitting else None


def _rest_fits(level: Sequence[SectionPlan], target: int) -> bool:
    free = sum(1 for p in level if not p.whole_form)
    rest = target - sum(p.bars for p in level if p.whole_form)
    if not free:
        return rest == 0
    return MIN_SECTION_BARS * free <= rest <= MAX_SECTION_BARS * free
