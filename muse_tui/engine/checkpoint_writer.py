"""A run's checkpoints, written on a thread of their own while the next stage works.

A checkpoint is mostly waiting on the disk (two files, renames, a sync); the
stage after it does not need it on disk to start. So the ledger hands each
checkpoint here and goes on; the files land a few milliseconds later. Kill the
process at any moment and the disk holds an earlier whole checkpoint, from
which a resumed run makes the same bytes (every stage is deterministic).

Only the newest checkpoint matters: one still waiting when a newer one arrives
is dropped, the newer one taking over its fsync if it was durable. A write the
disk refused is raised to the ledger at its next checkpoint or flush, once.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Job:
    """One checkpoint to write: `write(durable)` does it."""

    write: Callable[[bool], None]
    durable: bool


class CheckpointWriter:
    """Writes the newest checkpoint handed to it, on one thread, in the caller's context."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self._pending: Job | None = None
        self._running = False
        self._failure: BaseException | None = None

    def submit(self, write: Callable[[bool], None], *, durable: bool) -> None:
        """Write with `write(durable)` soon; raises a failure of an earlier write first.

        The write runs in a copy of the caller's context, so an open session
        change (`store.atomic.STAGING`) stages it as it would have in the caller.
        """
        self.raise_failure()
        context = contextvars.copy_context()
        with self._lock:
            waiting = self._pending
            durable = durable or (waiting is not None and waiting.durable)
            self._pending = Job(lambda d: context.run(write, d), durable)
            self._idle.clear()
            if not self._running:
                self._running = True
                threading.Thread(target=self._drain, name="checkpoint", daemon=False).start()

    def flush(self) -> None:
        """Wait until every checkpoint handed over is on disk; raise a failed write."""
        self._idle.wait()
        self.raise_failure()

    def raise_failure(self) -> None:
        """Raise (once) the exception of a write that failed since the last call."""
        with self._lock:
            failure, self._failure = self._failure, None
        if failure is not None:
            raise failure

    def _drain(self) -> None:
        while True:
            with self._lock:
                job, self._pending = self._pending, None
                if job is None:
                    self._running = False
                    self._idle.set()
                    return
            try:
                job.write(job.durable)
            except BaseException as exc:  # handed to the run at its next checkpoint or flush
                with self._lock:
                    self._failure = self._failure or exc
