"""A child process that does not end when told: say where each of its threads was stuck.

The child runs with `-X faulthandler` (and so do the processes it spawns); if it
has not ended by the deadline, SIGABRT makes every Python process of its group
print each thread's stack to stderr, and the test fails with that instead of a
bare timeout.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys

#: Put before the child's arguments: the interpreter with stack dumps on SIGABRT.
PYTHON = [sys.executable, "-X", "faulthandler"]


def as_from_a_terminal() -> None:
    """`preexec_fn` for a child that must hear Ctrl-C as a terminal's foreground job does.

    A job a non-interactive shell starts in the background (`cmd &`, as CI scripts
    and nohup do) inherits SIGINT ignored, and Python keeps an inherited SIG_IGN
    rather than raising KeyboardInterrupt: the child would never hear the Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def communicate_or_explain(
    child: subprocess.Popen[str], timeout: float, *, group: bool
) -> tuple[str, str]:
    """`child.communicate(timeout)`; on a hang, fail with the stacks of its processes."""
    try:
        return child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        if group:
            os.killpg(child.pid, signal.SIGABRT)
        else:
            for pid in [*_children(child.pid), child.pid]:  # the player process dumps too
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGABRT)
        out, err = child.communicate(timeout=30)
        raise AssertionError(
            f"the process did not end within {timeout:g} s; its output:\n{out}\n"
            f"where its threads were:\n{err}"
        ) from None


def _children(pid: int) -> list[int]:
    """The processes `pid` started (Linux's /proc; none where it cannot be read)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as listed:
                found += [int(p) for p in listed.read().split()]
    return found
