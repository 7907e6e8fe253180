"""What a change request is once read: its kind, its edits, and where each lands.

The request reader (`compose.requests`) makes them; the DAW readers and every
edit family take them. They sit below both, so neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from muse_tui.knowledge.edit_words import Operation

RequestKind = Literal[
    "change", "praise", "question", "undo", "redo", "try_again", "vague", "unclear"
]


@dataclass(frozen=True)
class Scope:
    """Where an edit lands: a track role, a section kind, a chord (0-based, -1 last), harmony;
    `track` is a track named by its number ("track 2", 1-based), resolved on the song."""

    role: str | None = None
    section: str | None = None
    chord: int | None = None
    harmony: bool = False
    track: int | None = None

    @property
    def is_song(self) -> bool:
        return self.role is None and self.track is None and self.chord is None and not self.harmony

    @property
    def named(self) -> bool:
        return not self.is_song or self.section is not None


@dataclass(frozen=True)
class Edit:
    """One operation on one scope; `value` carries the key, tempo, genre, effect or sound words."""

    operation: Operation
    scope: Scope = field(default_factory=Scope)
    value: str | float | None = None


@dataclass(frozen=True)
class ChangeRequest:
    """A request read: its kind, its edits in the order said, and steps for undo/redo."""

    text: str
    kind: RequestKind
    edits: tuple[Edit, ...] = ()
    steps: int = 1
