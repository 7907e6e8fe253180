"""A proposed change kept whole inside the session: `SESSION/proposal/`, written as one change.

A proposal is the files a change would write, kept aside until the producer
accepts or discards it:

- `proposal/proposal.json`: what was asked, the checkpoint it was made on, what it would do;
- `proposal/files/<path>`: each file the change would write, byte for byte;
- the files it would remove are listed in `proposal.json`.

Every write goes through the session's transaction (`store.transaction`), so a
killed writer leaves either no proposal or a whole one, and a proposal
survives a restart. `capture` runs the store's writers without writing: the
session change they would have made is handed back instead.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

from muse_tui.store.atomic import STAGING, remove_file, walk_files
from muse_tui.store.backups import BACKUP_SUFFIX, CORRUPT_SUFFIX, keep_as_backup
from muse_tui.store.checkpoint import pipeline_path, song_path
from muse_tui.store.transaction import SessionChange, recover, session_change

PROPOSAL_DIR = "proposal"
RECORD = f"{PROPOSAL_DIR}/proposal.json"
FILES = f"{PROPOSAL_DIR}/files"


@contextlib.contextmanager
def capture(session_dir: Path) -> Iterator[SessionChange]:
    """Collect the writes the block makes to the session, and write none of them.

    The returned change can still be committed (`SessionChange.commit`) to
    make it after all, exactly as the writers would have, the checkpoint's
    backups with it (`store.backups` stages them in the change).
    """
    recover(session_dir)
    change = SessionChange(session_dir)
    token = STAGING.set(change)
    try:
        yield change
    finally:
        STAGING.reset(token)


def keep_backups(session_dir: Path) -> None:
    """Back up the checkpoint as writing it would, in the open change: what accepting does."""
    for path in _state_files(session_dir):
        keep_as_backup(path)


def _state_files(session_dir: Path) -> list[Path]:
    return [pipeline_path(session_dir), song_path(session_dir)]


#: Files a change keeps beside the state (`store.backups`), not part of the song.
_KEPT_ASIDE = (BACKUP_SUFFIX, CORRUPT_SUFFIX)


def moved_files(change: SessionChange) -> tuple[dict[str, bytes], list[str]]:
    """The files a captured change would write with new bytes, and those it would remove.

    The proposal's own files are left out: they are bookkeeping, not the song.
    """
    root = change.session_dir
    written = {}
    for relative, data in change.files.items():
        if relative.startswith(f"{PROPOSAL_DIR}/") or relative.endswith(_KEPT_ASIDE):
            continue
        try:
            same = (root / relative).read_bytes() == data
        except OSError:
            same = False
        if not same:
            written[relative] = data
    removed = sorted(
        r for r in change.removed if not r.startswith(f"{PROPOSAL_DIR}/") and (root / r).is_file()
    )
    return written, removed


def checkpoint_digest(session_dir: Path) -> str:
    """The SHA-256 of the session's checkpoint as it is on disk ("" when there is none)."""
    try:
        return hashlib.sha256(pipeline_path(session_dir).read_bytes()).hexdigest()
    except OSError:
        return ""


def write_proposal(session_dir: Path, record: bytes, files: dict[str, bytes]) -> None:
    """Replace any pending proposal with this one, all of it or none of it."""
    with session_change(session_dir) as change:
        for old in _proposal_files(session_dir):
            change.remove_path(session_dir / old)
        for relative, data in files.items():
            change.put(f"{FILES}/{relative}", data)
        change.put(RECORD, record)  # staged last; the journal lands it with the rest


def read_record(session_dir: Path) -> bytes | None:
    """The pending proposal's record, or None when there is none."""
    recover(session_dir)  # a proposal a killed writer left half written is finished or gone
    try:
        return (session_dir / RECORD).read_bytes()
    except OSError:
        return None


def read_proposed_file(session_dir: Path, relative: str) -> bytes:
    return (session_dir / FILES / relative).read_bytes()


def drop_proposal(session_dir: Path) -> None:
    """Remove the pending proposal (joining the open session change, if any)."""
    with session_change(session_dir):
        for relative in _proposal_files(session_dir):
            remove_file(session_dir / relative)


def sweep_proposal_folder(session_dir: Path) -> None:
    """Remove the empty folders a removed proposal leaves (its files are already gone)."""
    folder = session_dir / PROPOSAL_DIR
    if folder.is_dir() and not any(walk_files(folder)):
        shutil.rmtree(folder, ignore_errors=True)


def _proposal_files(session_dir: Path) -> list[str]:
    folder = session_dir / PROPOSAL_DIR
    if not folder.is_dir() or folder.is_symlink():
        return []
    return sorted(
        Path(os.path.relpath(p, session_dir)).as_posix() for p in folder.rglob("*") if p.is_file()
    )
