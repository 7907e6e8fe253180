"""Session changes as transactions: every file of a change lands on disk, or none does.

Inside `session_change(session_dir)` the store's writers stage their files
instead of writing them. On leaving the block the change is committed:

1. under the session's write lock, refuse if another process changed the
   checkpoint since this one read it (no lost edits);
2. write each new file into `SESSION/.muse-change/` and fsync it;
3. write `journal.json` there (each file's target and SHA-256) and fsync it,
   then fsync that folder: the commit point;
4. rename each file onto its target, delete the files the change removes,
   fsync the folders, delete `.muse-change/`.

Opening a session (`recover`) finishes a change a killed writer left behind:
rolled forward when every file the journal lists is whole, discarded otherwise
(before the commit point nothing was renamed, so the old session stands).
A full disk fails in step 2 or 3 and leaves the session as it was.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from muse_tui.store.atomic import (
    STAGING,
    WriteFailed,
    fsync_folder,
    lands_inside,
    write_atomic_files,
)
from muse_tui.store.lock import SessionBusy, session_lock

CHANGE_DIR = ".muse-change"
JOURNAL = "journal.json"
_PIPELINE = "state/pipeline-state.json"


class _Seen:
    """The checkpoint this process last read or wrote in one session, hashed when first asked.

    A compose checkpoints after every stage and only the last one is ever
    compared, so the bytes are kept (they are already in memory) and hashed
    once, if at all; hashing each took a millisecond of every compose. Only the
    session noted last keeps its bytes: the others are hashed when it is noted,
    so a long studio session holds one checkpoint, not one per song.
    """

    __slots__ = ("_data", "_digest")

    def __init__(self, data: bytes) -> None:
        self._data: bytes | None = data
        self._digest = ""

    def digest(self) -> str:
        data = self._data  # two threads may ask at once: the digest is set before the bytes go
        if data is not None:
            self._digest = hashlib.sha256(data).hexdigest()
            self._data = None
        return self._digest


#: Per session folder, the checkpoint this process last read or wrote (the newest last).
_seen: dict[Path, _Seen] = {}
#: Sessions remembered; the one touched longest ago is forgotten past this (it is then
#: only not checked for a rival writer, as a session this process never opened).
MOST_SESSIONS_SEEN = 256
_seen_lock = threading.Lock()


class SessionChanged(WriteFailed):
    """Another process changed the session after this one read it; nothing was written."""


def note_checkpoint(session_dir: Path, data: bytes) -> None:
    """Remember the checkpoint bytes this process read or wrote, to detect a rival writer."""
    key = session_dir.resolve()
    with _seen_lock:  # checkpoint writers note from their own threads
        if _seen:
            last = next(reversed(_seen))
            if last != key:
                _seen[last].digest()  # its bytes go: only the newest session keeps them
        _seen.pop(key, None)
        _seen[key] = _Seen(data)
        while len(_seen) > MOST_SESSIONS_SEEN:
            del _seen[next(iter(_seen))]


def refuse_if_changed(session_dir: Path) -> None:
    """SessionChanged if another process wrote the checkpoint since this one last read or wrote it.

    Called under the session lock: at every commit, and by the studio before it
    starts a change, so a change is made on the song on disk or not at all.
    """
    seen = _seen.get(session_dir.resolve())
    if seen is None:
        return
    try:
        now = hashlib.sha256((session_dir / _PIPELINE).read_bytes()).hexdigest()
    except OSError:
        now = None
    if now != seen.digest():
        raise SessionChanged(
            f"session {session_dir.name} was changed by another muse-studio while this "
            "change was being made, so nothing was saved; open it again and retry"
        )


def outside_sentence(session_dir: Path, relative: str) -> str:
    return f"refusing to write {relative!r}: it is outside the session folder {session_dir}"


def refuse_outside(session_dir: Path, path: Path) -> str:
    """`path` relative to the session folder, or WriteFailed if it (or a symlink) leads outside."""
    return refuse_outside_all(session_dir, [path])[0]


def refuse_outside_all(session_dir: Path, paths: Sequence[Path]) -> list[str]:
    """`refuse_outside` of files written together, the session folder resolved once for all."""
    root = session_dir.resolve()
    base = os.path.abspath(session_dir)
    relatives: list[str] = []
    folders: set[Path] = set()
    for path in paths:
        relative = os.path.relpath(os.path.abspath(path), base)
        if relative.startswith(os.pardir) or os.path.isabs(relative):
            raise WriteFailed(outside_sentence(root, str(path)))
        if not lands_inside(root, path, folder_checked=path.parent in folders):
            raise WriteFailed(outside_sentence(root, relative))
        folders.add(path.parent)
        relatives.append(Path(relative).as_posix())
    return relatives


class SessionChange:
    """The files one change writes and removes, staged until it commits."""

    def __init__(self, session_dir: Path, *, journal: bool = True) -> None:
        self.session_dir = session_dir
        self.journal = journal
        self.files: dict[str, bytes] = {}
        self.removed: set[str] = set()
        self._base = os.path.abspath(session_dir)

    def covers(self, path: Path) -> bool:
        relative = os.path.relpath(os.path.abspath(path), self._base)
        return not relative.startswith(os.pardir)

    def put(self, relative: str, data: bytes | str) -> int:
        """Stage a whole new file at `relative` (inside the session); returns its size."""
        return self.put_path(self.session_dir / relative, data)

    def put_path(self, path: Path, data: bytes | str) -> int:
        payload = data.encode("utf-8") if isinstance(data, str) else data
        relative = refuse_outside(self.session_dir, path)
        self.removed.discard(relative)
        self.files[relative] = payload
        return len(payload)

    def remove_path(self, path: Path) -> None:
        relative = refuse_outside(self.session_dir, path)
        self.files.pop(relative, None)
        self.removed.add(relative)

    def staged(self, path: Path) -> bytes | None:
        relative = os.path.relpath(os.path.abspath(path), self._base)
        return self.files.get(Path(relative).as_posix())

    def commit(self) -> None:
        """Make the change durable, all of it or none of it (see the module's steps)."""
        if not self.files and not self.removed:
            return
        checkpoint = self.files.get(_PIPELINE)
        if not self.journal:  # a batch: one write, renamed in order (the manifest last)
            targets = [(self.session_dir / rel, data) for rel, data in self.files.items()]
            write_atomic_files(targets)
            for relative in self.removed:
                (self.session_dir / relative).unlink(missing_ok=True)
            if checkpoint is not None:
                note_checkpoint(self.session_dir, checkpoint)
            return
        with session_lock(self.session_dir):
            refuse_if_changed(self.session_dir)
            self._drop_unchanged()
            entries = self._write_journal()
            _roll_forward(self.session_dir, entries, sorted(self.removed))
        if checkpoint is not None:
            note_checkpoint(self.session_dir, checkpoint)

    def _drop_unchanged(self) -> None:
        """Files whose bytes on disk are already the new ones need no write and no sync."""
        for relative, data in list(self.files.items()):
            target = self.session_dir / relative
            try:
                same = target.stat().st_size == len(data) and target.read_bytes() == data
            except OSError:
                same = False
            if same:
                del self.files[relative]

    def _write_journal(self) -> list[dict[str, str]]:
        change_dir = self.session_dir / CHANGE_DIR
        entries = []
        try:
            change_dir.mkdir(exist_ok=True)
            for number, (relative, data) in enumerate(self.files.items()):
                temp = f"{number}.new"
                _write_synced(change_dir / temp, data)
                digest = hashlib.sha256(data).hexdigest()
                entries.append({"temp": temp, "target": relative, "sha256": digest})
            journal = {"files": entries, "remove": sorted(self.removed)}
            _write_synced(change_dir / JOURNAL, json.dumps(journal).encode("utf-8"))
            fsync_folder(change_dir)  # the commit point: from here the change rolls forward
        except OSError as exc:
            shutil.rmtree(change_dir, ignore_errors=True)
            raise WriteFailed(
                exc.errno,
                f"could not save the change to {self.session_dir.name} "
                f"({exc.strerror or exc}); the session is as it was",
            ) from None
        return entries


@contextlib.contextmanager
def session_change(session_dir: Path) -> Iterator[SessionChange]:
    """Collect a change's writes; commit them together when the block ends without an error.

    Nested inside another change, the writes join the outer one.
    """
    outer = _joining(session_dir)
    if outer is not None:
        yield outer
        return
    recover(session_dir)
    with _staging(SessionChange(session_dir)) as change:
        yield change


@contextlib.contextmanager
def session_batch(session_dir: Path) -> Iterator[SessionChange]:
    """Collect writes and make them in one batch (one fsync per folder), in the order staged.

    No journal: for a session folder that is not complete until its last file
    (the manifest) lands. Inside a session change it joins that change.
    """
    outer = _joining(session_dir)
    if outer is not None:
        yield outer
        return
    with _staging(SessionChange(session_dir, journal=False)) as batch:
        yield batch


def _joining(session_dir: Path) -> SessionChange | None:
    """The change already collecting writes for this folder, if the caller is inside one."""
    outer = STAGING.get()
    return outer if isinstance(outer, SessionChange) and outer.covers(session_dir) else None


@contextlib.contextmanager
def _staging(change: SessionChange) -> Iterator[SessionChange]:
    """Collect the block's writes in `change`; commit them when it ends without an error."""
    token = STAGING.set(change)
    try:
        yield change
    finally:
        STAGING.reset(token)
    change.commit()


def recover(session_dir: Path) -> str | None:
    """Finish or discard a change a killed writer left; says which, or None if there was none."""
    change_dir = session_dir / CHANGE_DIR
    if not change_dir.is_dir() or change_dir.is_symlink():
        return None
    try:
        with session_lock(session_dir):
            return _recover_locked(session_dir, change_dir)
    except SessionBusy:
        return None  # its writer is alive and will finish it


def _recover_locked(session_dir: Path, change_dir: Path) -> str:
    try:
        journal = json.loads((change_dir / JOURNAL).read_bytes())
        entries = [
            {"temp": str(e["temp"]), "target": str(e["target"]), "sha256": str(e["sha256"])}
            for e in journal["files"]
        ]
        removes = [str(r) for r in journal["remove"]]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        shutil.rmtree(change_dir, ignore_errors=True)
        return "discarded"
    for entry in entries:
        refuse_outside(session_dir, session_dir / entry["target"])
        if _digest(change_dir / entry["temp"]) == entry["sha256"]:
            continue
        if _digest(session_dir / entry["target"]) != entry["sha256"]:
            shutil.rmtree(change_dir, ignore_errors=True)  # killed before the commit point
            return "discarded"
    _roll_forward(session_dir, entries, removes)
    return "rolled forward"


def _roll_forward(session_dir: Path, entries: list[dict[str, str]], removes: list[str]) -> None:
    change_dir = session_dir / CHANGE_DIR
    folders: dict[Path, None] = {}
    try:
        for entry in entries:
            temp = change_dir / entry["temp"]
            target = session_dir / entry["target"]
            if temp.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(temp, target)
            folders[target.parent] = None
        for relative in removes:
            path = session_dir / relative
            path.unlink(missing_ok=True)
            folders[path.parent] = None
        for folder in folders:
            fsync_folder(folder)
        shutil.rmtree(change_dir)
    except OSError as exc:
        raise WriteFailed(
            exc.errno,
            f"the change to {session_dir.name} was saved but not finished "
            f"({exc.strerror or exc}); opening the session again finishes it",
        ) from None


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None
