"""Crash-safe writes: a file is either its old self or its new self, never half of each."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

TMP_SUFFIX = ".tmp"


class WriteFailed(OSError):
    """A file could not be written; the message says which and why, in one sentence."""


def write_atomic(path: Path, data: bytes | str) -> int:
    """Write `data` to `path` via a temp file in the same folder, fsync, rename, fsync the folder.

    Returns the number of bytes written. Leaves no temp file behind on failure.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as tmp:
            tmp.write(payload)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.replace(tmp_name, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise WriteFailed(exc.errno, f"could not write {path}: {exc.strerror or exc}") from exc
    fsync_folder(path.parent)
    return len(payload)


def fsync_folder(folder: Path) -> None:
    """Make a rename durable (POSIX); a no-op where folders cannot be opened (Windows)."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def leftover_temp_files(folder: Path) -> list[Path]:
    """Temp files a killed writer left behind under `folder`."""
    return sorted(p for p in folder.rglob(f"*{TMP_SUFFIX}") if p.is_file())
