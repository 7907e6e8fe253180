"""Spec case 5: a process killed after the S3 checkpoint resumes to the very same files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from muse_tui.contracts import PipelineConfig
from muse_tui.store.checkpoint import pipeline_path
from tests.engine.fakes import Knobs, orchestrator

ROOT = Path(__file__).resolve().parents[2]
SESSION = "session-20261122-k1ll3d"
SEED = 77


def _last_good_stage(session_dir: Path) -> int:
    try:
        state = json.loads(pipeline_path(session_dir).read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return 0
    return state["recovery"]["lastSuccessfulStage"]


def _files(session_dir: Path) -> dict[str, bytes]:
    wanted = [
        *session_dir.glob("midi/*.mid"),
        *session_dir.glob("progression/*"),
        session_dir / "state" / "song-state.json",
    ]
    return {str(p.relative_to(session_dir)): p.read_bytes() for p in wanted}


async def test_5_sigkill_after_stage_3_then_resume_gives_identical_files(tmp_path: Path) -> None:
    killed_root = tmp_path / "killed"
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.engine.run_fake", str(killed_root), SESSION, str(SEED), "60"],
        cwd=ROOT,
    )
    session_dir = killed_root / SESSION
    try:
        deadline = time.monotonic() + 30
        while _last_good_stage(session_dir) < 3:
            assert child.poll() is None, "the pipeline process died on its own"
            assert time.monotonic() < deadline, "stage 3 never checkpointed"
            time.sleep(0.01)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=10)
    assert child.returncode == -signal.SIGKILL
    assert _last_good_stage(session_dir) == 3
    assert not (session_dir / "midi").exists(), "S4 never finished, so no MIDI yet"

    knobs = Knobs()
    engine, sink = orchestrator(killed_root, knobs)
    resumed = await engine.resume(session_dir)
    assert resumed.status == "completed"
    assert sorted(knobs.calls) == [4, 5, 6, 7, 8], "stages 1–3 must not run again"
    assert sink.events[0].resumed_from_stage == 4  # type: ignore[union-attr]

    whole, _ = orchestrator(tmp_path / "whole")
    clean = await whole.run(
        "kill me", seed=SEED, config=PipelineConfig(approval_gates=[]), session_id=SESSION
    )
    assert clean.status == "completed"
    expected = _files(tmp_path / "whole" / SESSION)
    assert len(expected) == 7
    assert _files(session_dir) == expected
