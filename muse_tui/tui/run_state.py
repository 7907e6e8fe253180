"""What the stage tracker shows: the run's status and each stage's, folded from engine events.

Plain data, no Textual: the tracker widget renders it, tests read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from muse_tui.contracts.vocabulary import STAGE_NAMES

if TYPE_CHECKING:
    from muse_tui.contracts import ComposerPipeline, PipelineEvent, StageError

#: How the tracker names the run's status.
RUN_LABELS = {
    "idle": "ready",
    "running": "composing",
    "paused": "waiting for you",
    "recovering": "retrying",
    "completed": "done",
    "completed_partial": "done, with problems",
    "failed": "failed",
    "cancelled": "cancelled",
    "stopped": "stopped early — resume it from Sessions",
}


@dataclass
class StageRow:
    """One line of the tracker."""

    stage: int
    name: str
    status: str = "pending"  # pending running completed failed retrying skipped waiting
    summary: str = ""
    duration_ms: float | None = None
    attempt: int = 1
    max_attempts: int = 1
    progress: str = ""
    error: StageError | None = None

    @property
    def detail(self) -> str:
        """The words after the stage name: its summary, progress, retry or error."""
        if self.status == "completed":
            return self.summary
        if self.status == "running":
            return self.progress or "working…"
        if self.status == "waiting":
            return f"{self.summary} — approve with y, regenerate with r"
        if self.status == "retrying":
            why = self.error.message if self.error else "it failed"
            return f"attempt {self.attempt}/{self.max_attempts} ({why})"
        if self.status == "failed" and self.error is not None:
            return self.error.sentence
        if self.status == "skipped":
            return "skipped"
        return ""


@dataclass
class RunState:
    """A run as the tracker sees it. `apply` folds each engine event in order."""

    status: str = "idle"
    session_id: str = ""
    prompt: str = ""
    message: str = ""
    started_at: float | None = None
    finished_at: float | None = None
    rows: dict[int, StageRow] = field(
        default_factory=lambda: {n: StageRow(n, name) for n, name in STAGE_NAMES.items()}
    )

    @property
    def is_running(self) -> bool:
        return self.status in ("running", "paused", "recovering")

    @property
    def running_stage(self) -> StageRow | None:
        for row in self.rows.values():
            if row.status in ("running", "retrying"):
                return row
        return None

    def elapsed(self, now: float) -> float:
        if self.started_at is None:
            return 0.0
        return (self.finished_at if self.finished_at is not None else now) - self.started_at

    def apply(self, event: PipelineEvent, now: float) -> None:
        """Fold one event in; `now` is the studio's monotonic clock."""
        match event.kind:
            case "pipeline_started":
                self.__init__()  # type: ignore[misc]  # a new run starts from a clean slate
                self.status, self.started_at = "running", now
                self.session_id, self.prompt = event.session_id, event.prompt
                for stage in range(1, event.resumed_from_stage):
                    self.rows[stage].status = "completed"
                    self.rows[stage].summary = "done in an earlier run"
            case "stage_started":
                row = self.rows[event.stage]
                row.status = "running" if event.attempt == 1 else "retrying"
                row.attempt, row.progress = event.attempt, ""
            case "stage_progress":
                self.rows[event.stage].progress = event.message
            case "stage_completed":
                row = self.rows[event.stage]
                row.status, row.summary, row.duration_ms = (
                    "completed",
                    event.summary,
                    event.duration_ms,
                )
                row.error = None
                self.status = "running"
            case "stage_retrying":
                row = self.rows[event.stage]
                row.status, row.attempt, row.max_attempts = (
                    "retrying",
                    event.attempt,
                    event.max_attempts,
                )
                row.error = event.error
                self.status = "recovering"
            case "stage_failed":
                row = self.rows[event.stage]
                row.status, row.error = "failed", event.error
            case "stage_skipped":
                self.rows[event.stage].status = "skipped"
            case "approval_requested":
                self.status = "paused"
                if event.question is None:
                    self.rows[event.stage].status = "waiting"
            case "approval_resolved":
                self.status = "running"
                row = self.rows[event.stage]
                if row.status == "waiting":
                    row.status = "completed"
            case "pipeline_finished":
                self.status, self.message, self.finished_at = event.status, event.message, now

    @classmethod
    def from_pipeline(cls, pipeline: ComposerPipeline) -> RunState:
        """How an earlier run went, rebuilt from its checkpoint (opening a session)."""
        state = cls(status=pipeline.status, session_id=pipeline.session_id)
        state.prompt = pipeline.raw_prompt
        state.started_at = 0.0
        state.finished_at = (pipeline.total_duration_ms or 0.0) / 1000
        for number, record in pipeline.stages.items():
            row = state.rows[number]
            row.status = "completed" if record.status == "completed" else record.status
            row.summary, row.duration_ms, row.error = (
                record.summary,
                record.duration_ms,
                record.error,
            )
            row.attempt = record.retry_count + 1
            row.max_attempts = record.max_retries
        if pipeline.status in ("running", "paused", "recovering", "pending"):
            state.status = "stopped"  # a checkpoint of a run that did not finish
        return state
