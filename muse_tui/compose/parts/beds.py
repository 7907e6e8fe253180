"""A noise or ambience bed (`held` idioms of `skills/sound/articulations.json`).

Vinyl crackle, tape hiss or rain is a sample looped under the arrangement: one long
note on the sample's root (or the key's tonic for a pitched ambience) wherever the
part plays. With `loopSeconds` the loop runs on the song's clock and restarts where
it ends, so each section hears it restart at its own bars; the producer tucks it
under a full section (`duck`) and mutes it for the bar before a lift
(`gapBeforeRise`). Without, it restarts every `bars` bars of the section.
"""

from __future__ import annotations

import math
import statistics
from itertools import pairwise

from muse_tui.knowledge.articulations import Idiom
from muse_tui.theory import fold_into

from ..humanize import Draft
from .context import PartContext, PartDraft

_STEP = 0.25
#: The shortest hold, in bars: a bed note is never a blip.
_SHORTEST_BARS = 2


def held(ctx: PartContext, draft: PartDraft, idiom: Idiom) -> PartDraft:
    """One long note per loop wherever the draft plays, ducked and gapped by section."""
    pitch = idiom.pitch
    if pitch is None:
        low, high = idiom.pitch_range or (48, 59)
        pitch = fold_into(ctx.harmony.scale[0] + 48, low, high)
    scale = 1 - idiom.duck * ctx.energy
    notes: list[Draft] = []
    for start, end in _spans(ctx, idiom):
        inside = [n for n in draft.notes if start - 1e-6 <= n.start < end - 1e-6]
        if inside:
            first = min(n.start for n in inside)
            velocity = statistics.mean(n.velocity for n in inside) * scale
            notes.append(Draft(pitch, velocity, first, end - first - 0.05, "bed", locked=True))
    return PartDraft(notes, draft.control_changes, draft.pitch_bends, draft.feel)


def _spans(ctx: PartContext, idiom: Idiom) -> list[tuple[float, float]]:
    """Where the loop (re)starts and stops in this section, in section beats."""
    bar = ctx.beats_per_bar
    length = ctx.length
    _, after = ctx.neighbours
    if idiom.gap_before_rise and after is not None and after.energy > ctx.energy:
        length -= bar  # silent in the bar before the lift
    if idiom.loop_seconds is None:
        period, origin = idiom.bars * bar, 0.0
    else:
        period = idiom.loop_seconds * ctx.song.tempo / 60
        origin = ctx.song.bar_beat(ctx.section.start_bar)
    first = math.ceil(origin / period - 1e-6)
    cuts = [0.0]
    k = first
    while (at := round((k * period - origin) / _STEP) * _STEP) < length:
        if at - cuts[-1] >= _SHORTEST_BARS * bar and length - at >= _SHORTEST_BARS * bar:
            cuts.append(at)
        k += 1
    edges = [*cuts, length]
    return [(a, b) for a, b in pairwise(edges) if b > a]
