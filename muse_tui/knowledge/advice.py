"""Mixing and sampling advice by style, from `skills/sound/mix-advice.json` (with sources).

Checked at load: every style's genres are genres of `harmony/genre-dna.json`,
no genre is in two styles, a `default` style exists, and the release is a note
length the answer can time to the song's tempo.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.knowledge.genres import genre_table
from muse_tui.knowledge.loader import SkillFileError, load_table
from muse_tui.knowledge.table import skill_table

ADVICE_FILE = "sound/mix-advice.json"
#: A note length in beats, for a release timed to the tempo.
NOTE_BEATS = {"32nd": 0.125, "16th": 0.25, "8th": 0.5, "quarter": 1.0}


class StyleAdvice(Contract):
    genres: list[str]
    sidechain_db: tuple[float, float]
    ratio: str = Field(pattern=r"^\d+(\.\d+)?:1$")
    attack_ms: float = Field(gt=0, le=30)
    release: Literal["32nd", "16th", "8th", "quarter"]
    low_end: str = Field(min_length=1)
    sample: str = Field(min_length=1)
    fit: str = Field(min_length=1)

    @model_validator(mode="after")
    def _rising(self) -> StyleAdvice:
        low, high = self.sidechain_db
        if not 0 < low <= high <= 24:
            raise ValueError("sidechainDb must be two rising amounts between 0 and 24 dB")
        return self


class AdviceTable(Contract):
    about: str
    sources: list[str] = Field(min_length=1)
    styles: dict[str, StyleAdvice]

    def for_genres(self, genres: list[str]) -> tuple[str, StyleAdvice]:
        """The style of the first genre a style names, else `default`."""
        for genre in genres:
            for name, style in self.styles.items():
                if genre in style.genres:
                    return name, style
        return "default", self.styles["default"]


def _load(root: Path) -> AdviceTable:
    table = load_table(ADVICE_FILE, AdviceTable, root)
    path = root / ADVICE_FILE
    if "default" not in table.styles:
        raise SkillFileError(path, "styles: a 'default' style is missing")
    known = genre_table(root)
    seen: dict[str, str] = {}
    for name, style in table.styles.items():
        for genre in style.genres:
            if genre not in known:
                raise SkillFileError(path, f"styles.{name}.genres: {genre!r} is not a genre")
            if genre in seen:
                raise SkillFileError(path, f"styles.{name}.genres: {genre!r} is in {seen[genre]}")
            seen[genre] = name
    return table


advice_table = skill_table(_load)
