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
    return _run_and_kill(work, after_s, slow_sync_s)[0]


def _run_and_kill(
    work: Callable[[], object], after_s: float | None, slow_sync_s: float
) -> tuple[bool, float]:
    """`run_and_kill`, and how long the child lived (its whole run when it was not killed)."""
    begun = time.perf_counter()
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
    done, status = 0, 0
    if after_s is not None:
        deadline = begun + after_s
        while time.perf_counter() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.001)
        else:
            os.kill(pid, signal.SIGKILL)
    if not done:  # a finished child stays a zombie until waited for
        _, status = os.waitpid(pid, 0)
    took = time.perf_counter() - begun
    if os.WIFEXITED(status):
        assert os.WEXITSTATUS(status) == 0, "the work failed on its own in the child"
        return False, took
    return os.WTERMSIG(status) == signal.SIGKILL, took


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


class KillMoments:
    """`count` kill moments spread over the work's span as the machine runs it now.

    Drawn as fractions of the span, the same each run. The span is timed before the
    kills; when the machine speeds up after it (another job ends), a moment late in a
    slow span lands after a quicker run has finished and kills nothing. So every run
    that finishes before its kill shortens the span the later moments are drawn in.
    """

    def __init__(self, count: int, span_s: float, seed: int) -> None:
        rng = random.Random(seed)
        self._fractions = sorted(rng.uniform(0.0, 1.0) for _ in range(count))
        self.span_s = span_s
        self.killed = 0

    def __iter__(self) -> Iterator[float]:
        for fraction in self._fractions:
            yield fraction * self.span_s

    def run(self, work: Callable[[], object], moment: float, *, slow_sync_s: float) -> bool:
        """`run_and_kill` at `moment`, learning the span from a run that finished first."""
        killed, took = _run_and_kill(work, moment, slow_sync_s)
        if killed:
            self.killed += 1
        else:
            self.span_s = min(self.span_s, took)
        return killed
