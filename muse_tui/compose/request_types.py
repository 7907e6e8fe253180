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
    `track` is a track named by its number ("track 2", 1-based), resolved on the song.

    A scope may be narrower than a role and a section kind: `voice` is one drum voice
    ("kick", "hats"), `number` one section of the kind (1-based, -1 the last: "verse 2",
    "the last chorus"), `bars` a bar range ("9-16", "first:8", "last:4"), and `said` the
    clause itself, in which a section's own name ("Head Out") is found on the song.
    `everything` is the whole song said in so many words, which a mix edit takes as
    every track rather than asking which.
    """

    role: str | None = None
    section: str | None = None
    chord: int | None = None
    harmony: bool = False
    track: int | None = None
    voice: str | None = None
    number: int | None = None
    bars: str | None = None
    said: str = field(default="", compare=False)
    everything: bool = False  # "everything quieter", "louder overall": every track, said so

    @property
    def is_song(self) -> bool:
        return (
            self.role is None
            and self.track is None
            and self.chord is None
            and not self.harmony
            and self.voice is None
        )

    @property
    def named(self) -> bool:
        return not self.is_song or self.section is not None or self.bars is not None

    @property
    def narrow(self) -> bool:
        """Whether the scope names less than a whole part in every section of a kind."""
        return self.voice is not None or self.number is not None or self.bars is not None


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
