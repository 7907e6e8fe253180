"""Who was asked to play and never does: requested instruments and planned roles."""

from __future__ import annotations

from collections.abc import Sequence

from muse_tui.contracts.intent import PipelineIntent
from muse_tui.knowledge.lexicon import intent_lexicon
from muse_tui.theory.drums import VOICE_PITCHES

from .listening import Part, is_drums


def silent_requests(
    intent: PipelineIntent | None, parts: Sequence[Part]
) -> tuple[list[str], list[str]]:
    """(requested instrument words, other planned roles) that no unmuted track plays.

    A kit sound ("cowbell", "congas") is heard when a drum part hits one of its keys;
    any other word when a track of its role plays a note (the lexicon says "flute" is
    a lead). A role already named through a silent word is not counted twice.
    """
    if intent is None:
        return [], []
    words = intent_lexicon().instruments
    playing = {p.track.role for p in parts if p.notes}
    hits = {n[2] for p in parts if is_drums(p.track) for n in p.notes}
    asked: list[str] = []
    for word in intent.instrument_requests:
        # The kit's own words ("snare" also stands for claps and rimshots) are the drums' job.
        keys = kit_keys(word) if word not in words or words[word].role != "drums" else None
        if keys:
            if not keys & hits:
                asked.append(word)
        elif word in words and words[word].role not in playing:
            asked.append(word)
    named = {words[w].role for w in asked if w in words}
    planned: list[str] = [r for r in intent.roles if r not in playing and r not in named]
    return asked, planned


def kit_keys(word: str) -> frozenset[int]:
    """The GM drum keys a kit-sound word names ("congas" → the three conga keys); else none."""
    name = "_".join(word.lower().split())
    singular = name[:-1] if name.endswith("s") else name
    return frozenset(
        pitch
        for voice, pitch in VOICE_PITCHES.items()
        if voice in (name, singular) or voice.startswith((f"{name}_", f"{singular}_"))
    )
