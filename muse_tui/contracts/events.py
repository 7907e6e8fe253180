"""What the pipeline tells its watchers (the studio's tracker, the CLI's progress line).

The first event of a run is always `PipelineStarted` and the last is always
`PipelineFinished`, on success, failure, timeout and cancel alike.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, JsonValue

from muse_tui.contracts.base import Contract
from muse_tui.contracts.intent import Ambiguity
from muse_tui.contracts.pipeline import PipelineStatus, StageError

Decision = Literal["approve", "regenerate", "cancel"]


class PipelineStarted(Contract):
    kind: Literal["pipeline_started"] = "pipeline_started"
    pipeline_id: str
    session_id: str
    prompt: str
    resumed_from_stage: int = 0


class StageStarted(Contract):
    kind: Literal["stage_started"] = "stage_started"
    stage: int
    name: str
    attempt: int = 1
    variant: int = 0


class StageProgress(Contract):
    kind: Literal["stage_progress"] = "stage_progress"
    stage: int
    message: str
    fraction: float = Field(ge=0, le=1)


class StageCompleted(Contract):
    kind: Literal["stage_completed"] = "stage_completed"
    stage: int
    name: str
    summary: str
    duration_ms: float

    @property
    def line(self) -> str:
        """The one line a producer reads: '✓ Stage 2/8: 8-chord progression in Eb minor (…)'."""
        return f"✓ Stage {self.stage}/8: {self.summary}"


class StageRetrying(Contract):
    kind: Literal["stage_retrying"] = "stage_retrying"
    stage: int
    attempt: int
    max_attempts: int
    error: StageError


class StageFailed(Contract):
    kind: Literal["stage_failed"] = "stage_failed"
    stage: int
    name: str
    error: StageError


class StageSkipped(Contract):
    kind: Literal["stage_skipped"] = "stage_skipped"
    stage: int
    name: str


class ApprovalRequested(Contract):
    kind: Literal["approval_requested"] = "approval_requested"
    stage: int
    summary: str
    question: Ambiguity | None = None


class ApprovalResolved(Contract):
    kind: Literal["approval_resolved"] = "approval_resolved"
    stage: int
    decision: Decision
    answer: str | None = None


class PipelineFinished(Contract):
    kind: Literal["pipeline_finished"] = "pipeline_finished"
    status: PipelineStatus
    duration_ms: float
    session_dir: str | None = None
    message: str
    error: StageError | None = None
    details: dict[str, JsonValue] = Field(default_factory=dict)

    def message_after(self, failed: StageFailed | None) -> str:
        """The run's last line in a log that already showed `failed`, the last stage to fail.

        When that stage's error is why the run failed, its line said why and what to
        do: the end says only where the run stopped, not the same sentence again.
        """
        if (
            self.status == "failed"
            and failed is not None
            and self.error is not None
            and failed.error.message == self.error.message
        ):
            return f"The run stopped at stage {failed.stage}/8."
        return self.message


PipelineEvent = Annotated[
    PipelineStarted
    | StageStarted
    | StageProgress
    | StageCompleted
    | StageRetrying
    | StageFailed
    | StageSkipped
    | ApprovalRequested
    | ApprovalResolved
    | PipelineFinished,
    Field(discriminator="kind"),
]
