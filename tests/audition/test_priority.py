"""Threads a JACK open starts are raised like the player's, never above JACK's own."""

from __future__ import annotations

import os
import threading

import pytest

from muse_tui.audition.priority import REAL_TIME_PRIORITY, started_first

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_getscheduler"), reason="Linux only")


def _can_raise() -> bool:
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(REAL_TIME_PRIORITY))
    except OSError:
        return False
    os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    return True


def _start_sleeper(done: threading.Event, ids: list[int], policy: int | None = None) -> None:
    def sleep() -> None:
        if policy is not None:
            os.sched_setscheduler(0, policy, os.sched_param(50))
        ids.append(threading.get_native_id())
        done.wait(10)

    threading.Thread(target=sleep, daemon=True).start()
    while not ids:
        pass


@pytest.mark.skipif(not _can_raise(), reason="real-time scheduling is not allowed here")
def test_threads_the_open_starts_run_first_and_a_raised_one_keeps_its_place() -> None:
    done = threading.Event()
    ordinary: list[int] = []
    already: list[int] = []
    try:
        result = started_first(
            lambda: (_start_sleeper(done, ordinary), _start_sleeper(done, already, os.SCHED_FIFO))
        )
        assert result == (None, None)
        assert os.sched_getscheduler(ordinary[0]) == os.SCHED_FIFO
        assert os.sched_getparam(ordinary[0]).sched_priority == REAL_TIME_PRIORITY
        assert os.sched_getparam(already[0]).sched_priority == 50, "JACK's priority stays"
        assert os.sched_getscheduler(threading.get_native_id()) == os.SCHED_OTHER
    finally:
        done.set()


def test_what_the_open_raises_reaches_the_caller() -> None:
    def fail() -> None:
        raise ValueError("no port")

    with pytest.raises(ValueError, match="no port"):
        started_first(fail)
