"""A real 8-bar song composed once per run, copied fresh for each fault-injection test."""

from __future__ import annotations

import hashlib
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from muse_tui.contracts import ComposerPipeline, PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages

PROMPT = "lofi hip hop, rainy evening, 80 bpm, in C minor"
SEED = 11
#: Files a change or a resume rewrites the same way each time (the manifest and the
#: pipeline file carry timings and run ids; `.bak`, the lock and temps are housekeeping).
HOUSEKEEPING = (".bak", ".tmp", ".muse-lock")


def fixed_clock() -> datetime:
    return datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def compose(root: Path, *, session_id: str | None = None) -> ComposerPipeline:
    engine = Orchestrator(product_stages(), root, clock=fixed_clock)
    config = PipelineConfig(approval_gates=[])
    return run_blocking(
        engine.run(PROMPT, seed=SEED, config=config, session_id=session_id, answers={"bars": "8"})
    )


def fingerprints(folder: Path, *, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """Each file's SHA-1 under `folder`, leaving out housekeeping and the `skip` paths."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha1(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
        and not p.name.endswith(HOUSEKEEPING)
        and p.relative_to(folder).as_posix() not in skip
    }


@pytest.fixture(scope="session")
def composed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("composed")
    pipeline = compose(root)
    assert pipeline.status == "completed"
    return root / pipeline.session_id


@pytest.fixture
def folder(composed: Path, tmp_path: Path) -> Path:
    """The composed session, copied so the test may break it."""
    copy = tmp_path / "sessions" / composed.name
    shutil.copytree(composed, copy)
    return copy
