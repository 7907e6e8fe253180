"""The chord loops and borrowed chords of `skills/harmony/progressions.json`."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from muse_tui.contracts import Contract
from muse_tui.knowledge.loader import load_table
from muse_tui.knowledge.table import skill_table

PROGRESSIONS_FILE = "harmony/progressions.json"

Loop = list[str]


class ProgressionTable(Contract):
    """Loops per mode (Roman numerals), jazz turnarounds, and borrowed chords per mode."""

    about: str = ""
    loops: dict[str, list[Loop]] = Field(min_length=1)
    jazz_loops: dict[str, list[Loop]] = Field(default_factory=dict)
    borrowed: dict[str, list[str]] = Field(default_factory=dict)

    def loops_for(self, mode: str, *, jazz: bool = False) -> list[Loop]:
        """Loops for a mode, falling back to the major or minor ones by the mode's third."""
        pool = self.jazz_loops if jazz else self.loops
        if mode in pool:
            return pool[mode]
        minor_third = mode in ("minor", "dorian", "phrygian", "harmonic minor", "melodic minor")
        fallback = pool.get("minor" if minor_third else "major") or self.loops["major"]
        return fallback


@skill_table
def progression_table(root: Path) -> ProgressionTable:
    """The progression table under `root`, cached."""
    return load_table(PROGRESSIONS_FILE, ProgressionTable, root=root)
