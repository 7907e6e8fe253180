"""What a run writes down: each stage's outcome, the checkpoints, and how the run ended."""

from __future__ import annotations

import threading
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
from muse_tui.store.atomic import remove_temp_files, sync_files
from muse_tui.store.checkpoint import (
    STATE_DIR,
    SongJson,
    framed,
    pipeline_frame,
    pipeline_path,
    write_checkpoint,
    write_state_files,
)
from muse_tui.store.session_writer import record_run_in_manifest

from .checkpoint_writer import CheckpointWriter
from .event_order import OrderedEvents
from .outcomes import finish_message, write_failed_hint
from .stages import StageResult

#: Stages whose checkpoint is fsynced: after the parts (S4) and the MIDI (S6), the costly
#: work. The others are cheap to redo, so theirs are only renamed into place: whole after
#: a killed process, and at worst lost to a power cut (the run resumes a stage earlier).
DURABLE_STAGES = frozenset({4, 6})


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
    #: The regions' JSON, kept from one checkpoint to the next (S5 keeps S4's notes).
    _serialise: SongJson = field(default_factory=SongJson, init=False, repr=False)
    _writer: CheckpointWriter = field(default_factory=CheckpointWriter, init=False, repr=False)
    #: Files stages wrote without syncing (`StageResult.unsynced`), for the next durable write.
    _unsynced: list[Path] = field(default_factory=list, init=False, repr=False)
    _unsynced_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    #: Whether this run's writer has swept the state folder of a killed writer's temp files.
    _swept: bool = field(default=False, init=False, repr=False)

    def complete(self, stage: int, record: StageRecord, result: StageResult) -> None:
        """Take a stage's result into the song and its record, and say so."""
        p = self.pipeline
        p.song_state = result.song
        if result.unsynced:
            with self._unsynced_lock:
                self._unsynced += result.unsynced
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
        """Hand the pipeline to the checkpoint writer, if the config asks for checkpoints.

        Both files' bytes are made now, on the caller's thread: the pipeline goes on
        changing, and serialising holds the GIL wherever it runs, so on the writer's
        thread it only made the next stage wait for the GIL (4 ms before S7 began).
        The writer does the disk's part, which lets the GIL go. Raises a checkpoint
        write that failed since.
        """
        p = self.pipeline
        if not p.config.enable_checkpoints:
            return
        p.updated_at = self.clock().isoformat()
        frame = pipeline_frame(p)
        if frame is None:  # cannot happen (see `pipeline_frame`): write it whole, after the rest
            self.flush()
            write_checkpoint(self.session_dir, p, durable=durable)
        else:
            song_json = self._song_bytes(p.song_state)
            sweep, self._swept = not self._swept, True

            def write(sync: bool) -> None:
                if sweep:  # S8 leaves the state folder to this writer, which may be in it
                    remove_temp_files(self.session_dir / STATE_DIR)
                if sync:  # the stages' files first: the checkpoint may only land after them
                    sync_files(self._take_unsynced())
                pipeline_json = framed(frame, song_json)
                write_state_files(
                    self.session_dir, pipeline_json, song_json, durable=sync, ours=not sweep
                )

            self._writer.submit(write, durable=durable)
        p.recovery.checkpoint_path = str(pipeline_path(self.session_dir))

    def flush(self) -> None:
        """Wait until the checkpoints handed over are on disk; raise a write that failed."""
        self._writer.flush()

    def _take_unsynced(self) -> list[Path]:
        """The stages' unsynced files, for the write about to sync them (taken once)."""
        with self._unsynced_lock:
            files, self._unsynced = self._unsynced, []
        return files

    def _song_bytes(self, song: SongState) -> bytes:
        if self._song_json is None or self._song_json[0] is not song:
            self._song_json = (song, self._serialise(song))
        return self._song_json[1]

    def finish(self, error: StageError | None) -> None:
        """Checkpoint the ended run, record it in the manifest, and emit the one finish event."""
        p = self.pipeline
        p.current_stage = 9 if p.status in ("completed", "completed_partial") else p.current_stage
        p.total_duration_ms = (time.perf_counter() - self.started) * 1000
        p.completed_at = self.clock().isoformat()
        try:
            self.checkpoint()
            self.flush()
            sync_files(self._take_unsynced())  # any left: checkpoints off, or none durable ran
            record_run_in_manifest(self.session_dir, p)
        except OSError as exc:  # a full disk must not hide how the run ended
            if p.status in ("completed", "completed_partial"):
                p.status = "failed"  # the session on disk lacks the run's last checkpoint
            error = error or StageError(
                code="FILE_WRITE_FAILED", message=str(exc), recovery_hint=write_failed_hint(exc)
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
