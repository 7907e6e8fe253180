"""Crash-safe writes: a file is either its old self or its new self, never half of each."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Protocol

TMP_SUFFIX = ".tmp"


class WriteFailed(OSError):
    """A file could not be written; the message says which and why, in one sentence."""

    def __str__(self) -> str:  # the sentence, without OSError's "[Errno 28]" in front of it
        return self.strerror or super().__str__()


_NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
_NOT_ALLOWED = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})


def write_advice(exc: OSError) -> str:
    """What to do about a write that failed, from why it failed (a clause: lowercase, no stop).

    Space only helps a full disk: a read-only folder needs its permissions, and a
    write refused because a link leads out of the session folder (no errno) the link gone.
    """
    if exc.errno in _NO_ROOM:
        return "free some space"
    if exc.errno in _NOT_ALLOWED:
        return "make the folder writable, or choose another"
    if exc.errno is None and "outside the session folder" in str(exc):
        return "remove the link that leads out of the session folder"
    return "check the folder and the disk"


def advice_sentence(exc: OSError, then: str = "try again") -> str:
    """`write_advice` as the sentence after an error: "Free some space, then try again."."""
    advice = write_advice(exc)
    return f"{advice[0].upper()}{advice[1:]}, then {then}."


class Staging(Protocol):
    """An open session change that collects writes instead of making them (`store.transaction`)."""

    def covers(self, path: Path) -> bool: ...

    def put_path(self, path: Path, data: bytes) -> int: ...

    def remove_path(self, path: Path) -> None: ...

    def staged(self, path: Path) -> bytes | None: ...


#: The session change this context writes into, if any (set by `store.transaction`).
STAGING: ContextVar[Staging | None] = ContextVar("muse_staging", default=None)


def write_atomic(path: Path, data: bytes | str, *, durable: bool = True) -> int:
    """Write `data` to `path` via a temp file in the same folder, fsync, rename, fsync the folder.

    Returns the number of bytes written. Leaves no temp file behind on failure.
    """
    return write_atomic_files([(path, data)], durable=durable)[0]


def write_atomic_files(
    files: Sequence[tuple[Path, bytes | str]], *, durable: bool = True
) -> list[int]:
    """`write_atomic` for files written together, fsyncing each folder once after every rename.

    Each file is still either its old self or its new self; once this returns,
    all are durable. One folder fsync makes every rename in it durable, so
    there is no need for one per file. Inside an open session change the files
    are staged there instead and land with the change. `durable=False` skips
    the fsyncs: still whole files after a killed process, but a power cut may
    lose them (for checkpoints that are cheap to redo). Returns the bytes written, per file.
    """
    payloads = [
        (path, data.encode("utf-8") if isinstance(data, str) else data) for path, data in files
    ]
    staging = STAGING.get()
    if staging is not None and all(staging.covers(path) for path, _ in payloads):
        return [staging.put_path(path, payload) for path, payload in payloads]
    temps: list[str] = []
    writing: Path | None = None
    try:
        for writing, _ in payloads:  # a file where a folder should be is a refused write too
            writing.parent.mkdir(parents=True, exist_ok=True)
        for writing, payload in payloads:
            fd, tmp_name = tempfile.mkstemp(
                prefix=f".{writing.name}.", suffix=TMP_SUFFIX, dir=writing.parent
            )
            temps.append(tmp_name)
            with os.fdopen(fd, "wb") as tmp:
                tmp.write(payload)
                tmp.flush()
                if durable:
                    os.fsync(tmp.fileno())
        for (writing, _), tmp_name in zip(payloads, temps, strict=True):
            os.replace(tmp_name, writing)
    except OSError as exc:
        for tmp_name in temps:
            with contextlib.suppress(OSError):  # already renamed into place
                os.unlink(tmp_name)
        raise WriteFailed(exc.errno, f"could not write {writing}: {exc.strerror or exc}") from exc
    if durable:
        for folder in dict.fromkeys(path.parent for path, _ in payloads):
            try:
                fsync_folder(folder)
            except OSError as exc:
                raise WriteFailed(
                    exc.errno, f"could not save {folder}: {exc.strerror or exc}"
                ) from exc
    return [len(payload) for _, payload in payloads]


def sync_files(paths: Sequence[Path]) -> None:
    """fsync files written with `durable=False`, then their folders: their renames too.

    Files an open session change holds are its own to sync when it commits.
    """
    staging = STAGING.get()
    written = [p for p in dict.fromkeys(paths) if staging is None or not staging.covers(p)]
    try:
        for path in written:
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        for folder in dict.fromkeys(path.parent for path in written):
            fsync_folder(folder)
    except OSError as exc:
        raise WriteFailed(
            exc.errno, f"could not save {exc.filename or 'a file'}: {exc.strerror or exc}"
        ) from exc


def read_current(path: Path) -> bytes:
    """The file's bytes as the open session change would leave them (else as on disk)."""
    staging = STAGING.get()
    staged = staging.staged(path) if staging is not None and staging.covers(path) else None
    return staged if staged is not None else path.read_bytes()


def current_size(path: Path) -> int:
    """The file's size as the open session change would leave it (else as on disk)."""
    staging = STAGING.get()
    staged = staging.staged(path) if staging is not None and staging.covers(path) else None
    return len(staged) if staged is not None else path.stat().st_size


def remove_file(path: Path) -> None:
    """Delete a file now, or with the open session change when there is one."""
    staging = STAGING.get()
    if staging is not None and staging.covers(path):
        staging.remove_path(path)
    else:
        path.unlink(missing_ok=True)


def fsync_folder(folder: Path) -> None:
    """Make a rename durable (POSIX); a no-op where folders cannot be opened (Windows)."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def lands_inside(root: Path, path: Path, *, folder_checked: bool = False) -> bool:
    """Whether writing `path` lands inside `root` (a resolved folder) once symlinks are followed.

    The folder the file is written in must really be inside, and so must the file
    when it is itself a link. That is `path.resolve()` and `path.parent.resolve()`
    both inside, found with one walk of the path instead of two: writers check
    every file they write. `folder_checked`: the folder was found inside already
    (files written together), so only the file is looked at.
    """
    top = str(root)
    inside = top if top.endswith(os.sep) else top + os.sep
    if not folder_checked:
        real_folder = os.path.realpath(path.parent)
        if real_folder != top and not real_folder.startswith(inside):
            return False
    if not os.path.islink(path):
        return True
    return os.path.realpath(path).startswith(inside)


def walk_files(folder: Path, *, skip: frozenset[str] = frozenset()) -> Iterator[Path]:
    """Every file's path under `folder`, without the folders named in `skip` at its top.

    Another writer may be changing the folder: a folder that vanishes while it is
    listed is passed over (os.walk does), and a listed file may be gone when read.
    """
    for where, dirs, names in os.walk(folder):
        if where == str(folder):
            dirs[:] = [d for d in dirs if d not in skip]
        for name in names:
            yield Path(where, name)


def leftover_temp_files(folder: Path, *, skip: frozenset[str] = frozenset()) -> list[Path]:
    """Temp files a killed writer left behind under `folder` (`skip`: as `walk_files`)."""
    return sorted(
        p for p in walk_files(folder, skip=skip) if p.name.endswith(TMP_SUFFIX) and p.is_file()
    )


def remove_temp_files(folder: Path, *, skip: frozenset[str] = frozenset()) -> None:
    """Delete the temp files a killed writer left under `folder` (`skip`: as `walk_files`)."""
    for leftover in leftover_temp_files(folder, skip=skip):
        leftover.unlink(missing_ok=True)
