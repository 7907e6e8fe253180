"""The drum kit's smallest pieces: one hit, a pattern played over some bars, the voices allowed."""

from __future__ import annotations

import re

from muse_tui.knowledge.rhythm import DrumPattern
from muse_tui.theory.drums import VOICE_PITCHES

from ..humanize import Draft
from .context import PartContext
from .grid import STEP, tile


def play(
    ctx: PartContext, pattern: DrumPattern, bars: range | list[int], scale: float = 1.0
) -> list[Draft]:
    notes: list[Draft] = []
    for bar in bars:
        for voice, grid in pattern.voices.items():
            for step, letter in enumerate(tile(grid, bar, ctx.bar_steps, ctx.fit_plan)):
                if letter not in ".-":  # a drum is struck, never held
                    when = bar * ctx.beats_per_bar + step * STEP
                    notes.append(hit(ctx, voice, letter, when, scale))
    return notes


def hit(ctx: PartContext, voice: str, letter: str, when: float, scale: float = 1.0) -> Draft:
    velocity = ctx.table.drums.velocities[letter] * ctx.loud * scale  # type: ignore[index]
    gate = ctx.table.drums.gates.get(voice, 0.2)  # type: ignore[call-overload]
    return Draft(VOICE_PITCHES[voice], velocity, when, gate, voice)


def allowed_voices(constraints: list[str], words: dict[str, list[str]]) -> set[str] | None:
    """The drum voices the producer's constraints leave (None: no drum constraint).

    "no drums except kick" and "kick only" keep what they name; "no hi-hats"
    drops what it names; "no drums" drops everything. Constraints naming no
    drum ("only piano") are not about drums and change nothing.
    """
    allowed: set[str] | None = None
    dropped: set[str] = set()
    for constraint in constraints:
        text = " " + re.sub(r"[^a-z0-9\- ]", " ", constraint.lower()) + " "
        named = {
            voice
            for word, voices in words.items()
            if re.search(rf"(?<![a-z-]){re.escape(word)}(?![a-z-])", text)
            for voice in voices
        }
        if re.search(r"\b(except|only|just)\b", text):
            if named:
                allowed = named if allowed is None else allowed & named
        elif re.search(r"\b(no|without)\b", text):
            if named:
                dropped |= named
            elif re.search(r"\bdrums?\b", text):
                allowed = set()
    if allowed is None and not dropped:
        return None
    return (set(VOICE_PITCHES) if allowed is None else allowed) - dropped
