"""One writer per session: an advisory lock file the CLI and the studio both take to write.

`fcntl.flock` on `SESSION/.muse-lock`: the operating system releases it when
the holder exits, even on kill -9, so a crashed writer never leaves a session
stuck. The lock is re-entrant within a process (a command that holds it for
its whole run still commits its own change). Where `fcntl` is missing
(Windows) the lock is a no-op.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path

from muse_tui.store.atomic import WriteFailed

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

LOCK_FILE = ".muse-lock"

_held: dict[Path, list[int]] = {}  # session folder → [fd, depth]
_guard = threading.Lock()


class SessionBusy(WriteFailed):
    """Another muse-studio is changing this session; the message says who and what to do."""


def busy_sentence(session_dir: Path, pid: str) -> str:
    return (
        f"session {session_dir.name} is being changed by another muse-studio (pid {pid}); "
        "try again when it finishes"
    )


@contextlib.contextmanager
def session_lock(session_dir: Path) -> Iterator[None]:
    """Hold the session's write lock, or raise SessionBusy at once if another process holds it."""
    key = session_dir.resolve()
    with _guard:
        if key in _held:
            _held[key][1] += 1
        else:
            _held[key] = [_acquire(session_dir), 1]
    try:
        yield
    finally:
        with _guard:
            entry = _held[key]
            entry[1] -= 1
            if entry[1] == 0:
                del _held[key]
                os.close(entry[0])  # closing the descriptor releases the flock


def holds_lock(session_dir: Path) -> bool:
    """Whether this process holds the session's write lock."""
    with _guard:
        return session_dir.resolve() in _held


def _acquire(session_dir: Path) -> int:
    path = session_dir / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as exc:
        raise WriteFailed(
            exc.errno, f"cannot lock session {session_dir.name} ({exc.strerror or exc})"
        ) from None
    if fcntl is None:  # pragma: no cover - Windows
        return fd
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        try:
            pid = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
        finally:
            os.close(fd)
        raise SessionBusy(busy_sentence(session_dir, pid)) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
    return fd
