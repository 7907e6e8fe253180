"""Section lengths scaled to a song's length in phrase steps (4 or 8 bars)."""

from __future__ import annotations

import math
from collections.abc import Sequence

MIN_SECTION_BARS = 4
#: Which sections grow past their own length first when a form is stretched: the body (2), the
#: outro, the intro.
_GROWS_FIRST = {"intro": 0, "outro": 1}


def _grow_tier(
    kinds: Sequence[str] | None, bars: Sequence[int], index: int, units: int, grain: int
) -> int:
    """Which sections take a step first: the body, then an outro or intro past its own length."""
    if kinds is None or units * grain <= bars[index]:
        return 2
    return _GROWS_FIRST.get(kinds[index], 2)


def scale_bars(
    bars: Sequence[int],
    target: int,
    grain: int = MIN_SECTION_BARS,
    cap: int | None = None,
    kinds: Sequence[str] | None = None,
) -> list[int]:
    """Scale lengths to sum to `target` in steps of `grain`, each at least one step.

    No section grows past `cap` bars while another still has room. The remainder
    (`target % grain`) goes to the longest section, so at most one section leaves
    the grid. With the sections' `kinds`, a step that would take an intro or an outro
    past its own length goes to the body first, then to the outro, then to the intro.
    """
    units = target // grain
    if units < len(bars):
        raise ValueError(f"{len(bars)} sections cannot fit in {target} bars")
    most = max(1, cap // grain) if cap else units
    total = sum(bars)
    ideal = [b * units / total for b in bars]
    count = [min(most, max(1, math.floor(x))) for x in ideal]
    while sum(count) > units:
        shrink = max(
            (i for i in range(len(count)) if count[i] > 1), key=lambda i: count[i] - ideal[i]
        )
        count[shrink] -= 1
    while sum(count) < units:
        room = [i for i in range(len(count)) if count[i] < most] or list(range(len(count)))
        grow = max(
            room,
            key=lambda i: (_grow_tier(kinds, bars, i, count[i] + 1, grain), ideal[i] - count[i]),
        )
        count[grow] += 1
    lengths = [c * grain for c in count]
    longest = max(range(len(lengths)), key=lambda i: lengths[i])
    lengths[longest] += target - units * grain
    return lengths
