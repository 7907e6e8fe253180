"""S6 writes its MIDI unsynced; no checkpoint that records S6 is synced before they are.

A power cut may lose files that were never synced. The checkpoint is what a
resumed run trusts, so it may only be durable once the MIDI it records is:
the MIDI files are fsynced by S6's own durable checkpoint, before its state
files, on the writer's thread while S7 works (`StageResult.unsynced`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from muse_tui.contracts import PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages

PROMPT = "drill, 140, key of F#m"


def _record_syncs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int | None]]:
    """Every fsync of the run: the file's path, and for a pipeline checkpoint its last stage."""
    synced: list[tuple[str, int | None]] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        path = os.readlink(f"/proc/self/fd/{fd}")
        stage = None
        if ".pipeline-state.json." in path:  # the temp file about to become the checkpoint
            with open(path, "rb") as checkpoint:
                stage = json.load(checkpoint)["recovery"]["lastSuccessfulStage"]
        synced.append((path, stage))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return synced


def _compose(root: Path, **config: bool) -> Path:
    engine = Orchestrator(product_stages(), root)
    pipeline = run_blocking(
        engine.run(
            PROMPT,
            seed=1,
            config=PipelineConfig(approval_gates=[], **config),
            answers={"bars": "8"},
        )
    )
    assert pipeline.status == "completed"
    return root / pipeline.session_id


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to name an fd")
def test_the_midi_is_synced_before_any_checkpoint_that_records_s6(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced = _record_syncs(monkeypatch)
    session = _compose(tmp_path)
    midi = sorted(str(p.resolve()) for p in (session / "midi").glob("*.mid"))
    assert len(midi) == 5  # the whole song and its four tracks
    last_midi_sync = max(i for i, (path, _) in enumerate(synced) if path in midi)
    assert {path for path, _ in synced} >= set(midi)
    recording_s6 = [i for i, (_, stage) in enumerate(synced) if stage is not None and stage >= 6]
    assert recording_s6, "a durable checkpoint records S6"
    assert min(recording_s6) > last_midi_sync


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to name an fd")
def test_without_checkpoints_the_run_still_syncs_its_midi_before_it_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced = _record_syncs(monkeypatch)
    session = _compose(tmp_path, enable_checkpoints=False)
    midi = {str(p.resolve()) for p in (session / "midi").glob("*.mid")}
    assert midi and {path for path, _ in synced} >= midi
