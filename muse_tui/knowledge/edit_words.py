"""The words change requests are read with, from `skills/iteration/edit-words.json`.

Checked at load: every pattern compiles, every operation is one the edits
implement, every role and section kind exists, every effect word names an
effect kind of `sound/effects.json`.
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.song import SectionKind, TrackRole
from muse_tui.knowledge.loader import SkillFileError, load_table
from muse_tui.knowledge.sound import EFFECTS_FILE, effects_table
from muse_tui.knowledge.table import skill_table

EDIT_WORDS_FILE = "iteration/edit-words.json"

Operation = Literal[
    "darker", "brighter", "warmer", "colder", "simpler", "busier", "ghost_notes",
    "no_ghost_notes", "more_swing", "less_swing", "key", "transpose", "mode", "tempo",
    "tempo_by", "meter", "genre", "preset", "effect_more", "effect_less", "effect_remove",
    "volume_up", "volume_down", "pan", "mute", "unmute", "chord", "freeze", "unfreeze",
    "harder", "softer_hits", "hat_rolls", "slides", "half_time", "double_time", "fills", "build",
    "tacet", "more_energy", "less_energy", "sevenths", "jazzier", "sadder", "happier",
    "add_track", "remove_track", "swap_instrument", "expression", "octave_up", "octave_down",
    "longer_notes", "shorter_notes", "faster_changes", "slower_changes",
]  # fmt: skip


def _compiles(pattern: str) -> str:
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"{pattern!r} is not a regular expression: {exc}") from None
    return pattern


class EditWords(Contract):
    """Word tables and patterns for reading a change request, in the order they are tried."""

    about: str = ""
    role_words: dict[str, TrackRole] = Field(description="part words → track roles")
    section_words: dict[str, SectionKind]
    effect_words: dict[str, str] = Field(description="effect words → effect kinds")
    drum_voices: dict[str, str] = Field(
        default_factory=dict, description="drum-voice words → voices of voicePitches"
    )
    voice_pitches: dict[str, list[int]] = Field(
        default_factory=dict, description="a drum voice's General MIDI notes"
    )
    not_tempo: str = Field(
        default=r"(?!)", description="a speed word about a part, not the tempo: 'faster hats'"
    )
    bar_spans: list[str] = Field(
        default_factory=list,
        description="bar ranges: groups first/last (1-based, inclusive) or edge and count",
    )
    sound_words: list[str] = Field(min_length=1, description="catalog tags a preset edit uses")
    comparatives: list[str] = Field(min_length=1, description="words that ask for a change")
    ordinals: dict[str, int]
    number_words: dict[str, int]
    modes: list[str] = Field(min_length=1, description="mode words a key edit may name")
    complaints: list[tuple[str, Operation]] = Field(description="'too X' → the opposite")
    words: list[tuple[str, Operation]]
    praise: str
    question: str
    change_words: str
    whole_song: str
    section_verbs: list[str] = Field(description="section words that are also edit words")
    swap_words: str = Field(description="a clause swapping one instrument for another")
    add_words: str = Field(description="a clause adding a part")

    @field_validator("complaints", "words")
    @classmethod
    def _patterns(cls, value: list[tuple[str, str]]) -> list[tuple[str, str]]:
        for pattern, _ in value:
            _compiles(pattern)
        return value

    @field_validator("bar_spans")
    @classmethod
    def _span_patterns(cls, value: list[str]) -> list[str]:
        for pattern in value:
            groups = re.compile(_compiles(pattern)).groupindex
            if not ({"first", "last"} <= set(groups) or {"edge", "count"} <= set(groups)):
                raise ValueError(f"{pattern!r} names neither first/last nor edge/count")
        return value

    @field_validator(
        "praise", "question", "not_tempo", "change_words", "whole_song", "swap_words", "add_words"
    )
    @classmethod
    def _pattern(cls, value: str) -> str:
        return _compiles(value)

    @cached_property
    def praise_pattern(self) -> re.Pattern[str]:
        return re.compile(self.praise)

    @cached_property
    def question_pattern(self) -> re.Pattern[str]:
        return re.compile(self.question)

    @cached_property
    def change_pattern(self) -> re.Pattern[str]:
        return re.compile(self.change_words)

    @cached_property
    def whole_song_pattern(self) -> re.Pattern[str]:
        return re.compile(self.whole_song)

    @cached_property
    def swap_pattern(self) -> re.Pattern[str]:
        return re.compile(self.swap_words)

    @cached_property
    def add_pattern(self) -> re.Pattern[str]:
        return re.compile(self.add_words)

    @cached_property
    def span_patterns(self) -> list[re.Pattern[str]]:
        return [re.compile(p) for p in self.bar_spans]

    @model_validator(mode="after")
    def _voices_have_pitches(self) -> EditWords:
        unknown = sorted(set(self.drum_voices.values()) - set(self.voice_pitches))
        if unknown:
            raise ValueError(f"drumVoices name voices with no voicePitches: {unknown}")
        return self

    @model_validator(mode="after")
    def _verbs_are_section_words(self) -> EditWords:
        unknown = [w for w in self.section_verbs if w not in self.section_words]
        if unknown:
            raise ValueError(f"sectionVerbs {unknown} are not sectionWords")
        return self


@skill_table
def edit_words(root: Path) -> EditWords:
    """The change-request words under `root`, checked against the effect kinds, cached."""
    words = load_table(EDIT_WORDS_FILE, EditWords, root=root)
    kinds = effects_table(root).units
    for word, kind in words.effect_words.items():
        if kind not in kinds:
            raise SkillFileError(
                root / EDIT_WORDS_FILE,
                f"effectWords.{word}: {kind!r} is not an effect kind in {EFFECTS_FILE}",
            )
    return words
