"""S8 writes the session while the engine's last checkpoints are still landing.

S8 used to wait for the checkpoint writer first, because it lists the state
files. It no longer waits: the state folder is the writer's (S8 neither writes
nor sweeps it), the sizes S8 lists are refreshed at the finish, and the run's
first checkpoint sweeps the temp files a killed writer left there.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from muse_tui.engine import ledger, registry
from muse_tui.store.atomic import leftover_temp_files
from muse_tui.store.checkpoint import load_checkpoint
from muse_tui.store.manifest import read_manifest
from muse_tui.store.session_writer import write_session
from tests.io.songs import build_song, pipeline_for, three_sections
from tests.safety.conftest import compose

SESSION = "session-20261124-s8bes1"


def test_s8_writes_while_a_checkpoint_is_still_landing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s8_began = threading.Event()
    s8_began_first: list[bool] = []
    real_state_write, real_session_write = ledger.write_state_files, registry.write_session

    def held_state_write(*args: object, **kwargs: object) -> object:
        # Held until S8 begins; a run that made S8 wait for this write times out here.
        s8_began_first.append(s8_began.wait(timeout=15))  # S2–S7 take ~0.1 s; a loaded CI more
        return real_state_write(*args, **kwargs)  # type: ignore[arg-type]

    def session_write(*args: object, **kwargs: object) -> object:
        s8_began.set()
        return real_session_write(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ledger, "write_state_files", held_state_write)
    monkeypatch.setattr(registry, "write_session", session_write)
    pipeline = compose(tmp_path, session_id=SESSION)

    assert pipeline.status == "completed"
    assert s8_began_first[0], "S8 waited for the checkpoint writer"
    folder = tmp_path / SESSION
    assert load_checkpoint(folder).status == "completed"
    for entry in read_manifest(folder).files:  # S8's sizes were refreshed at the finish
        assert entry.size_bytes == (folder / entry.path).stat().st_size, entry.path
    assert leftover_temp_files(folder) == []


def test_the_runs_first_checkpoint_sweeps_a_killed_writers_temp_files(tmp_path: Path) -> None:
    state = tmp_path / SESSION / "state"
    state.mkdir(parents=True)
    leftovers = [state / ".song-state.json.k1lled.tmp", state / ".pipeline-state.json.link.tmp"]
    for leftover in leftovers:
        leftover.write_bytes(b'{"torn')
    assert compose(tmp_path, session_id=SESSION).status == "completed"
    assert not any(leftover.exists() for leftover in leftovers)


def test_the_session_writer_leaves_the_state_folder_to_the_engine(tmp_path: Path) -> None:
    pipeline = pipeline_for(build_song(arrangement=three_sections()), session_id=SESSION)
    folder = tmp_path / SESSION
    state, notes = folder / "state", folder / "notes"
    state.mkdir(parents=True)
    notes.mkdir()
    writing = state / ".song-state.json.wr1t1n.tmp"  # the engine's writer, mid-write
    killed = notes / ".producer-notes.md.k1lled.tmp"
    for temp in (writing, killed):
        temp.write_bytes(b"partial")

    manifest = write_session(folder, pipeline, state_written=True)

    assert writing.exists() and not killed.exists()
    assert not (state / "song-state.json").exists(), "the engine's to write"
    listed = {f.path: f.size_bytes for f in manifest.files if f.type == "state"}
    assert listed == {"state/song-state.json": 0, "state/pipeline-state.json": 0}
    write_session(folder, pipeline)  # not the engine's: written, and the folder swept
    assert (state / "song-state.json").exists() and not writing.exists()
