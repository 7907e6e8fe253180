"""The creativity dials a song is written with: one resolver for every generator and edit."""

from __future__ import annotations

from muse_tui.contracts.intent import CreativityDials, PipelineIntent


def creativity_of(intent: PipelineIntent) -> CreativityDials:
    """The intent's dials; else its genre's; else the defaults (harmonic and rhythmic 0.2)."""
    if intent.creativity_dials is not None:
        return intent.creativity_dials
    dna = intent.genre_dna
    return dna.creativity if dna is not None else CreativityDials()


def lifted(intent: PipelineIntent, by: float) -> CreativityDials:
    """The intent's dials moved by `by` (up or down), each kept within 0–1."""
    dials = creativity_of(intent)
    return CreativityDials(
        harmonic=min(1.0, max(0.0, dials.harmonic + by)),
        rhythmic=min(1.0, max(0.0, dials.rhythmic + by)),
    )
