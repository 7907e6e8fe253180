"""What a stage is to the engine: a function from the song so far to a `StageResult`.

A plain stage is `(SongState, StageContext) -> StageResult`, sync (run in a
worker thread) or async. Stage 4 is a `PartsStage`: one `PartTask` per track,
run concurrently section by section, where a part may wait for another part's
section (the bass waits for the drums of the same section to lock to the kick).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import (
    ComposerPipeline,
    PipelineConfig,
    PipelineIntent,
    Region,
    Section,
    SongState,
    StageOutput,
    ToolCallRecord,
    Track,
)

from .protocols import Playback

ProgressCallback = Callable[[str, float], None]


@dataclass(frozen=True)
class StageResult:
    """A stage's output, the song as it now stands, and the one-line summary for the tracker.

    `unsynced`: files the stage wrote whole but did not fsync. The run's next
    durable checkpoint syncs them before it lands, so no checkpoint on disk
    ever records a stage whose files a power cut could lose; kill -9 loses
    nothing either way (the files are whole in the page cache).
    """

    output: StageOutput
    song: SongState
    summary: str
    unsynced: tuple[Path, ...] = ()


@dataclass
class StageContext:
    """Everything a stage may read besides the song. Stages must not mutate `pipeline`."""

    stage: int
    seed: int
    variant: int
    attempt: int
    config: PipelineConfig
    pipeline: ComposerPipeline
    session_dir: Path
    clock: Callable[[], datetime]
    answers: dict[str, str] = field(default_factory=dict)
    playback: Playback | None = None
    on_progress: ProgressCallback | None = None
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def prompt(self) -> str:
        return self.pipeline.raw_prompt

    @property
    def intent(self) -> PipelineIntent | None:
        return self.pipeline.intent

    def rng(self, component: str) -> random.Random:
        """The RNG for one component of this stage and variant; the same on every run."""
        return derive_rng(self.seed, self.stage, component, self.variant)

    def progress(self, message: str, fraction: float) -> None:
        """Report progress (thread-safe); shows in the tracker under the running stage."""
        if self.on_progress is not None:
            self.on_progress(message, min(1.0, max(0.0, fraction)))

    @contextmanager
    def tool(self, name: str) -> Iterator[None]:
        """Time one call a stage makes (a generator, a writer) for the manifest."""
        invoked = self.clock().isoformat()
        start = time.perf_counter()
        error: str | None = None
        try:
            yield
        except BaseException as exc:
            error = str(exc) or type(exc).__name__
            raise
        finally:
            record = ToolCallRecord(
                tool_name=name,
                invoked_at=invoked,
                duration_ms=(time.perf_counter() - start) * 1000,
                success=error is None,
                error=error,
            )
            with self._lock:
                self.tool_calls.append(record)


StageFunction = Callable[[SongState, StageContext], StageResult | Awaitable[StageResult]]


@dataclass(frozen=True)
class PartTask:
    """One track of Stage 4: its empty track, how to write one section, whom it waits for."""

    track: Track
    write_section: Callable[[SongState, StageContext, Section, dict[str, Region | None]], Region]
    waits_for: tuple[str, ...] = ()

    @property
    def role(self) -> str:
        return self.track.role


@dataclass(frozen=True)
class PartsPlan:
    """The tracks to write and the sections to write them in."""

    tasks: list[PartTask]
    sections: list[Section]


@dataclass(frozen=True)
class PartsStage:
    """Stage 4: `plan` the parts, the engine writes them concurrently, `finish` assembles."""

    plan: Callable[[SongState, StageContext], PartsPlan]
    finish: Callable[[SongState, StageContext, list[Track]], StageResult]


Stage = StageFunction | PartsStage
StageRegistry = dict[int, Stage]


class StageFailure(Exception):
    """A stage function's way to fail with a specific error code and recovery hint."""

    def __init__(
        self, code: str, message: str, *, hint: str | None = None, recoverable: bool = True
    ) -> None:
        super().__init__(message)
        self.code = code
        self.hint = hint
        self.recoverable = recoverable


class QualityRewind(Exception):
    """Raised by validation: the song is weak; regenerate `stage` with a new variant and go on."""

    def __init__(self, stage: int, message: str) -> None:
        super().__init__(message)
        self.stage = stage
