"""kill -9 at 30 random moments of a compose: nothing torn, and resume gives the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages
from muse_tui.store.checkpoint import CheckpointError, load_checkpoint
from muse_tui.store.manifest import read_manifest
from tests.safety.conftest import compose, fingerprints, fixed_clock
from tests.safety.faults import KillMoments, timed

SESSION = "session-20261123-k1ll9x"
#: These carry the run's id and timings, so they differ run to run; checked by content below.
PER_RUN = ("state/pipeline-state.json", "manifest.json")


def _finish(root: Path) -> None:
    """What a producer does after a crash: resume the session, or compose again if none is left."""
    folder = root / SESSION
    try:
        load_checkpoint(folder)
    except CheckpointError:
        assert compose(root, session_id=SESSION).status == "completed"
        return
    engine = Orchestrator(product_stages(), root, clock=fixed_clock)
    assert run_blocking(engine.resume(folder)).status == "completed"


def _assert_whole(folder: Path, clean: dict[str, bytes]) -> None:
    """Every file a killed compose left is whole: JSON parses, every other file is final."""
    for path in folder.rglob("*"):
        relative = path.relative_to(folder).as_posix()
        if not path.is_file() or path.name.endswith((".tmp", ".bak", ".muse-lock")):
            continue
        if path.suffix in (".json", ".progression"):  # JSON; S2 writes an untitled one
            json.loads(path.read_bytes())
        else:
            assert path.read_bytes() == clean[relative], f"{relative} is torn"


@pytest.mark.slow  # 30 killed processes
def test_kill_9_at_30_moments_of_compose_then_resume_gives_identical_files(
    tmp_path: Path,
) -> None:
    clean_root = tmp_path / "clean"
    assert compose(clean_root, session_id=SESSION).status == "completed"
    clean_folder = clean_root / SESSION
    expected = fingerprints(clean_folder, skip=PER_RUN)
    clean = {p: (clean_folder / p).read_bytes() for p in expected}
    slow = 0.004  # a slow disk: each fsync takes 4 ms
    span = timed(lambda n: compose(tmp_path / f"timing-{n}", session_id=SESSION), slow_sync_s=slow)
    kills = KillMoments(30, span, seed=6)
    for n, moment in enumerate(kills):
        root = tmp_path / f"kill-{n}"
        kills.run(lambda r=root: compose(r, session_id=SESSION), moment, slow_sync_s=slow)
        if (root / SESSION).exists():
            _assert_whole(root / SESSION, clean)
        _finish(root)
        folder = root / SESSION
        assert fingerprints(folder, skip=PER_RUN) == expected, f"kill at {moment * 1000:.0f} ms"
        assert load_checkpoint(folder).song_state == load_checkpoint(clean_folder).song_state
        listed = {f.path for f in read_manifest(folder).files}
        assert listed == {f.path for f in read_manifest(clean_folder).files}
    assert kills.killed >= 20, "most runs must really be killed mid-compose"
