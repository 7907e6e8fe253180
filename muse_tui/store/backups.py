"""The checkpoint's backups: `*.bak` is always the previous good state file.

Writing a state file first makes the current one its backup. Inside a session
change the backup is one more file of the change, so it lands with the new
state or not at all (a kill or a full disk in the commit leaves the old state
and the old backup). A current file that is not whole JSON (a torn write, bytes
from elsewhere) never replaces a good backup: it is kept aside as `*.corrupt`.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from muse_tui.store.atomic import STAGING, TMP_SUFFIX, write_atomic

BACKUP_SUFFIX = ".bak"
CORRUPT_SUFFIX = ".corrupt"


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def readable_state(data: bytes) -> bool:
    """Whether a state file's bytes are whole: UTF-8 JSON holding an object."""
    try:
        return isinstance(json.loads(data.decode("utf-8")), dict)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False


def good_backup(path: Path) -> Path | None:
    """The backup of `path` if there is one a producer could restore from, else None."""
    backup = backup_path(path)
    try:
        return backup if readable_state(backup.read_bytes()) else None
    except OSError:
        return None


def keep_as_backup(path: Path, *, ours: bool = False) -> None:
    """Make the current file the backup, before a write replaces it (nothing if it is missing).

    In an open session change the backup is staged with the change; otherwise it
    is a hard link renamed into place (no bytes copied), or a copy. `ours`: the
    caller wrote the current file itself (a run's previous checkpoint), so it is
    not read again to be checked (a long song's state is tens of ms to parse).
    """
    staging = STAGING.get()
    staged = staging is not None and staging.covers(path)
    if ours and not staged:
        if path.exists():
            _link_as_backup(path)
        return
    try:
        data = path.read_bytes()
    except OSError:
        return  # nothing there (or nothing readable) to keep
    if not readable_state(data):
        write_atomic(path.with_name(path.name + CORRUPT_SUFFIX), data)  # staged when in a change
        return
    if staged:
        write_atomic(backup_path(path), data)
    else:
        _link_as_backup(path)


def _link_as_backup(path: Path) -> None:
    backup = backup_path(path)
    link = path.with_name(f".{path.name}.link{TMP_SUFFIX}")
    try:
        _remove(link)
        os.link(path, link)  # no bytes copied; the next write replaces `path` with a new file
        os.replace(link, backup)
    except OSError:
        write_atomic(backup, path.read_bytes())  # a read-only folder: WriteFailed, one sentence
    finally:
        # When the backup already is this file (an earlier backup whose write changed
        # nothing), the rename finds one file under both names and leaves the link.
        _remove(link)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):  # a read-only folder: the write after says so
        path.unlink(missing_ok=True)
