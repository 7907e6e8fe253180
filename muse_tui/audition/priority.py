"""Ask the OS to run the player thread first, the way JACK clients do, where it allows it.

A sleeping thread woken for its next event can wait behind whatever else is
runnable; on a busy machine that is milliseconds (bench/audition.py). SCHED_FIFO
at a low real-time priority (below JACK's own threads) removes that wait. It is
granted to root and, on most audio-ready Linux setups, to the `audio` group
(RLIMIT_RTPRIO); elsewhere a higher nice value is tried, then nothing.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Literal, TypeVar

T = TypeVar("T")
Priority = Literal["real-time", "raised", "normal"]
# Below every JACK thread (jackd's default is 10 and its clients 9; studio setups run
# 70-95): a spinning player must never hold up the server, only ordinary work.
REAL_TIME_PRIORITY = 5


def keep_time_first() -> Priority:
    """Raise the calling thread's scheduling priority as far as allowed; says what it got."""
    if hasattr(os, "sched_setscheduler"):
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(REAL_TIME_PRIORITY))
            return "real-time"
        except OSError:
            pass
    if hasattr(os, "setpriority") and hasattr(threading, "get_native_id"):
        try:  # Linux nice values are per thread
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), -10)
            return "raised"
        except OSError:
            pass
    return "normal"


def started_first(work: Callable[[], T]) -> T:
    """Run `work` (which opens a JACK client), then raise the threads it started like ours.

    libjack starts its process thread with explicit, ordinary scheduling unless
    the server runs real-time. On a loaded machine that thread then misses its
    cycle ("client was not finished" in the server's log) and JACK drops the
    cycle's events: lost note-ons, and a stuck note when a note-off is lost.
    A JACK client under a real-time server gets this priority anyway.
    """
    tasks = Path(f"/proc/{os.getpid()}/task")
    before = set(os.listdir(tasks)) if tasks.is_dir() else set()
    result = work()
    if before:
        for tid in set(os.listdir(tasks)) - before:
            _raise_thread(int(tid))
    return result


def _raise_thread(tid: int) -> None:
    """Raise an ordinary thread; one a real-time server's libjack already raised keeps its place."""
    try:
        if os.sched_getscheduler(tid) != os.SCHED_OTHER:
            return
    except OSError:
        return  # it ended already
    try:
        os.sched_setscheduler(tid, os.SCHED_FIFO, os.sched_param(REAL_TIME_PRIORITY))
    except OSError:
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, tid, -10)
