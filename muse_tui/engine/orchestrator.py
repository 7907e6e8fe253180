"""The 8-stage pipeline: retries, timeouts, gates, checkpoints, events, resume.

The orchestrator is the only owner of the `ComposerPipeline`. It threads one
`SongState` through the registered stages, checkpoints after each, and always
ends with exactly one `PipelineFinished` event.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Generic, TypeVar

from muse_tui.contracts import (
    CRITICAL_STAGES,
    STAGE_NAMES,
    ApprovalRequested,
    ApprovalResolved,
    ComposerPipeline,
    IntentOutput,
    PipelineConfig,
    PipelineFinished,
    PipelineStarted,
    SongState,
    StageCompleted,
    StageError,
    StageFailed,
    StageProgress,
    StageRecord,
    StageRetrying,
    StageSkipped,
    StageStarted,
    new_id,
    new_session_id,
)
from muse_tui.store.atomic import WriteFailed
from muse_tui.store.checkpoint import (
    STATE_DIR,
    load_checkpoint,
    resolve_checkpoint,
    write_checkpoint,
)
from muse_tui.store.lock import session_lock
from muse_tui.store.manifest import record_run_in_manifest

from .event_order import OrderedEvents
from .outcomes import account, combined_error, finish_message, stage_error
from .parts import write_parts
from .protocols import ApprovalGate, ApprovalRequest, AutoApprove, EventSink, NullSink, Playback
from .stages import (
    PartsStage,
    QualityRewind,
    StageContext,
    StageRegistry,
    StageResult,
)

T = TypeVar("T")

#: How many times a blocking question may be asked before the run gives up on it.
MAX_QUESTIONS = 3
#: Stages whose checkpoint is fsynced: after the parts (S4) and the MIDI (S6), the costly
#: work. The others are cheap to redo, so theirs are only renamed into place: whole after
#: a killed process, and at worst lost to a power cut (the run resumes a stage earlier).
DURABLE_STAGES = frozenset({4, 6})


class RunCancelled(Exception):
    """The producer cancelled at a gate or question."""


class RunTimedOut(Exception):
    """The whole run went past `pipeline_timeout_ms`."""


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
            raw_prompt=prompt,
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
    variants: dict[int, int] = field(default_factory=dict)
    answers: dict[str, str] = field(default_factory=dict)
    questions_asked: int = 0
    degraded: StageError | None = None
    carried: dict[int, StageRecord] = field(default_factory=dict)
    folder: Path | None = None  # where to write; by default the sessions root's folder for the id

    def __post_init__(self) -> None:
        self.events = OrderedEvents(self.owner.sink)
        self.session_dir = self.folder or self.owner.sessions_root / self.pipeline.session_id
        self.started = time.perf_counter()
        self.deadline = self.started + self.pipeline.config.pipeline_timeout_ms / 1000

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
            await self._stages_from(first)
            error = self.degraded
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
            self._finish(error)
            raise
        except WriteFailed as exc:  # a checkpoint the disk refused (full, read-only)
            p.status = "failed"
            error = StageError(
                code="FILE_WRITE_FAILED",
                message=str(exc),
                recovery_hint="free some space, then resume it with `muse-studio resume SESSION`",
            )
        except RunTimedOut:
            p.status = "failed"
            limit = p.config.pipeline_timeout_ms / 1000
            error = StageError(
                code="TIMEOUT",
                message=f"the whole run took longer than {limit:g} s",
                recovery_hint="resume it with `muse-studio resume SESSION`",
            )
        self._finish(error)
        return p

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
                self._fail(record, combined_error(record))
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
            self._checkpoint()
            return None
        if stage not in self.owner.stages:
            self._fail(
                record,
                StageError(code="DEPENDENCY_MISSING", message=f"no {name} stage is installed"),
            )
            return record.error
        while True:
            result = await self._attempts(record)
            if result is None:
                return record.error if p.status != "failed" else None
            self._apply(stage, record, result)
            if stage == 1 and await self._answer_questions(record):
                continue
            if not await self._approved(record, result):
                self.variants[stage] = self.variants.get(stage, 0) + 1
                continue
            if stage < 8:  # after S8 the run finishes, and `_finish` checkpoints
                self._checkpoint(durable=stage in DURABLE_STAGES)
            return None

    async def _attempts(self, record: StageRecord) -> StageResult | None:
        """Try a stage up to `max_retries_per_stage` times; None when every attempt failed."""
        p, stage = self.pipeline, record.stage
        attempts = max(1, p.config.max_retries_per_stage)
        for attempt in range(1, attempts + 1):
            ctx = self._context(stage, attempt)
            record.status = "running" if attempt == 1 else "retrying"
            record.started_at = record.started_at or self.owner.clock().isoformat()
            self.events.emit(
                StageStarted(stage=stage, name=record.name, attempt=attempt, variant=ctx.variant)
            )
            begun = time.perf_counter()
            try:
                result = await self._call(stage, ctx)
            except (RunCancelled, RunTimedOut, QualityRewind, asyncio.CancelledError):
                account(record, ctx, begun)
                raise
            except Exception as exc:  # a stage's failure is data for the record, not a crash
                error = stage_error(exc, attempt, p.config.stage_timeout_ms)
                record.attempt_errors.append(error)
                record.error = error
                account(record, ctx, begun)
                if attempt < attempts and error.recoverable:
                    record.retry_count += 1
                    p.recovery.total_retries += 1
                    p.status = "recovering"
                    self.events.emit(
                        StageRetrying(
                            stage=stage, attempt=attempt + 1, max_attempts=attempts, error=error
                        )
                    )
                    continue
                self._fail(record, combined_error(record))
                return None
            account(record, ctx, begun)
            p.status = "running"
            return result
        return None

    async def _call(self, stage: int, ctx: StageContext) -> StageResult:
        remaining = self.deadline - time.perf_counter()
        if remaining <= 0:
            raise RunTimedOut
        budget = min(self.pipeline.config.stage_timeout_ms / 1000, remaining)
        song = self.pipeline.song_state
        work = self.owner.stages[stage]
        try:
            async with asyncio.timeout(budget):
                if isinstance(work, PartsStage):
                    plan = await asyncio.to_thread(work.plan, song, ctx)
                    tracks = await write_parts(song, ctx, plan)
                    return await asyncio.to_thread(work.finish, song, ctx, tracks)
                if inspect.iscoroutinefunction(work):
                    return await work(song, ctx)
                return await asyncio.to_thread(work, song, ctx)  # type: ignore[return-value]
        except TimeoutError:
            if time.perf_counter() >= self.deadline:
                raise RunTimedOut from None
            raise

    def _context(self, stage: int, attempt: int) -> StageContext:
        loop = asyncio.get_running_loop()

        def progress(message: str, fraction: float) -> None:
            event = StageProgress(stage=stage, message=message, fraction=fraction)
            loop.call_soon_threadsafe(self._emit_progress, event)

        return StageContext(
            stage=stage,
            seed=self.pipeline.song_state.seed,
            variant=self.variants.get(stage, 0),
            attempt=attempt,
            config=self.pipeline.config,
            pipeline=self.pipeline,
            session_dir=self.session_dir,
            clock=self.owner.clock,
            answers=dict(self.answers),
            playback=self.owner.playback,
            on_progress=progress,
        )

    def _emit_progress(self, event: StageProgress) -> None:
        # A late progress report from a stage thread that timed out must not
        # break the ordering rule once the run has finished.
        if not self.events.finished:
            self.events.emit(event)

    def _apply(self, stage: int, record: StageRecord, result: StageResult) -> None:
        p = self.pipeline
        p.song_state = result.song
        if isinstance(result.output, IntentOutput):
            p.intent = result.output.intent
        record.output = result.output
        record.summary = result.summary
        record.status = "completed"
        record.error = None
        record.completed_at = self.owner.clock().isoformat()
        p.recovery.last_successful_stage = stage
        p.updated_at = record.completed_at
        self.events.emit(
            StageCompleted(
                stage=stage,
                name=record.name,
                summary=result.summary,
                duration_ms=record.duration_ms or 0,
            )
        )

    async def _answer_questions(self, record: StageRecord) -> bool:
        """Ask the blocking questions of S1; True when an answer means S1 must run again."""
        intent = self.pipeline.intent
        if intent is None or not intent.blocking_ambiguities:
            return False
        question = intent.blocking_ambiguities[0]
        if self.answers.get(question.field) is not None or self.questions_asked >= MAX_QUESTIONS:
            return False
        self.questions_asked += 1
        self.events.emit(ApprovalRequested(stage=1, summary=question.reason, question=question))
        answer = await self.owner.gate.ask(question)
        self.events.emit(
            ApprovalResolved(
                stage=1, decision="cancel" if answer is None else "approve", answer=answer
            )
        )
        if answer is None:
            raise RunCancelled
        self.answers[question.field] = answer
        return True

    async def _approved(self, record: StageRecord, result: StageResult) -> bool:
        stage = record.stage
        if stage not in self.pipeline.config.approval_gates:
            return True
        self.pipeline.status = "paused"
        self.events.emit(ApprovalRequested(stage=stage, summary=result.summary))
        request = ApprovalRequest(
            stage=stage,
            name=record.name,
            summary=result.summary,
            output=result.output,
            song=result.song,
            variant=self.variants.get(stage, 0),
        )
        decision = await self.owner.gate.review(request)
        self.events.emit(ApprovalResolved(stage=stage, decision=decision))
        self.pipeline.status = "running"
        if decision == "cancel":
            raise RunCancelled
        return decision == "approve"

    def _fail(self, record: StageRecord, error: StageError) -> None:
        record.status = "failed"
        record.error = error
        self.events.emit(StageFailed(stage=record.stage, name=record.name, error=error))
        self.pipeline.status = "failed" if record.stage in CRITICAL_STAGES else "running"
        self._checkpoint()

    def _checkpoint(self, *, durable: bool = True) -> None:
        p = self.pipeline
        if not p.config.enable_checkpoints:
            return
        p.updated_at = self.owner.clock().isoformat()
        path = write_checkpoint(self.session_dir, p, durable=durable)
        p.recovery.checkpoint_path = str(path)

    def _finish(self, error: StageError | None) -> None:
        p = self.pipeline
        p.current_stage = 9 if p.status in ("completed", "completed_partial") else p.current_stage
        p.total_duration_ms = (time.perf_counter() - self.started) * 1000
        p.completed_at = self.owner.clock().isoformat()
        try:
            self._checkpoint()
            record_run_in_manifest(self.session_dir, p)
        except OSError as exc:  # a full disk must not hide how the run ended
            if p.status in ("completed", "completed_partial"):
                p.status = "failed"  # the session on disk lacks the run's last checkpoint
            error = error or StageError(
                code="FILE_WRITE_FAILED",
                message=str(exc),
                recovery_hint="free some space, then resume it with `muse-studio resume SESSION`",
            )
        self.events.emit(
            PipelineFinished(
                status=p.status,
                duration_ms=p.total_duration_ms,
                session_dir=str(self.session_dir) if self.session_dir.exists() else None,
                message=finish_message(p, error),
                error=error,
            )
        )
