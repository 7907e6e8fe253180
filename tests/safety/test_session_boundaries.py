"""Writes stay in the named folder, one writer at a time, and broken files cost one sentence."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from muse_tui.engine.editing import modify, undo
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages
from muse_tui.store.atomic import WriteFailed
from muse_tui.store.checkpoint import CheckpointError, load_checkpoint, pipeline_path
from muse_tui.store.manifest import read_manifest
from tests.safety.conftest import fingerprints, fixed_clock

ROOT = Path(__file__).resolve().parents[2]
BUSY = "is being changed by another muse-studio"
CHANGED = "was changed by another muse-studio while this change was being made"


def _modify(folder: Path, text: str) -> str:
    pipeline = load_checkpoint(folder)
    return run_blocking(modify(pipeline, text, session_dir=folder, clock=fixed_clock)).status


def test_a_copied_session_resumed_writes_into_the_copy_not_the_original(
    folder: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "elsewhere" / "my-copy"
    shutil.copytree(folder, copy)
    assert _modify(folder, "tempo 96") == "applied"
    assert _modify(folder, "tempo 100") == "applied"
    original = fingerprints(folder)

    engine = Orchestrator(product_stages(), folder.parent, clock=fixed_clock)
    resumed = run_blocking(engine.resume(copy))

    assert fingerprints(folder) == original, "the original folder was written"
    assert len(load_checkpoint(folder).song_state.history) == 2
    assert load_checkpoint(copy).recovery.is_resumed
    assert resumed.status == "completed"


def test_a_state_symlink_cannot_lead_modify_or_undo_outside_the_session(
    folder: Path, tmp_path: Path
) -> None:
    assert _modify(folder, "tempo 96") == "applied"
    outside = tmp_path / "outside"
    shutil.move(folder / "state", outside)
    os.symlink(outside, folder / "state")
    before = fingerprints(outside)
    pipeline = load_checkpoint(folder)

    with pytest.raises(WriteFailed, match="outside the session folder"):
        run_blocking(modify(pipeline, "tempo 100", session_dir=folder, clock=fixed_clock))
    with pytest.raises(WriteFailed, match="outside the session folder"):
        undo(pipeline, session_dir=folder)
    assert fingerprints(outside) == before


@pytest.mark.parametrize("request_text", ["make the bass simpler", "undo"])
def test_a_corrupt_manifest_does_not_stop_a_change_half_way(
    folder: Path, request_text: str
) -> None:
    if request_text == "undo":
        assert _modify(folder, "make the bass simpler") == "applied"
    (folder / "manifest.json").write_bytes(b'{"sessionId": "oops", ')
    status = _modify(folder, request_text)
    assert status in ("applied", "undone")
    manifest = read_manifest(folder)  # whole again, and listing what the change wrote
    sizes = {f.path: f.size_bytes for f in manifest.files if f.path != "manifest.json"}
    assert sizes == {p: (folder / p).stat().st_size for p in sizes}
    assert _modify(folder, "tempo 96") == "applied", "and the next change works too"


def test_a_corrupt_manifest_does_not_crash_resume(folder: Path) -> None:
    (folder / "manifest.json").write_bytes(b"\x00garbage")
    engine = Orchestrator(product_stages(), folder.parent, clock=fixed_clock)
    assert run_blocking(engine.resume(folder)).status == "completed"
    read_manifest(folder)


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b'{"version": "1.0.0", "rawPrompt": "caf\xe9"}', "not UTF-8"),
        (b"[" * 200_000 + b"]" * 200_000, "nested too deep"),
        (b'{"version": "1.0.0", "a": ' * 5000 + b"1" + b"}" * 5000, "nested too deep"),
    ],
    ids=["not-utf8", "deep-array", "deep-object"],
)
def test_an_unreadable_checkpoint_is_one_sentence(folder: Path, content: bytes, said: str) -> None:
    pipeline_path(folder).write_bytes(content)
    with pytest.raises(CheckpointError, match=said) as caught:
        load_checkpoint(folder)
    assert "\n" not in str(caught.value)


def _with_version(folder: Path, version: str) -> None:
    raw = json.loads(pipeline_path(folder).read_bytes())
    raw["version"] = version
    raw["moodBoard"] = {"colour": "teal"}  # a field a newer muse-studio added
    raw["songState"]["lyricsSheet"] = "la la"
    pipeline_path(folder).write_text(json.dumps(raw))


def test_a_newer_minor_schema_is_read_without_its_new_fields(folder: Path) -> None:
    _with_version(folder, "1.4.0")
    pipeline = load_checkpoint(folder)
    assert pipeline.song_state.tracks
    assert _modify(folder, "tempo 96") == "applied"


def test_a_newer_major_schema_is_refused_in_one_sentence(folder: Path) -> None:
    _with_version(folder, "2.0.0")
    with pytest.raises(CheckpointError, match="update muse-studio"):
        load_checkpoint(folder)


@pytest.mark.slow  # eight processes at once
def test_eight_writers_at_once_apply_in_order_or_are_refused(folder: Path, tmp_path: Path) -> None:
    env = {**os.environ, "MUSE_CONFIG_DIR": str(tmp_path / "config")}
    requests = [f"tempo {90 + n}" for n in range(8)]
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "muse_tui.cli", "modify", "--yes", str(folder), text],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for text in requests
    ]
    applied, refused = [], []
    for text, run in zip(requests, runs, strict=True):
        out, err = run.communicate(timeout=120)
        assert "Traceback" not in err
        if run.returncode == 0:
            assert "Cost:" in out, out
            applied.append(text)
        else:
            assert BUSY in err or CHANGED in err, err
            refused.append(text)
    history = [e.user_text for e in load_checkpoint(folder).song_state.history]
    assert sorted(history) == sorted(applied), "every applied change is in the history"
    assert applied, "at least one writer gets through"
