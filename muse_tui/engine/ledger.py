"""What a run writes down: each stage's outcome, the checkpoints, and how the run ended."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from muse_tui.contracts import (
    CRITICAL_STAGES,
    ComposerPipeline,
    IntentOutput,
    PipelineFinished,
    SongState,
    StageCompleted,
    StageError,
    StageFailed,
    StageRecord,
)
from muse_tui.store.checkpoint import song_to_json, write_checkpoint
from muse_tui.store.manifest import record_run_in_manifest

from .event_order import OrderedEvents
from .outcomes import finish_message
from .stages import StageResult

#: Stages whose checkpoint is fsynced: after the parts (S4) and the MIDI (S6), the costly
#: work. The others are cheap to redo, so theirs are only renamed into place: whole after
#: a killed process, and at worst lost to a power cut (the run resumes a stage earlier).
DURABLE_STAGES = frozenset({4, 6})
#: What to do after a write the disk refused (full, read-only).
FREE_SPACE_HINT = "free some space, then resume it with `muse-studio resume SESSION`"


@dataclass
class RunLedger:
    """Records one run in its pipeline, its checkpoints and its events."""

    pipeline: ComposerPipeline
    events: OrderedEvents
    session_dir: Path
    clock: Callable[[], datetime]
    started: float = field(default_factory=time.perf_counter)
    #: The song last checkpointed and its JSON. Stages return a new song and never
    #: change the one they were given, so the same object has the same bytes: S7 and
    #: the finish, which keep S6's song, reuse them instead of serialising it again.
    _song_json: tuple[SongState, bytes] | None = field(default=None, init=False, repr=False)

    def complete(self, stage: int, record: StageRecord, result: StageResult) -> None:
        """Take a stage's result into the song and its record, and say so."""
        p = self.pipeline
        p.song_state = result.song
        if isinstance(result.output, IntentOutput):
            p.intent = result.output.intent
        record.output = result.output
        record.summary = result.summary
        record.status = "completed"
        record.error = None
        record.completed_at = self.clock().isoformat()
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

    def fail(self, record: StageRecord, error: StageError) -> None:
        """Mark a stage failed; a critical one fails the run, another degrades it."""
        record.status = "failed"
        record.error = error
        self.events.emit(StageFailed(stage=record.stage, name=record.name, error=error))
        self.pipeline.status = "failed" if record.stage in CRITICAL_STAGES else "running"
        self.checkpoint()

    def checkpoint(self, *, durable: bool = True) -> None:
        """Write the pipeline to the session's state folder, if the config asks for it."""
        p = self.pipeline
        if not p.config.enable_checkpoints:
            return
        p.updated_at = self.clock().isoformat()
        if self._song_json is None or self._song_json[0] is not p.song_state:
            self._song_json = (p.song_state, song_to_json(p.song_state))
        path = write_checkpoint(self.session_dir, p, durable=durable, song_json=self._song_json[1])
        p.recovery.checkpoint_path = str(path)

    def finish(self, error: StageError | None) -> None:
        """Checkpoint the ended run, record it in the manifest, and emit the one finish event."""
        p = self.pipeline
        p.current_stage = 9 if p.status in ("completed", "completed_partial") else p.current_stage
        p.total_duration_ms = (time.perf_counter() - self.started) * 1000
        p.completed_at = self.clock().isoformat()
        try:
            self.checkpoint()
            record_run_in_manifest(self.session_dir, p)
        except OSError as exc:  # a full disk must not hide how the run ended
            if p.status in ("completed", "completed_partial"):
                p.status = "failed"  # the session on disk lacks the run's last checkpoint
            error = error or StageError(
                code="FILE_WRITE_FAILED", message=str(exc), recovery_hint=FREE_SPACE_HINT
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
