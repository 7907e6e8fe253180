"""Who was asked to play and never does: requested instruments and planned roles."""

from __future__ import annotations

from collections.abc import Sequence

from muse_tui.contracts.intent import PipelineIntent
from muse_tui.knowledge.lexicon import intent_lexicon

from .listening import Part


def silent_requests(
    intent: PipelineIntent | None, parts: Sequence[Part]
) -> tuple[list[str], list[str]]:
    """(requested instrument words, other planned roles) with no unmuted track playing a note.

    A word counts as heard when a track of its role plays (the lexicon says "flute" is a
    lead); a role already named through a silent word is not counted twice.
    """
    if intent is None:
        return [], []
    words = intent_lexicon().instruments
    playing = {p.track.role for p in parts if p.notes}
    asked = [w for w in intent.instrument_requests if w in words and words[w].role not in playing]
    named = {words[w].role for w in asked}
    planned = [r for r in intent.roles if r not in playing and r not in named]
    return asked, planned
