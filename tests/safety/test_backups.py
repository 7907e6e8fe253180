"""The checkpoint's backup is the previous good state after any failure, kill or corrupt file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from muse_tui.engine.editing import modify
from muse_tui.engine.orchestrator import run_blocking
from muse_tui.store.atomic import WriteFailed
from muse_tui.store.backups import keep_as_backup
from muse_tui.store.checkpoint import (
    CheckpointError,
    load_checkpoint,
    pipeline_path,
    song_path,
)
from tests.safety.conftest import fixed_clock
from tests.safety.faults import disk_full

STATE_FILES = (pipeline_path, song_path)


def _modify(folder: Path, text: str = "tempo 96") -> str:
    pipeline = load_checkpoint(folder)
    return run_blocking(modify(pipeline, text, session_dir=folder, clock=fixed_clock)).status


def _state(folder: Path) -> dict[str, bytes]:
    """Each state file's bytes and its backup's."""
    found = {}
    for path in (f(folder) for f in STATE_FILES):
        for name in (path.name, path.name + ".bak"):
            found[name] = (path.parent / name).read_bytes()
    return found


def test_a_full_disk_at_any_write_keeps_the_backups_as_they_were(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _state(folder)
    with disk_full(monkeypatch, None) as counting:
        _modify(_copy(folder, tmp_path, "count"))
    for fail_at in range(1, counting.calls + 1):
        trial = _copy(folder, tmp_path, f"full-{fail_at}")
        with disk_full(monkeypatch, fail_at), pytest.raises(WriteFailed):
            _modify(trial)
        load_checkpoint(trial)  # finishes or discards what was left
        now = _state(trial)
        if now["pipeline-state.json"] == before["pipeline-state.json"]:
            assert now == before, f"the backups moved without the change (fsync {fail_at})"
        else:  # rolled forward: the backups are the state the change replaced
            assert now["pipeline-state.json.bak"] == before["pipeline-state.json"]
            assert now["song-state.json.bak"] == before["song-state.json"]


def test_a_change_makes_the_state_it_replaced_the_backup(folder: Path) -> None:
    before = _state(folder)
    assert _modify(folder) == "applied"
    now = _state(folder)
    assert now["pipeline-state.json.bak"] == before["pipeline-state.json"]
    assert now["song-state.json.bak"] == before["song-state.json"]


def test_a_corrupt_song_file_is_kept_aside_and_never_replaces_a_good_backup(
    folder: Path,
) -> None:
    good_backup = (song_path(folder).parent / "song-state.json.bak").read_bytes()
    song_path(folder).write_bytes(b'{"title": "half a fi')
    assert _modify(folder) == "applied"
    state = song_path(folder).parent
    assert (state / "song-state.json.bak").read_bytes() == good_backup
    assert (state / "song-state.json.corrupt").read_bytes() == b'{"title": "half a fi'


def test_the_message_names_the_backup_only_when_it_is_good(folder: Path) -> None:
    pipeline_path(folder).write_bytes(b"\xff\xfe not json")
    with pytest.raises(CheckpointError, match=r"resume from its backup pipeline-state\.json\.bak"):
        load_checkpoint(folder)
    (pipeline_path(folder).parent / "pipeline-state.json.bak").write_bytes(b"[" * 5000)
    with pytest.raises(CheckpointError) as refused:
        load_checkpoint(folder)
    assert ".bak" not in str(refused.value)
    assert "compose" in str(refused.value), "the way forward is to start fresh"


def test_backing_up_twice_without_a_write_leaves_no_temp_file(tmp_path: Path) -> None:
    path = tmp_path / "state" / "song-state.json"
    path.parent.mkdir()
    path.write_text("{}")
    keep_as_backup(path)
    keep_as_backup(path)  # the backup already is this file: the rename does nothing
    assert sorted(p.name for p in path.parent.iterdir()) == [
        "song-state.json",
        "song-state.json.bak",
    ]


def _copy(folder: Path, tmp_path: Path, name: str) -> Path:
    copy = tmp_path / name / folder.name
    shutil.copytree(folder, copy)
    return copy
