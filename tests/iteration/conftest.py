"""A real song composed once per run, and a fresh copy of its session folder for each test."""

from __future__ import annotations

import asyncio
import hashlib
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pytest

from muse_tui.contracts import Ambiguity, ComposerPipeline, PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator
from muse_tui.engine.protocols import ApprovalRequest
from muse_tui.engine.registry import product_stages

PROMPT = "neo soul, late night, 85 bpm, in Eb minor"
SEED = 7
BARS = "32"  # five sections of five kinds: intro, verse, pre-chorus, chorus, outro


def fixed_clock() -> datetime:
    return datetime(2026, 11, 22, 21, 0, tzinfo=UTC)


@dataclass
class Session:
    """A composed session on disk: its pipeline and folder."""

    pipeline: ComposerPipeline
    folder: Path

    def file_bytes(self, relative: str) -> bytes:
        return (self.folder / relative).read_bytes()

    def fingerprints(self) -> dict[str, str]:
        return {
            p.relative_to(self.folder).as_posix(): hashlib.sha1(p.read_bytes()).hexdigest()
            for p in sorted(self.folder.rglob("*"))
            if p.is_file() and not p.name.endswith(".bak")
        }


@dataclass
class RecordingGate:
    """Answers every question with `answer` and keeps what was asked."""

    answer: str | None = "yes"
    asked: list[Ambiguity] = field(default_factory=list)

    async def review(self, request: ApprovalRequest) -> str:
        return "approve"

    async def ask(self, question: Ambiguity) -> str | None:
        self.asked.append(question)
        return self.answer


@pytest.fixture(scope="session")
def composed(tmp_path_factory: pytest.TempPathFactory) -> Session:
    root = tmp_path_factory.mktemp("composed")
    engine = Orchestrator(product_stages(), root, clock=fixed_clock)
    config = PipelineConfig(approval_gates=[])
    pipeline = asyncio.run(engine.run(PROMPT, seed=SEED, config=config, answers={"bars": BARS}))
    assert pipeline.status == "completed"
    return Session(pipeline, root / pipeline.session_id)


@pytest.fixture
def session(composed: Session, tmp_path: Path) -> Session:
    """The composed session, copied so each test may change its files."""
    folder = tmp_path / composed.folder.name
    shutil.copytree(composed.folder, folder)
    return Session(composed.pipeline, folder)
