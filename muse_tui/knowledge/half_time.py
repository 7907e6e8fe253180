"""Genres felt in half time at a doubled tempo: `skills/rhythm/half-time.json`."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from muse_tui.contracts import PipelineIntent
from muse_tui.contracts.base import Contract
from muse_tui.knowledge.loader import load_table
from muse_tui.knowledge.table import skill_table

HALF_TIME_FILE = "rhythm/half-time.json"


class HalfTimeTable(Contract):
    """Which genres (and sub-genres) a doubled tempo puts in half time, and how far over."""

    about: str = ""
    source: str = Field(min_length=1)
    above: float = Field(gt=1)
    slack: float = Field(ge=0, lt=1)
    genres: dict[str, str] = Field(default_factory=dict)
    sub_genres: dict[str, str] = Field(default_factory=dict)

    def doubled(self, intent: PipelineIntent, tempo: float) -> bool:
        """The song is one of these genres written at twice its usual tempo."""
        dna = intent.genre_dna
        if dna is None:
            return False
        named = dna.genre in self.genres or any(s in self.sub_genres for s in intent.sub_genre)
        low, high = dna.tempo_range
        half = tempo / 2
        inside = low * (1 - self.slack) <= half <= high * (1 + self.slack)
        return named and tempo > high * self.above and inside


@skill_table
def half_time_table(root: Path) -> HalfTimeTable:
    """The half-time genres under `root`, checked."""
    return load_table(HALF_TIME_FILE, HalfTimeTable, root=root)
