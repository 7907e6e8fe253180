"""Crash-safe writes: a file is either its old self or its new self, never half of each."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

TMP_SUFFIX = ".tmp"


class WriteFailed(OSError):
    """A file could not be written; the message says which and why, in one sentence."""


def write_atomic(path: Path, data: bytes | str) -> int:
    """Write `data` to `path` via a temp file in the same folder, fsync, rename, fsync the folder.

    Returns the number of bytes written. Leaves no temp file behind on failure.
    """
    return write_atomic_files([(path, data)])[0]


def write_atomic_files(files: Sequence[tuple[Path, bytes | str]]) -> list[int]:
    """`write_atomic` for files written together, fsyncing each folder once after every rename.

    Each file is still either its old self or its new self; once this returns,
    all are durable. One folder fsync makes every rename in it durable, so
    there is no need for one per file. Returns the bytes written, per file.
    """
    payloads = [
        (path, data.encode("utf-8") if isinstance(data, str) else data) for path, data in files
    ]
    for path, _ in payloads:
        path.parent.mkdir(parents=True, exist_ok=True)
    temps: list[str] = []
    writing: Path | None = None
    try:
        for writing, payload in payloads:
            fd, tmp_name = tempfile.mkstemp(
                prefix=f".{writing.name}.", suffix=TMP_SUFFIX, dir=writing.parent
            )
            temps.append(tmp_name)
            with os.fdopen(fd, "wb") as tmp:
                tmp.write(payload)
                tmp.flush()
                os.fsync(tmp.fileno())
        for (writing, _), tmp_name in zip(payloads, temps, strict=True):
            os.replace(tmp_name, writing)
    except OSError as exc:
        for tmp_name in temps:
            with contextlib.suppress(OSError):  # already renamed into place
                os.unlink(tmp_name)
        raise WriteFailed(exc.errno, f"could not write {writing}: {exc.strerror or exc}") from exc
    for folder in dict.fromkeys(path.parent for path, _ in payloads):
        fsync_folder(folder)
    return [len(payload) for _, payload in payloads]


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
