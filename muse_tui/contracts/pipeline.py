"""The pipeline's own state: `ComposerPipeline`, its stage records, config and recovery."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from muse_tui.contracts.alternatives import AlternativeSet
from muse_tui.contracts.base import SCHEMA_VERSION, Contract, SessionId, Uuid
from muse_tui.contracts.intent import PipelineIntent, Reason
from muse_tui.contracts.manifest import SessionManifest
from muse_tui.contracts.song import (
    Arrangement,
    EffectChain,
    EnrichedProgression,
    PresetReference,
    QualityScore,
    SongState,
    TrackRole,
)

PipelineStatus = Literal[
    "pending",
    "running",
    "paused",
    "recovering",
    "completed",
    "completed_partial",
    "failed",
    "cancelled",
]
FINISHED_STATUSES: frozenset[str] = frozenset(
    {"completed", "completed_partial", "failed", "cancelled"}
)

StageStatus = Literal["pending", "running", "completed", "failed", "retrying", "skipped"]

StageErrorCode = Literal[
    "TOOL_EXECUTION_FAILED",
    "QUALITY_GATE_FAILED",
    "TIMEOUT",
    "INVALID_INPUT",
    "DEPENDENCY_MISSING",
    "USER_CANCELLED",
    "MIDI_PORT_UNAVAILABLE",
    "FILE_WRITE_FAILED",
    "LLM_PARSE_FAILED",
    "UNKNOWN",
]

#: A critical stage that exhausts its retries fails the run; the others degrade it.
CRITICAL_STAGES: frozenset[int] = frozenset({1, 2, 4})


class StageError(Contract):
    """Why a stage attempt failed, and what the producer can do about it."""

    code: StageErrorCode
    message: str
    failed_tool_call: str | None = None
    stack: str | None = None
    recoverable: bool = True
    recovery_hint: str | None = None
    attempt: int = Field(default=1, ge=1)

    @property
    def sentence(self) -> str:
        """The error and its way forward as one sentence: "X is broken; fix it."."""
        hint = f"; {self.recovery_hint.rstrip('.')}" if self.recovery_hint else ""
        return f"{self.message.rstrip('.')}{hint}."


class ToolCallRecord(Contract):
    """One call a stage made (a generator, a writer), with its timing."""

    tool_name: str
    invoked_at: str
    duration_ms: float = Field(ge=0)
    success: bool
    error: str | None = None


class HumanizationConfig(Contract):
    """What humanising did to a part: timing spread, velocity spread, swing."""

    timing_ms: float = Field(default=0, ge=0)
    velocity_range: int = Field(default=0, ge=0, le=64)
    swing: float = Field(default=50, ge=50, le=75)


class PatternSummary(Contract):
    """A generated part at a glance: how many notes, over how many bars, in what range."""

    note_count: int = Field(ge=0)
    bars: int = Field(ge=0)
    lowest_pitch: int | None = Field(default=None, ge=0, le=127)
    highest_pitch: int | None = Field(default=None, ge=0, le=127)
    style: str = ""
    #: The register the part was written in, and the skill rule that set it (S4's record).
    written_range: tuple[int, int] | None = Field(default=None, exclude_if=lambda v: v is None)
    range_rule: str = Field(default="", exclude_if=lambda v: not v)


class TrackGenerationResult(Contract):
    """One S4 sub-task's result: which track, what it holds, how it was shaped."""

    track_id: Uuid
    role: TrackRole
    midi_file_path: str | None = None
    pattern: PatternSummary
    humanization_applied: HumanizationConfig | None = None
    groove_template_applied: str | None = None


class PresetAssignment(Contract):
    """The sound chosen for a track, with confidence, why, and ranked alternatives."""

    track_id: Uuid
    preset: PresetReference
    confidence: float = Field(ge=0, le=1)
    reasoning: str
    alternatives: list[PresetReference] = Field(default_factory=list)


class IntentOutput(Contract):
    stage: Literal[1] = 1
    intent: PipelineIntent
    #: S1's decision record: why the key, tempo and band (`compose.intent.reasons`).
    reasons: list[Reason] = Field(default_factory=list, exclude_if=lambda v: not v)


