"""How a stage attempt and a run turned out, in words a producer reads."""

from __future__ import annotations

import time
import traceback

from muse_tui.contracts import ComposerPipeline, StageError, StageRecord
from muse_tui.store.atomic import WriteFailed, write_advice

from .stages import StageContext, StageFailure


def account(record: StageRecord, ctx: StageContext, begun: float) -> None:
    """Add one attempt's tool calls and time to the stage record."""
    record.tool_calls.extend(ctx.tool_calls)
    record.duration_ms = (record.duration_ms or 0) + (time.perf_counter() - begun) * 1000


def write_failed_hint(exc: OSError) -> str:
    """What to do after a write the disk refused (full, read-only, a link leading out)."""
    return f"{write_advice(exc)}, then resume it with `muse-studio resume SESSION`"


def stage_error(exc: BaseException, attempt: int, stage_timeout_ms: int) -> StageError:
    if isinstance(exc, TimeoutError):
        return StageError(
            code="TIMEOUT", message=f"took longer than {stage_timeout_ms} ms", attempt=attempt
        )
    if isinstance(exc, StageFailure):
        return StageError(
            code=exc.code,  # type: ignore[arg-type]
            message=str(exc),
            recovery_hint=exc.hint,
            recoverable=exc.recoverable,
            attempt=attempt,
        )
    if isinstance(exc, WriteFailed):
        # A stage's own file the disk refused fails the run as a refused checkpoint does:
        # with what could not be written and what to do, and no retry into the same wall.
        return StageError(
            code="FILE_WRITE_FAILED",
            message=str(exc),
            recovery_hint=write_failed_hint(exc),
            recoverable=False,
            attempt=attempt,
        )
    return StageError(
        code="TOOL_EXECUTION_FAILED",
        message=f"{type(exc).__name__}: {exc}",
        stack="".join(traceback.format_exception(exc)[-6:]),
        attempt=attempt,
    )


def combined_error(record: StageRecord) -> StageError:
    """The final error of a stage that ran out of attempts: every attempt's cause, in order."""
    last = record.attempt_errors[-1]
    if len(record.attempt_errors) == 1:
        return last
    causes = "; ".join(f"attempt {e.attempt}: {e.message}" for e in record.attempt_errors)
    return last.model_copy(
        update={"message": f"{record.name} failed {len(record.attempt_errors)} times ({causes})"}
    )


def finish_message(p: ComposerPipeline, error: StageError | None) -> str:
    if p.status == "completed":
        return f"Session {p.session_id} is ready."
    if p.status == "completed_partial":
        why = error.message if error else "a stage was degraded"
        hint = f" {error.recovery_hint}" if error and error.recovery_hint else ""
        return f"Session {p.session_id} is ready, but {why}.{hint}"
    if p.status == "cancelled":
        return "Cancelled; nothing half-written was left behind."
    if error is None:
        return "The run failed for a reason nobody recorded; run it again with --json to see more."
    return f"The run failed: {error.sentence}"
