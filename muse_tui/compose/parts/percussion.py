"""Hand percussion (congas, shakers, tambourine) on the drum channel, over the drum groove."""

from __future__ import annotations

import random

from .context import PartContext, PartDraft
from .drums import allowed_voices
from .kit import play


def write_percussion(ctx: PartContext, rng: random.Random) -> PartDraft:
    """Hand percussion (congas, shakers, tambourine) over the groove, thinner when it's quiet."""
    family = ctx.table.drums.families.get(ctx.style.family)  # type: ignore[call-overload]
    patterns = (family.percussion if family else []) or ctx.table.drums.percussion
    pattern = rng.choice(patterns)
    voices = list(pattern.voices)
    if ctx.density == "sparse":
        voices = voices[:1]
    elif ctx.density == "base" and len(voices) > 2:
        voices = voices[:2]
    notes = [n for n in play(ctx, pattern, range(ctx.bars), scale=0.85) if n.voice in set(voices)]
    allowed = allowed_voices(ctx.intent.constraints, ctx.table.drums.voice_words)
    if allowed is not None:
        notes = [n for n in notes if n.voice in allowed]
    return PartDraft(notes=notes, feel=ctx.feel.scaled(timing=1.3))
