"""How the S7 critics weigh what they hear: `skills/critics/critics.json`.

Each axis lists its measures' weights and which measures are faults: an axis is
the weighted mean of its measures, capped at its worst fault plus `fault_slack`.
Thresholds are ramps (0 at `bad`, 1 at `good`), so a producer can retune a critic
without reading code.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Literal

from pydantic import Field, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.song import TrackRole
from muse_tui.knowledge.loader import load_table
from muse_tui.knowledge.table import skill_table

CRITICS_FILE = "critics/critics.json"
#: The three voices a groove is compared on: kick, backbeat, time-keeping cymbal.
GrooveVoice = Literal["kick", "snare", "hat"]


class Ramp(Contract):
    """A measure's score: 0 at `bad`, 1 at `good`, linear between (either end may be higher)."""

    bad: float
    good: float

    @model_validator(mode="after")
    def _two_ends(self) -> Ramp:
        if self.bad == self.good:
            raise ValueError(f"bad and good are both {self.bad}; a ramp needs two ends")
        return self

    def score(self, value: float) -> float:
        return min(1.0, max(0.0, (value - self.bad) / (self.good - self.bad)))


class AxisWeights(Contract):
    """An axis's measures by weight, and the measures that cap it when they fail."""

    #: The measures each axis knows, in the camelCase the file writes them in.
    MEASURES: ClassVar[frozenset[str]] = frozenset()

    weights: dict[str, float] = Field(min_length=1)
    faults: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _known_measures(self) -> AxisWeights:
        unknown = sorted((set(self.weights) | set(self.faults)) - self.MEASURES)
        if unknown:
            known = ", ".join(sorted(self.MEASURES))
            raise ValueError(f"unknown measures {', '.join(unknown)}; known: {known}")
        if any(w < 0 for w in self.weights.values()) or not sum(self.weights.values()):
            raise ValueError("weights must be ≥ 0 and not all 0")
        return self


class HarmonyCritic(AxisWeights):
    MEASURES = frozenset({"inKey", "chordTones", "voiceLeading", "variety", "doubling"})

    in_key: Ramp
    chord_tones: Ramp
    voice_leading: Ramp = Field(description="mean semitones a voice moves between chords")
    variety: Ramp = Field(description="effective number of chords: 1 / sum of squared shares")
    vamping_genres: list[str] = Field(description="genres where one chord all song is the idiom")
    vamping_source: str
    doubling: Ramp = Field(description="share of one harmony track's notes another plays too")
    doubling_roles: list[TrackRole]


class RhythmCritic(AxisWeights):
    MEASURES = frozenset({"groove", "density", "genreFit", "leadRests"})

    groove: Ramp = Field(description="how alike a section's drum bars are")
    genre_fit: Ramp = Field(description="Jaccard of the main drum bar and the family's bars")
    genre_fit_voices: dict[GrooveVoice, float] = Field(
        min_length=1, description="how much each voice's Jaccard counts"
    )
    signature_weight: float = Field(
        ge=0,
        le=1,
        description="share of the fit lost when the family's signature sounds are missing",
    )
    lead_rests: Ramp = Field(description="share of the time the lead is silent where it plays")


class ArrangementCritic(AxisWeights):
    MEASURES = frozenset({"contrast", "balance", "copies", "instruments", "motif"})

    contrast: Ramp = Field(description="spread of section energy, planned and heard")
    copies: Ramp = Field(description="share of repeated sections that are note-for-note copies")
    missing_request: float = Field(ge=0, le=1, description="lost per requested instrument silent")
    missing_role: float = Field(ge=0, le=1, description="lost per planned role that never plays")
    motif_unit_bars: int = Field(ge=1, le=8)
    motif: Ramp = Field(description="share of the lead's units that come back somewhere")


class VibeCritic(AxisWeights):
    MEASURES = frozenset({"tempo", "mode", "register"})

    usual_mode_floor: float = Field(
        ge=0, le=1, description="the least a mode the genre habitually uses scores"
    )


class CriticTable(Contract):
    """`skills/critics/critics.json`: every critic's weights and thresholds."""

    about: str
    fault_slack: float = Field(ge=0, le=1)
    harmony: HarmonyCritic
    rhythm: RhythmCritic
    arrangement: ArrangementCritic
    vibe: VibeCritic


@skill_table
def critic_table(root: Path) -> CriticTable:
    """The critics' weights and thresholds under `root`, validated and cached."""
    return load_table(CRITICS_FILE, CriticTable, root=root)
