"""How sections take harmony of their own: `skills/harmony/section-harmony.json`.

A verse answers the main progression with another of the genre's library, a
pre-chorus builds to the dominant, a bridge departs from the tonic; the lists
of builds, departures and fallback answers are numerals per third (major, minor).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.song import SectionKind
from muse_tui.knowledge.loader import SkillFileError, load_table
from muse_tui.knowledge.table import skill_table

SECTION_HARMONY_FILE = "harmony/section-harmony.json"
#: A Roman numeral as the lists write them: an accidental, the degree, a quality or figure.
_NUMERAL = re.compile(r"^[b#]?(?:VII|III|IV|VI|II|V|I|vii|iii|iv|vi|ii|v|i)(?:°|o|\+|[0-9a-z/]*)$")
Role = Literal["answer", "build", "depart"]
Third = Literal["major", "minor"]


class SectionChords(Contract):
    """Numerals in the song's key, each chord's length in bars, and the dial it waits for."""

    chords: list[str] = Field(min_length=1)
    bars: list[float] = Field(min_length=1)
    dial: float = Field(default=0.0, ge=0, le=1)
    source: str = Field(min_length=1)

    @model_validator(mode="after")
    def _a_length_per_chord(self) -> SectionChords:
        if len(self.bars) != len(self.chords) or any(b <= 0 for b in self.bars):
            raise ValueError("bars needs one length above 0 for every chord")
        return self


class SectionHarmonyTable(Contract):
    about: str = ""
    kinds: dict[SectionKind, Role]
    keep_loop: list[str] = Field(default_factory=list, description="genres that keep one loop")
    answers: dict[Third, list[SectionChords]]
    builds: dict[Third, list[SectionChords]]
    departures: dict[Third, list[SectionChords]]

    def choices(self, role: Role, third: Third) -> list[SectionChords]:
        table = {"answer": self.answers, "build": self.builds, "depart": self.departures}[role]
        return table.get(third, [])


@skill_table
def section_harmony_table(root: Path) -> SectionHarmonyTable:
    """The section harmony file under `root`, every chord written as a Roman numeral."""
    table = load_table(SECTION_HARMONY_FILE, SectionHarmonyTable, root=root)
    for name, lists in (
        ("answers", table.answers),
        ("builds", table.builds),
        ("departures", table.departures),
    ):
        for third, options in lists.items():
            for index, option in enumerate(options):
                wrong = [n for n in option.chords if not _NUMERAL.match(n)]
                if wrong:
                    where = f"{name}.{third}.{index}.chords: {wrong[0]!r} is not a Roman numeral"
                    raise SkillFileError(root / SECTION_HARMONY_FILE, where)
    return table