class HarmonyOutput(Contract):
    stage: Literal[2] = 2
    progression: EnrichedProgression
    progression_file_path: str


class ArrangementOutput(Contract):
    stage: Literal[3] = 3
    arrangement: Arrangement


class PartsOutput(Contract):
    stage: Literal[4] = 4
    tracks: list[TrackGenerationResult]


class SoundsOutput(Contract):
    stage: Literal[5] = 5
    presets: list[PresetAssignment]
    effect_chains: list[EffectChain]


class AssemblyOutput(Contract):
    stage: Literal[6] = 6
    assembled_file_path: str
    track_file_paths: list[str]


class ValidationOutput(Contract):
    stage: Literal[7] = 7
    quality_report: QualityScore
    passed: bool


class OutputOutput(Contract):
    stage: Literal[8] = 8
    manifest: SessionManifest
    playback_initiated: bool


StageOutput = Annotated[
    IntentOutput
    | HarmonyOutput
    | ArrangementOutput
    | PartsOutput
    | SoundsOutput
    | AssemblyOutput
    | ValidationOutput
    | OutputOutput,
    Field(discriminator="stage"),
]


class StageRecord(Contract):
    """How one stage went: status, timing, retries, output and every attempt's error."""

    stage: int = Field(ge=1, le=8)
    name: str
    status: StageStatus = "pending"
    started_at: str | None = None
    completed_at: str | None = None
    duration_ms: float | None = Field(default=None, ge=0)
    retry_count: int = Field(default=0, ge=0)
    max_retries: int = Field(default=3, ge=0)
    output: StageOutput | None = None
    error: StageError | None = None
    attempt_errors: list[StageError] = Field(default_factory=list)
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    quality_score: QualityScore | None = None
    summary: str = ""


class QualityGateConfig(Contract):
    """Thresholds of the quality gate (S7)."""

    min_axis: float = Field(default=0.5, ge=0, le=1)
    min_composite: float = Field(default=0.7, ge=0, le=1)


class PipelineConfig(Contract):
    """How a run behaves. The defaults suit an ordinary compose."""

    max_retries_per_stage: int = Field(
        default=3,
        ge=1,
        le=10,
        description="attempts a stage gets before it fails (first + retries)",
    )
    pipeline_timeout_ms: int = Field(default=300_000, gt=0)
    stage_timeout_ms: int = Field(default=60_000, gt=0)
    parallel_midi_generation: bool = True
    enable_quality_gate: bool = False
    enable_playback: bool = False
    quality_gate_config: QualityGateConfig | None = None
    skip_stages: list[int] = Field(default_factory=list)
    generate_alternatives: bool = False
    alternative_count: int = Field(default=3, ge=1, le=5)
    enable_checkpoints: bool = True
    approval_gates: list[int] = Field(default_factory=lambda: [2])
    #: The pad layout of the MPC drum patterns (`skills/mpc/pads.json`): mpc, chromatic, gm.
    drum_map: str = "mpc"


class RecoveryState(Contract):
    """What a resume needs: the last good stage, the checkpoint, retries so far."""

    last_successful_stage: int = Field(default=0, ge=0, le=8)
    checkpoint_path: str | None = None
    total_retries: int = Field(default=0, ge=0)
    is_resumed: bool = False
    previous_pipeline_id: str | None = None


class ComposerPipeline(Contract):
    """One run of the pipeline: the state checkpointed after every stage."""

    pipeline_id: Uuid
    session_id: SessionId
    version: str = SCHEMA_VERSION
    raw_prompt: str
    intent: PipelineIntent | None = None
    status: PipelineStatus = "pending"
    current_stage: int = Field(default=0, ge=0, le=9)
    stages: dict[int, StageRecord] = Field(default_factory=dict)
    song_state: SongState = Field(default_factory=SongState)
    alternatives: list[AlternativeSet] = Field(default_factory=list)
    config: PipelineConfig = Field(default_factory=PipelineConfig)
    recovery: RecoveryState = Field(default_factory=RecoveryState)
    created_at: str
    updated_at: str
    completed_at: str | None = None
    total_duration_ms: float | None = Field(default=None, ge=0)

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED_STATUSES
