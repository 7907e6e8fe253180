"""How a typed line is routed and which question it asks, from `skills/iteration/questions.json`.

Checked at load: every pattern compiles, and a theory topic's patterns name
the groups its answer reads (`chord`, `numerals`, `key`).
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.vocabulary import TrackRole
from muse_tui.knowledge.loader import expressions, load_table
from muse_tui.knowledge.table import skill_table

QUESTIONS_FILE = "iteration/questions.json"

#: The groups each theory topic's answer reads from its match.
TOPIC_GROUPS: dict[str, frozenset[str]] = {
    "chord_notes": frozenset({"chord"}),
    "numerals_in_key": frozenset({"numerals", "key"}),
    "scale_notes": frozenset({"key"}),
    "at_bar": frozenset({"bar"}),
}


def _either(patterns: list[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns))


class Routing(Contract):
    """The shapes of a line: a new song, a change, a question, a question that asks for a change."""

    new_song: list[str] = Field(min_length=1)
    change_verbs: list[str] = Field(min_length=1)
    question: list[str] = Field(min_length=1)
    asks_for_change: list[str] = Field(default_factory=list)
    #: A question that wants to hear a change ("what would it sound like in D minor?"):
    #: the change is proposed, never made.
    wonders: list[str] = Field(default_factory=list)

    @field_validator("new_song", "change_verbs", "question", "asks_for_change", "wonders")
    @classmethod
    def _patterns(cls, value: list[str]) -> list[str]:
        return expressions(value)

    @cached_property
    def new_song_pattern(self) -> re.Pattern[str]:
        return _either(self.new_song)

    @cached_property
    def change_pattern(self) -> re.Pattern[str]:
        return _either(self.change_verbs)

    @cached_property
    def question_pattern(self) -> re.Pattern[str]:
        return _either(self.question)

    @cached_property
    def asks_for_change_pattern(self) -> re.Pattern[str] | None:
        return _either(self.asks_for_change) if self.asks_for_change else None

    def wonders_at(self, text: str) -> bool:
        """Whether `text` asks to hear a change rather than about the song."""
        return any(re.search(p, text.lower()) for p in self.wonders)


class Topic(Contract):
    """One kind of question: what it covers, whether it needs a song, how it is recognised."""

    about: str
    needs_song: bool
    patterns: list[str] = Field(min_length=1)

    @field_validator("patterns")
    @classmethod
    def _patterns(cls, value: list[str]) -> list[str]:
        return expressions(value)

    @cached_property
    def compiled(self) -> list[re.Pattern[str]]:
        return [re.compile(p) for p in self.patterns]


class VagueAxis(Contract):
    """What to offer when a critic axis is the song's weakest: why, and requests to pick from."""

    weakness: str
    options: list[str] = Field(min_length=3)


#: The critic axes a vague wish is aimed at (the scores of `QualityScore`).
CriticAxis = Literal["harmony", "rhythm", "arrangement", "vibe"]


class VagueRequests(Contract):
    """A wish with no direction ("make it better"): how it is recognised and what to ask back."""

    about: str = ""
    patterns: list[str] = Field(min_length=1)
    question: str
    axes: dict[CriticAxis, VagueAxis] = Field(min_length=1)
    #: A line ending so is a vague wish even asked as a question ("can you make it better?").
    question_endings: list[str] = Field(default_factory=list)

    @field_validator("patterns")
    @classmethod
    def _patterns(cls, value: list[str]) -> list[str]:
        return expressions(value)

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return _either(self.patterns)


class QuestionTable(Contract):
    """Everything in questions.json."""

    about: str = ""
    routing: Routing
    topics: dict[str, Topic] = Field(min_length=1)
    vague: VagueRequests
    #: Who carries the melody where several parts play: the first of these roles that sounds.
    melody_roles: list[TrackRole] = Field(min_length=1)
    #: Song topics a line may ask together ("what key and tempo?"): each is answered.
    joined: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _groups(self) -> QuestionTable:
        unknown = [n for n in self.joined if n not in self.topics]
        if unknown:
            raise ValueError(f"joined: {', '.join(unknown)} are not topics")
        for name, groups in TOPIC_GROUPS.items():
            topic = self.topics.get(name)
            if topic is None:
                continue
            for pattern in topic.compiled:
                missing = groups - set(pattern.groupindex)
                if missing:
                    raise ValueError(
                        f"topics.{name}: pattern {pattern.pattern!r} lacks the group(s) "
                        f"{', '.join(sorted(missing))} its answer reads"
                    )
        return self


@skill_table
def question_table(root: Path) -> QuestionTable:
    """The routing shapes and question topics under `root`, validated and cached."""
    return load_table(QUESTIONS_FILE, QuestionTable, root=root)
