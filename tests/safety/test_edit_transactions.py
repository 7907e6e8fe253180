"""A change is wholly on disk or not at all: a full disk or kill -9 at any moment of `modify`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from muse_tui.contracts import PipelineConfig, PipelineFinished, SongState
from muse_tui.engine.editing import modify, undo
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.protocols import RecordingSink
from muse_tui.engine.registry import product_stages
from muse_tui.store.atomic import WriteFailed
from muse_tui.store.checkpoint import load_checkpoint, song_path
from tests.safety.conftest import compose, fingerprints, fixed_clock
from tests.safety.faults import KillMoments, disk_full, timed

REQUEST = "tempo 96"


def _modify(folder: Path, text: str = REQUEST) -> str:
    pipeline = load_checkpoint(folder)
    result = run_blocking(modify(pipeline, text, session_dir=folder, clock=fixed_clock))
    return result.status


def _changed(folder: Path, tmp_path: Path) -> dict[str, str]:
    """The session's files after the change, made on a copy with nothing going wrong."""
    clean = tmp_path / "clean" / folder.name
    shutil.copytree(folder, clean)
    assert _modify(clean) == "applied"
    return fingerprints(clean)


def _tempo(folder: Path) -> float:
    return SongState.from_json(song_path(folder).read_bytes()).tempo


def test_a_full_disk_at_any_write_leaves_the_session_as_it_was(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = fingerprints(folder)
    after = _changed(folder, tmp_path)
    assert after != before
    with disk_full(monkeypatch, None) as counting:
        _modify(_copy(folder, tmp_path, "count"))
    assert counting.calls > 3
    for fail_at in range(1, counting.calls + 1):
        trial = _copy(folder, tmp_path, f"full-{fail_at}")
        with disk_full(monkeypatch, fail_at), pytest.raises(WriteFailed):
            _modify(trial)
        load_checkpoint(trial)  # opening the session finishes or discards what was left
        now = fingerprints(trial)
        assert now in (before, after), f"torn session when fsync {fail_at} failed"
        if now == before:  # the retry, with space again, applies the change whole
            assert _modify(trial) == "applied"
            assert fingerprints(trial) == after
        assert _tempo(trial) == 96


@pytest.mark.slow  # 30 killed processes
def test_kill_9_at_30_moments_of_modify_never_tears_the_session(
    folder: Path, tmp_path: Path
) -> None:
    before = fingerprints(folder)
    after = _changed(folder, tmp_path)
    slow = 0.004  # a slow disk: each fsync takes 4 ms, so kills land between writes
    # The copies are made first, as each trial's is before its fork: only the change is timed.
    timing = [_copy(folder, tmp_path, f"timing-{n}") for n in range(3)]
    span = timed(lambda n: _modify(timing[n]), slow_sync_s=slow, runs=len(timing))
    kills = KillMoments(30, span, seed=18)
    for n, moment in enumerate(kills):
        trial = _copy(folder, tmp_path, f"kill-{n}")
        kills.run(lambda t=trial: _modify(t), moment, slow_sync_s=slow)
        load_checkpoint(trial)
        now = fingerprints(trial)
        assert now in (before, after), f"torn session after a kill at {moment * 1000:.0f} ms"
        if now == before:
            assert _modify(trial) == "applied"
        assert fingerprints(trial) == after, "the change, made again, gives the same bytes"
    assert kills.killed >= 20, "most runs must really be killed mid-change"


def test_undo_after_a_failed_change_finds_no_half_applied_entry(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = fingerprints(folder)
    with disk_full(monkeypatch, 3), pytest.raises(WriteFailed):
        _modify(folder)
    pipeline = load_checkpoint(folder)
    assert pipeline.song_state.history == [], "a change that failed is not in the history"
    assert undo(pipeline, session_dir=folder).status == "nothing"
    assert fingerprints(folder) == before


def _copy(folder: Path, tmp_path: Path, name: str) -> Path:
    copy = tmp_path / name / folder.name
    shutil.copytree(folder, copy)
    return copy


def test_compose_onto_a_full_disk_ends_the_run_with_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills at each sync of a compose in turn. How many syncs a compose makes
    varies by a few: the checkpoint writer drops a checkpoint a newer one overtakes (more
    often on a busy machine), so a run may end before the sync the disk was to fill at;
    that run must simply complete (a quick-suite run here once had one such run)."""
    with disk_full(monkeypatch, None) as counting:
        assert compose(tmp_path / "count").status == "completed"
    filled = 0
    for fail_at in range(1, counting.calls + 1):
        sink = RecordingSink()
        engine = Orchestrator(product_stages(), tmp_path / f"full-{fail_at}", sink=sink)
        config = PipelineConfig(approval_gates=[])
        with disk_full(monkeypatch, fail_at) as disk:  # returns, never raises
            pipeline = run_blocking(engine.run("lofi, 8 bars", seed=1, config=config))
        finished = sink.events[-1]
        assert isinstance(finished, PipelineFinished), f"fsync {fail_at}"
        if disk.calls < fail_at:  # this run synced fewer times: the disk never filled
            assert pipeline.status == "completed", f"fsync {fail_at}"
            continue
        filled += 1
        assert pipeline.status in ("failed", "completed_partial"), f"fsync {fail_at}"
        assert "No space left on device" in finished.message, f"fsync {fail_at}"
        assert "\n" not in finished.message
    assert filled >= counting.calls - 3, (filled, counting.calls)


def test_the_lock_and_the_journal_are_not_reported_as_song_files(folder: Path) -> None:
    pipeline = load_checkpoint(folder)
    result = run_blocking(modify(pipeline, REQUEST, session_dir=folder, clock=fixed_clock))
    assert result.updated_files and all(
        not name.startswith((".muse-lock", ".muse-change")) for name in result.updated_files
    )
    assert not (folder / ".muse-change").exists()


def test_a_rival_change_in_flight_neither_breaks_nor_joins_the_reported_files(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another writer's `.muse-change/` appears and vanishes while this change lists the folder.

    CI once caught `modify` listing a rival's change folder just as its commit
    deleted it: a traceback instead of an applied or refused change.
    """
    import os

    rival = folder / ".muse-change"
    scandir = os.scandir

    class Listed:  # what scandir listed, handed out after the rival's commit deleted it
        def __init__(self, entries: list[os.DirEntry[str]]) -> None:
            self.entries = iter(entries)

        def __enter__(self) -> Listed:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def __iter__(self) -> Listed:
            return self

        def __next__(self) -> os.DirEntry[str]:
            return next(self.entries)

        def close(self) -> None:
            pass

    def rival_commits_meanwhile(path: object = ".") -> Listed:
        if isinstance(path, int) or os.fspath(path) != os.fspath(folder):
            return scandir(path)
        rival.mkdir(exist_ok=True)
        (rival / "journal.json").write_text("{}")
        with scandir(path) as listing:
            entries = Listed(list(listing))
        shutil.rmtree(rival)
        return entries

    monkeypatch.setattr(os, "scandir", rival_commits_meanwhile)
    pipeline = load_checkpoint(folder)
    result = run_blocking(modify(pipeline, REQUEST, session_dir=folder, clock=fixed_clock))
    assert result.status == "applied"
    assert result.updated_files
    assert all(not name.startswith(".muse-change") for name in result.updated_files)
