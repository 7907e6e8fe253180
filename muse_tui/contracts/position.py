"""A place in the song as a producer says it: a bar, or a section and where around it.

"bar 9", "the second chorus", "after the intro", "Loop B", "4 bars before the
last chorus". The contract only records what was said; `compose.iteration.positions`
resolves it against a song to a beat (or says, in one sentence, which sections
the song has when it names one that is not there).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from muse_tui.contracts.base import Contract

Relation = Literal["at", "before", "after"]


class Position(Contract):
    """A bar (counted from 1, as MPC Beats shows it) or a section, with a relation and an offset.

    `section` is a section kind ("chorus") or a section's own name ("Loop B");
    `ordinal` picks among sections of that kind (1 the first, -1 the last).
    `relation` says whether the place is the section's start ("at", "before")
    or its end ("after"); `offset_bars` moves it ("before chorus - 4" is -4).
    """

    bar: int | None = Field(default=None, ge=1)
    section: str | None = None
    ordinal: int = 1
    relation: Relation = "at"
    offset_bars: int = 0

    @model_validator(mode="after")
    def _one_anchor(self) -> Position:
        if (self.bar is None) == (self.section is None):
            raise ValueError("a position is a bar or a section, not both and not neither")
        if self.ordinal == 0:
            raise ValueError("ordinal counts from 1 (or -1 for the last)")
        return self
