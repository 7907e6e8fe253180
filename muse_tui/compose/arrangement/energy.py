"""The energy arc: one value per bar, smooth enough that no bar jumps more than 0.3."""

from __future__ import annotations

from collections.abc import Sequence

from muse_tui.contracts.song import Section

#: The largest bar-to-bar change the arc allows (a drop may land this hard).
MAX_STEP = 0.3
#: The step used when a ramp is needed; gentler than the limit so rounding never breaks it.
_RAMP_STEP = 0.25
_EPSILON = 1e-9


def energy_arc(sections: Sequence[Section]) -> list[float]:
    """Sample the energy of every bar, ramping the end of a section toward the next one.

    Sections hold their nominal energy; a build rises through its length, an outro
    sinks, and where the next section is more than 0.3 away the last bars of this
    one ramp toward it (the first bar of a section is never moved).
    """
    arc: list[float] = []
    for index, section in enumerate(sections):
        following = sections[index + 1] if index + 1 < len(sections) else None
        arc.extend(_shape(section, following))
    origin = sections[0].start_bar if sections else 0
    for section in sections[:-1]:
        _ramp_into_next(arc, section.start_bar - origin, section.bars)
    return _limited([round(value, 3) for value in arc])


def _shape(section: Section, following: Section | None) -> list[float]:
    """The section's own contour before any ramp into its neighbour."""
    bars, energy = section.bars, section.energy
    if section.kind == "build":
        start = max(0.0, energy - 0.15)
        rising_to = following.energy - 0.1 if following and following.energy > energy else 0.0
        end = min(1.0, max(energy + 0.1, rising_to))
    elif section.kind == "outro" and following is None:
        start, end = energy, max(0.05, energy * 0.5)
    else:
        return [energy] * bars
    if bars == 1:
        return [start]
    return [start + (end - start) * bar / (bars - 1) for bar in range(bars)]


def _ramp_into_next(arc: list[float], first: int, bars: int) -> None:
    """Overwrite the fewest last bars of a section so it climbs (or falls) into the next."""
    after = first + bars
    target = arc[after]
    if bars < 2 or abs(target - arc[after - 1]) <= MAX_STEP + _EPSILON:
        return
    ramp = next(
        (
            length
            for length in range(1, bars)
            if abs(target - arc[after - 1 - length]) / (length + 1) <= _RAMP_STEP + _EPSILON
        ),
        bars - 1,
    )
    anchor = arc[after - 1 - ramp]
    for step in range(1, ramp + 1):
        arc[after - 1 - ramp + step] = round(anchor + (target - anchor) * step / (ramp + 1), 3)


def _limited(arc: list[float]) -> list[float]:
    """Last guard for sections too short to ramp: pull each bar within reach of the next."""
    limit = MAX_STEP
    for bar in range(len(arc) - 1, 0, -1):
        low, high = arc[bar] - limit, arc[bar] + limit
        if not low - _EPSILON <= arc[bar - 1] <= high + _EPSILON:
            arc[bar - 1] = round(min(max(arc[bar - 1], low), high), 3)
    return arc
