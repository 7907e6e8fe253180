"""The 8-stage pipeline: the stage loop, quality rewinds, and resume.

The orchestrator is the only owner of the `ComposerPipeline`. It threads one
`SongState` through the registered stages and always ends with exactly one
`PipelineFinished` event. A stage's attempts and time limits are in `attempts`,
the producer's questions and gates in `gates`, the records, checkpoints and the
finish in `ledger`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Generic, TypeVar

from muse_tui.compose.intent.text import readable
from muse_tui.contracts import (
    STAGE_NAMES,
    ComposerPipeline,
    PipelineConfig,
    PipelineStarted,
    SongState,
    StageError,
    StageRecord,
    StageRetrying,
    StageSkipped,
    new_id,
    new_session_id,
)
from muse_tui.store.atomic import WriteFailed
from muse_tui.store.checkpoint import STATE_DIR, load_checkpoint, resolve_checkpoint
from muse_tui.store.lock import session_lock

from .attempts import Attempts, RunTimedOut
from .collector import collector_paused
from .event_order import OrderedEvents
from .gates import Gates, RunCancelled
from .ledger import DURABLE_STAGES, RunLedger
from .outcomes import combined_error, write_failed_hint
from .protocols import ApprovalGate, AutoApprove, EventSink, NullSink, Playback
from .stages import QualityRewind, StageRegistry

T = TypeVar("T")


def utc_now() -> datetime:
    return datetime.now(UTC)


class _Quiet(Generic[T]):
    """A result box whose repr is cheap.

    On CPython 3.11 `asyncio.run` reprs its main task (and so its result) while
    checking the SIGINT handler on exit; for a whole pipeline that costs ~50 ms.
    """

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "<result>"


def run_blocking(coro: Coroutine[object, object, T]) -> T:
    """`asyncio.run(coro)` for the CLI and benchmarks, without the costly exit repr."""

    async def boxed() -> _Quiet[T]:
        return _Quiet(await coro)

    return asyncio.run(boxed()).value


@dataclass
class Orchestrator:
    """Runs the pipeline. Inject the stages, the gate, the event sink and playback."""

    stages: StageRegistry
    sessions_root: Path
    gate: ApprovalGate = field(default_factory=AutoApprove)
    sink: EventSink = field(default_factory=NullSink)
    playback: Playback | None = None
    clock: Callable[[], datetime] = utc_now

    async def run(
        self,
        prompt: str,
        *,
        seed: int,
        config: PipelineConfig | None = None,
        session_id: str | None = None,
        pipeline_id: str | None = None,
        answers: dict[str, str] | None = None,
    ) -> ComposerPipeline:
        """Compose from a prompt. Returns the finished pipeline (status says how it went).

        `answers` are things the producer settled outside the prompt (e.g. `{"bars": "64"}`);
        stages read them from `StageContext.answers`, as they do answers to questions.
        """
        now = self.clock()
        pipeline = ComposerPipeline(
            pipeline_id=pipeline_id or new_id(),
            session_id=session_id or new_session_id(now),
            raw_prompt=readable(prompt),  # as S1 reads it: bytes that were not UTF-8 as U+FFFD
            song_state=SongState(seed=seed),
            config=config or PipelineConfig(),
            created_at=now.isoformat(),
            updated_at=now.isoformat(),
        )
        return await _Run(self, pipeline, answers=dict(answers or {})).execute()

    async def resume(
        self, checkpoint: Path, *, config: PipelineConfig | None = None
    ) -> ComposerPipeline:
        """Continue a checkpointed run at `last_successful_stage + 1` (raises CheckpointError).

        The run writes into the folder the checkpoint is in (a copied session
        stays a copy), holding its write lock (raises SessionBusy).
        """
        path = resolve_checkpoint(checkpoint)
        previous = load_checkpoint(path)
        pipeline = previous.model_copy(deep=True)
        pipeline.pipeline_id = new_id()
        pipeline.config = config or previous.config
        pipeline.recovery.is_resumed = True
        pipeline.recovery.previous_pipeline_id = previous.pipeline_id
        folder = path.parent.parent if path.parent.name == STATE_DIR else None
        if folder is None:
            return await _Run(self, pipeline).execute()
        with session_lock(folder):
            return await _Run(self, pipeline, folder=folder).execute()


@dataclass
class _Run:
    """One execution of the stage loop over one pipeline."""

    owner: Orchestrator
    pipeline: ComposerPipeline
    answers: dict[str, str] = field(default_factory=dict)
    folder: Path | None = None  # where to write; by default the sessions root's folder for the id
    degraded: StageError | None = None
    carried: dict[int, StageRecord] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.events = OrderedEvents(self.owner.sink)
        session_dir = self.folder or self.owner.sessions_root / self.pipeline.session_id
        self.ledger = RunLedger(self.pipeline, self.events, session_dir, self.owner.clock)
        self.gates = Gates(self.owner.gate, self.pipeline, self.events, self.answers)
        deadline = self.ledger.started + self.pipeline.config.pipeline_timeout_ms / 1000
        self.attempts = Attempts(
            self.owner.stages, self.ledger, self.owner.playback, deadline, answers=self.answers
        )
        self.variants = self.attempts.variants

    async def execute(self) -> ComposerPipeline:
        p = self.pipeline
        first = p.recovery.last_successful_stage + 1
        self.events.emit(
            PipelineStarted(
                pipeline_id=p.pipeline_id,
                session_id=p.session_id,
                prompt=p.raw_prompt,
                resumed_from_stage=first if p.recovery.is_resumed else 0,
            )
        )
        p.status = "running"
        error: StageError | None = None
        try:
            with collector_paused():  # lifted while a person decides at a gate (`Gates`)
                await self._stages_from(first)
            error = self.degraded or self._failure()
            if p.status == "running":
                # A failed non-critical stage degrades the result; a skipped one does not.
                degraded = any(r.status == "failed" for r in p.stages.values())
                p.status = "completed_partial" if degraded else "completed"
        except RunCancelled:
            p.status = "cancelled"
            error = StageError(code="USER_CANCELLED", message="cancelled by the producer")
        except asyncio.CancelledError:
            p.status = "cancelled"
            error = StageError(code="USER_CANCELLED", message="the run was cancelled")
            self.ledger.finish(error)
            raise
        except WriteFailed as exc:  # a checkpoint the disk refused (full, read-only)
            p.status = "failed"
            error = StageError(
                code="FILE_WRITE_FAILED", message=str(exc), recovery_hint=write_failed_hint(exc)
            )
        except RunTimedOut:
            p.status = "failed"
            limit = p.config.pipeline_timeout_ms / 1000
            error = StageError(
                code="TIMEOUT",
                message=f"the whole run took longer than {limit:g} s",
                recovery_hint="resume it with `muse-studio resume SESSION`",
            )
        self.ledger.finish(error)
        return p

    def _failure(self) -> StageError | None:
        """The error of the critical stage that failed the run, if one did."""
        if self.pipeline.status != "failed":
            return None
        failed = (r for r in self.pipeline.stages.values() if r.status == "failed" and r.error)
        return next((r.error for r in failed), None)

    async def _stages_from(self, first: int) -> None:
        """Run the stages in order; a quality rewind sends the run back to the weak stage."""
        stage, rewinds = first, 0
        while stage <= 8:
            try:
                self.degraded = await self._stage(stage) or self.degraded
            except QualityRewind as rewind:
                record = self.pipeline.stages[stage]
                error = StageError(
                    code="QUALITY_GATE_FAILED", message=str(rewind), attempt=rewinds + 1
                )
                record.attempt_errors.append(error)
                rewinds += 1
                if rewinds < self.pipeline.config.max_retries_per_stage:
                    record.retry_count += 1
                    self.pipeline.recovery.total_retries += 1
                    attempts = self.pipeline.config.max_retries_per_stage
                    self.events.emit(
                        StageRetrying(
                            stage=stage, attempt=rewinds + 1, max_attempts=attempts, error=error
                        )
                    )
                    self.variants[rewind.stage] = self.variants.get(rewind.stage, 0) + 1
                    self.carried[stage] = record  # keep its rejections when it runs again
                    stage = rewind.stage
                    continue
                self.ledger.fail(record, combined_error(record))
                self.degraded = record.error
            if self.pipeline.status == "failed":
                return
            stage += 1

    # ── one stage ───────────────────────────────────────────────────────────
    async def _stage(self, stage: int) -> StageError | None:
        """Run one stage with its retries and gate; the error of a degraded stage, if any."""
        p = self.pipeline
        name = STAGE_NAMES[stage]
        record = self.carried.pop(stage, None) or StageRecord(
            stage=stage, name=name, max_retries=p.config.max_retries_per_stage
        )
        p.stages[stage] = record
        p.current_stage = stage
        if stage in p.config.skip_stages:
            record.status = "skipped"
            self.events.emit(StageSkipped(stage=stage, name=name))
            self.ledger.checkpoint()
            return None
        if stage not in self.owner.stages:
            self.ledger.fail(
                record,
                StageError(code="DEPENDENCY_MISSING", message=f"no {name} stage is installed"),
            )
            return record.error
        while True:
            result = await self.attempts.run(record)
            if result is None:
                return record.error if p.status != "failed" else None
            self.ledger.complete(stage, record, result)
            if stage == 1 and await self.gates.answer_questions():
                continue
            if not await self.gates.approved(record, result, self.variants.get(stage, 0)):
                self.variants[stage] = self.variants.get(stage, 0) + 1
                continue
            if stage < 8:  # after S8 the run finishes, and the ledger's finish checkpoints
                self.ledger.checkpoint(durable=stage in DURABLE_STAGES)
            return None
