"""How harmony players space and share chords: `skills/harmony/voicings.json`.

The low-interval limit (the floors under which 2nds and 3rds turn to mud), the
tensions a harmony layer may add to stand apart from another, and the bound on
voice-leading motion the voicing bench holds the parts to.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.knowledge.loader import load_table
from muse_tui.knowledge.table import skill_table

VOICINGS_FILE = "harmony/voicings.json"


class LowIntervalLimits(Contract):
    """MIDI floors: no 2nd with both notes under `second_floor`, nothing under a 5th under
    `third_floor`."""

    second_floor: int = Field(ge=0, le=127)
    third_floor: int = Field(ge=0, le=127)
    source: str = Field(min_length=1)

    @model_validator(mode="after")
    def _seconds_sit_higher(self) -> LowIntervalLimits:
        if self.third_floor > self.second_floor:
            raise ValueError("thirdFloor must not lie above secondFloor: 2nds muddy first")
        return self


class LayerSplit(Contract):
    """Semitones above the root a later layer may add so it never doubles an earlier one."""

    tensions: list[int] = Field(min_length=1)
    source: str = Field(min_length=1)

    @model_validator(mode="after")
    def _inside_the_octave(self) -> LayerSplit:
        if any(not 1 <= t <= 11 for t in self.tensions):
            raise ValueError("tensions are semitones above the root, 1-11")
        return self


class VoiceLeading(Contract):
    motion_bound: float = Field(gt=0, description="mean semitones per change, upper voices")
    source: str = Field(min_length=1)


class VoicingTable(Contract):
    about: str = ""
    low_interval_limits: LowIntervalLimits
    layer_split: LayerSplit
    voice_leading: VoiceLeading


@skill_table
def voicing_table(root: Path) -> VoicingTable:
    """The voicing rules under `root`, checked and cached."""
    return load_table(VOICINGS_FILE, VoicingTable, root=root)
