"""The dubstep wobble: a tempo-synced LFO on a controller (the filter cutoff) under held bass.

A wobble bass plays long notes; what moves is the filter, opened and closed by an
LFO locked to the tempo. Its rate is a note division, chosen bar by bar from the
style's rates for the section's density (`skills/rhythm/bass-patterns.json`:
cycles per beat, 2 for 8ths, 3 for 8th triplets, 4 for 16ths), so a drop goes
"wub wub" in 8ths and then spits triplets or 16ths. Bars where the arrangement
sweeps the same controller at the section's end (a filter sweep) are left to it:
a track never carries two curves of one controller.
"""

from __future__ import annotations

import math
import random

from muse_tui.contracts import ControlChange
from muse_tui.knowledge.rhythm import Wobble

from ..transitions import TRANSITION_RAMPS
from .context import PartContext

#: The most controller values a beat carries, however fast the LFO runs.
_MOST_PER_BEAT = 24


def wobble(
    ctx: PartContext, lfo: Wobble, spans: list[tuple[float, float]], rng: random.Random
) -> list[ControlChange]:
    """The LFO's values for every bar in which a note of `spans` (start, end) sounds."""
    bar = ctx.beats_per_bar
    swept = _swept_from(ctx, lfo.controller)
    rates = getattr(lfo, ctx.density)
    events: list[ControlChange] = []
    for index in range(ctx.bars):
        start = index * bar
        rate = rng.choice(rates)
        if start >= swept or not any(s < start + bar and e > start for s, e in spans):
            continue
        points = max(4, min(lfo.points, int(_MOST_PER_BEAT // rate)))
        step = 1 / (rate * points)
        for k in range(round(bar / step)):
            phase = ((k + 0.5) / points) % 1.0  # half a step in: nothing on the bar line
            opened = (1 - math.cos(2 * math.pi * phase)) / 2
            value = round(lfo.floor + (lfo.ceiling - lfo.floor) * opened)
            beat = start + (k + 0.5) * step
            events.append(
                ControlChange(
                    beat=beat, controller=lfo.controller, value=value, channel=ctx.track.channel
                )
            )
    return events


def _swept_from(ctx: PartContext, controller: int) -> float:
    """Where the section's closing ramp of this controller begins (its length: none)."""
    ramp = TRANSITION_RAMPS.get(ctx.section.transition)
    if ramp is None or ramp.controller != controller:
        return ctx.length
    return max(0.0, ctx.length - ramp.bars * ctx.beats_per_bar)
