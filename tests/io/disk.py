"""Session folders on disk for the io tests: complete, incomplete, aged."""

from __future__ import annotations

import errno
import os
import time
from datetime import datetime
from pathlib import Path

import pytest

from muse_tui.store import atomic
from muse_tui.store.checkpoint import write_checkpoint
from muse_tui.store.session_writer import write_session
from tests.io.songs import build_song, pipeline_for, presets_for, three_sections


def make_session(
    root: Path,
    session_id: str,
    *,
    created_at: str | datetime = "2026-11-22T02:00:00+00:00",
    genre: str = "neo-soul",
    complete: bool = True,
    tonic: str = "A",
    mode: str = "minor",
    tempo: float = 92,
) -> Path:
    """A session written as S8 writes it, or (incomplete) only its checkpoint after S3."""
    song = build_song(tonic, mode, arrangement=three_sections(), genre=genre, tempo=tempo)
    status = "completed" if complete else "running"
    when = created_at.isoformat() if isinstance(created_at, datetime) else created_at
    pipeline = pipeline_for(song, session_id=session_id, created_at=when, status=status)
    folder = root / session_id
    if complete:
        write_session(folder, pipeline, presets=presets_for(song))
    else:
        write_checkpoint(folder, pipeline)
    return folder


def age(path: Path, seconds: float = 3600) -> None:
    """Make everything under `path` look `seconds` old, as if no run had touched it lately."""
    then = time.time() - seconds
    for dirpath, dirnames, filenames in os.walk(path):
        for name in [*filenames, *dirnames]:
            os.utime(Path(dirpath) / name, (then, then), follow_symlinks=False)
    os.utime(path, (then, then))


def files_under(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def full_disk_for(monkeypatch: pytest.MonkeyPatch, suffix: str) -> None:
    """From now on, renaming a file whose name ends in `suffix` into place finds the disk full."""
    real_replace = atomic.os.replace

    def full_disk(src: str, dst: str) -> None:
        if str(dst).endswith(suffix):
            raise OSError(errno.ENOSPC, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "replace", full_disk)
