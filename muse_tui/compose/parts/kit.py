"""The drum kit's smallest pieces: one hit, and a pattern played over some bars."""

from __future__ import annotations

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
            for step, letter in enumerate(tile(grid, bar, ctx.bar_steps)):
                if letter != ".":
                    when = bar * ctx.beats_per_bar + step * STEP
                    notes.append(hit(ctx, voice, letter, when, scale))
    return notes


def hit(ctx: PartContext, voice: str, letter: str, when: float, scale: float = 1.0) -> Draft:
    velocity = ctx.table.drums.velocities[letter] * ctx.loud * scale  # type: ignore[index]
    gate = ctx.table.drums.gates.get(voice, 0.2)  # type: ignore[call-overload]
    return Draft(VOICE_PITCHES[voice], velocity, when, gate, voice)
