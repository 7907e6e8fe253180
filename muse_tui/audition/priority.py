"""Ask the OS to run the player thread first, the way JACK clients do, where it allows it.

A sleeping thread woken for its next event can wait behind whatever else is
runnable; on a busy machine that is milliseconds (bench/audition.py). SCHED_FIFO
at a low real-time priority (below JACK's own threads) removes that wait. It is
granted to root and, on most audio-ready Linux setups, to the `audio` group
(RLIMIT_RTPRIO); elsewhere a higher nice value is tried, then nothing.
"""

from __future__ import annotations

import os
import threading
from typing import Literal

Priority = Literal["real-time", "raised", "normal"]
REAL_TIME_PRIORITY = 10  # JACK runs at 70–95; the player must never preempt the server


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
