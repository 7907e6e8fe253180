"""Hand percussion (congas, shakers, cowbell…) on the drum channel, over the drum groove."""

from __future__ import annotations

import random
import re

from muse_tui.knowledge.instruments import Instrument
from muse_tui.knowledge.rhythm import DrumPattern

from ..humanize import Draft
from .context import PartContext, PartDraft
from .drums import allowed_voices
from .kit import play
from .tracks import requested_kit_sounds


def write_percussion(ctx: PartContext, rng: random.Random) -> PartDraft:
    """The sounds the producer named, each on its own rhythm, over the genre's percussion.

    A named sound (a phonk cowbell, salsa congas) plays in every section the track
    plays, so it is always heard (only its accents where the section is quiet); the
    genre's own pattern is there only when the genre carries hand percussion
    anyway, and thins out when the section is quiet.
    """
    named = requested_kit_sounds(ctx.intent)
    genre_roles = ctx.intent.genre_dna.roles if ctx.intent.genre_dna else []
    notes = [n for sound in named for n in _named_sound(ctx, sound)]
    if not named or "percussion" in genre_roles:
        taken = {voice for sound in named for voice in sound.kit_voices}
        notes += [n for n in _genre_groove(ctx, rng) if n.voice not in taken]
    allowed = allowed_voices(ctx.intent.constraints, ctx.table.drums.voice_words)
    if allowed is not None:
        notes = [n for n in notes if n.voice in allowed]
    return PartDraft(notes=notes, feel=ctx.feel.scaled(timing=1.3))


def _named_sound(ctx: PartContext, sound: Instrument) -> list[Draft]:
    """A named kit sound on its rhythm for this genre (else its drum family's, else any)."""
    dna = ctx.intent.genre_dna
    styles = [*([dna.genre] if dna else []), *ctx.intent.genre, ctx.style.family]
    pattern = sound.rhythm(styles)
    if ctx.density == "sparse":
        pattern = _accents_only(pattern)
    return play(ctx, pattern, range(ctx.bars), scale=0.9)


def _accents_only(pattern: DrumPattern) -> DrumPattern:
    """A quiet section keeps a figure's accented hits (X) and drops the rest."""
    thinned = {
        voice: re.sub(r"[xo]", ".", grid) if "X" in grid else grid
        for voice, grid in pattern.voices.items()
    }
    return DrumPattern(voices=thinned)


def _genre_groove(ctx: PartContext, rng: random.Random) -> list[Draft]:
    """The drum family's hand-percussion pattern, fewer voices when the section is quiet."""
    family = ctx.table.drums.families.get(ctx.style.family)  # type: ignore[call-overload]
    patterns = (family.percussion if family else []) or ctx.table.drums.percussion
    pattern = rng.choice(patterns)
    voices = list(pattern.voices)
    if ctx.density == "sparse":
        voices = voices[:1]
    elif ctx.density == "base" and len(voices) > 2:
        voices = voices[:2]
    return [n for n in play(ctx, pattern, range(ctx.bars), scale=0.85) if n.voice in set(voices)]
