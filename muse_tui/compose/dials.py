"""The creativity dials a song is written with: one resolver for every generator and edit."""

from __future__ import annotations

from muse_tui.contracts.intent import CreativityDials, PipelineIntent


def creativity_of(intent: PipelineIntent) -> CreativityDials:
    """The intent's dials; else its genre's; else the defaults (harmonic and rhythmic 0.2)."""
    if intent.creativity_dials is not None:
        return intent.creativity_dials
    dna = intent.genre_dna
    return dna.creativity if dna is not None else CreativityDials()
