"""Hand percussion (congas, shakers, cowbell…) on the drum channel, over the drum groove."""

from __future__ import annotations

import random
import re

from muse_tui.knowledge.instruments import Instrument
from muse_tui.knowledge.rhythm import DrumPattern

from ..humanize import Draft
from .context import PartContext, PartDraft
from .kit import allowed_voices, play
from .tracks import requested_kit_sounds


def write_percussion(ctx: PartContext, rng: random.Random) -> PartDraft:
    """The sounds the producer named, each on its own rhythm, over the genre's percussion.

    A named sound (a phonk cowbell, salsa congas) plays in every section the track
    plays, so it is always heard (only its accents where the section is quiet); the
    genre's own pattern is there only when the genre carries hand percussion
    anyway, and thins out when the section is quiet.
    """
    named = requested_kit_sounds(ctx.intent)
    notes = [n for sound in named for n in _named_sound(ctx, sound)]
    if _plays_genre_groove(ctx, bool(named)):
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


def percussion_voices(ctx: PartContext) -> set[str]:
    """The hand-percussion voices the song's percussion track plays in this section.

    The kit leaves them to it, so a shaker or a cowbell is heard once, not doubled by
    the kit's own (the kit keeps them in a song without a percussion track).
    """
    if "percussion" not in ctx.intent.roles:
        return set()
    named = requested_kit_sounds(ctx.intent)
    voices = {voice for sound in named for voice in sound.kit_voices}
    if _plays_genre_groove(ctx, bool(named)):
        voices |= {v for p in _genre_patterns(ctx) for v in _heard_voices(p, ctx.density)}
    return voices & set(ctx.table.drums.hand_percussion)


def _plays_genre_groove(ctx: PartContext, named: bool) -> bool:
    """Whether the track plays the genre's own figure as well as the sounds named.

    Always, unless it is only there for a named sound in a genre without hand percussion.
    """
    genre_roles = ctx.intent.genre_dna.roles if ctx.intent.genre_dna else []
    return not named or "percussion" in genre_roles


def _genre_patterns(ctx: PartContext) -> list[DrumPattern]:
    family = ctx.table.drums.families.get(ctx.style.family)  # type: ignore[call-overload]
    return (family.percussion if family else []) or ctx.table.drums.percussion


def _heard_voices(pattern: DrumPattern, density: str) -> list[str]:
    """A figure's voices at a density: its first alone when quiet, two at base, all when busy."""
    voices = list(pattern.voices)
    if density == "sparse":
        return voices[:1]
    if density == "base":
        return voices[:2]
    return voices


def _genre_groove(ctx: PartContext, rng: random.Random) -> list[Draft]:
    """The drum family's hand-percussion pattern, fewer voices when the section is quiet."""
    pattern = rng.choice(_genre_patterns(ctx))
    voices = set(_heard_voices(pattern, ctx.density))
    return [n for n in play(ctx, pattern, range(ctx.bars), scale=0.85) if n.voice in voices]
