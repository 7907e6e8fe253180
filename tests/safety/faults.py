"""Fault injection for the safety tests: a failing disk, and a process killed at a moment."""

from __future__ import annotations

import errno
import os
import random
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest


class DiskFull:
    """`os.fsync` that answers ENOSPC from its `fail_at`-th call on (None: never); counts calls."""

    def __init__(self, fail_at: int | None = None) -> None:
        self.fail_at = fail_at
        self.calls = 0
        self._real = os.fsync

    def __call__(self, fd: int) -> None:
        self.calls += 1
        if self.fail_at is not None and self.calls >= self.fail_at:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self._real(fd)


@contextmanager
def disk_full(monkeypatch: pytest.MonkeyPatch, fail_at: int | None) -> Iterator[DiskFull]:
    fault = DiskFull(fail_at)
    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", fault)
        yield fault


def run_and_kill(
    work: Callable[[], object], after_s: float | None, *, slow_sync_s: float = 0.0
) -> bool:
    """Run `work` in a forked child and SIGKILL it after `after_s`; True if it was killed.

    `after_s=None` lets the child finish.
    `slow_sync_s` makes each fsync in the child that much slower, so that a
    kill lands between writes as it would on a slow disk.
    """
    pid = os.fork()
    if pid == 0:  # the child: do the work, never return into pytest
        code = 0
        try:
            if slow_sync_s:
                real = os.fsync

                def slow(fd: int) -> None:
                    time.sleep(slow_sync_s)
                    real(fd)

                os.fsync = slow
            work()
        except BaseException:  # the child reports by exit code only
            code = 1
        os._exit(code)
    if after_s is not None:
        time.sleep(after_s)
        os.kill(pid, signal.SIGKILL)  # a finished child stays a zombie until waited for
    _, status = os.waitpid(pid, 0)
    if os.WIFEXITED(status):
        assert os.WEXITSTATUS(status) == 0, "the work failed on its own in the child"
        return False
    return os.WTERMSIG(status) == signal.SIGKILL


def timed(work: Callable[[int], object], *, slow_sync_s: float = 0.0, runs: int = 3) -> float:
    """How long `work` takes in a forked child at its quickest, as `run_and_kill` would run it.

    The quickest of a few runs: on a busy machine one run can take twice as long
    as the next, and kill moments drawn from a slow run's span would mostly land
    after a quicker run had finished, killing nothing. `work(n)` is run n's work
    (each run forks, so a run must be told its number to use a folder of its own).
    """
    spans = []
    for n in range(runs):
        begun = time.perf_counter()
        run_and_kill(lambda n=n: work(n), None, slow_sync_s=slow_sync_s)
        spans.append(time.perf_counter() - begun)
    return min(spans)


def moments(count: int, span_s: float, seed: int) -> list[float]:
    """`count` random kill moments within `span_s`, the same each run."""
    rng = random.Random(seed)
    return sorted(rng.uniform(0.0, span_s) for _ in range(count))
