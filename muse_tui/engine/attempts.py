"""One stage's attempts: retries of recoverable failures, within the stage and run time limits."""

from __future__ import annotations

import asyncio
import inspect
import time
from dataclasses import dataclass, field

from muse_tui.contracts import (
    StageProgress,
    StageRecord,
    StageRetrying,
    StageStarted,
)

from .gates import RunCancelled
from .ledger import RunLedger
from .outcomes import account, combined_error, stage_error
from .parts import write_parts
from .protocols import Playback
from .stages import PartsStage, QualityRewind, StageContext, StageRegistry, StageResult


class RunTimedOut(Exception):
    """The whole run went past `pipeline_timeout_ms`."""


@dataclass
class Attempts:
    """Runs a stage's work until it succeeds, runs out of attempts, or the run runs out of time."""

    stages: StageRegistry
    ledger: RunLedger
    playback: Playback | None
    deadline: float  # `time.perf_counter()` at which the whole run times out
    answers: dict[str, str] = field(default_factory=dict)  # shared with the gates
    variants: dict[int, int] = field(default_factory=dict)

    async def run(self, record: StageRecord) -> StageResult | None:
        """Try a stage up to `max_retries_per_stage` times; None when every attempt failed."""
        p, stage = self.ledger.pipeline, record.stage
        events = self.ledger.events
        attempts = max(1, p.config.max_retries_per_stage)
        for attempt in range(1, attempts + 1):
            ctx = self._context(stage, attempt)
            record.status = "running" if attempt == 1 else "retrying"
            record.started_at = record.started_at or self.ledger.clock().isoformat()
            events.emit(
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
                    events.emit(
                        StageRetrying(
                            stage=stage, attempt=attempt + 1, max_attempts=attempts, error=error
                        )
                    )
                    continue
                self.ledger.fail(record, combined_error(record))
                return None
            account(record, ctx, begun)
            p.status = "running"
            return result
        return None

    async def _call(self, stage: int, ctx: StageContext) -> StageResult:
        remaining = self.deadline - time.perf_counter()
        if remaining <= 0:
            raise RunTimedOut
        budget = min(self.ledger.pipeline.config.stage_timeout_ms / 1000, remaining)
        song = self.ledger.pipeline.song_state
        work = self.stages[stage]
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

        pipeline = self.ledger.pipeline
        return StageContext(
            stage=stage,
            seed=pipeline.song_state.seed,
            variant=self.variants.get(stage, 0),
            attempt=attempt,
            config=pipeline.config,
            pipeline=pipeline,
            session_dir=self.ledger.session_dir,
            clock=self.ledger.clock,
            answers=dict(self.answers),
            playback=self.playback,
            on_progress=progress,
        )

    def _emit_progress(self, event: StageProgress) -> None:
        # A late progress report from a stage thread that timed out must not
        # break the ordering rule once the run has finished.
        if not self.ledger.events.finished:
            self.ledger.events.emit(event)
