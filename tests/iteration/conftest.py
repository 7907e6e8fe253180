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
from muse_tui.store.lock import LOCK_FILE

PROMPT = "neo soul, late night, 85 bpm, in Eb minor"
SEED = 7
BARS = "32"  # five sections of five kinds: intro, verse, pre-chorus, chorus, outro
C_MAJOR_PROMPT = "pop song in C major, piano keys, bass, drums, 100 bpm"


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
        """Each file of the session but the backups and the lock file, which every command that
        may change the session takes before it reads (`session.changes.writing`)."""
        return {
            p.relative_to(self.folder).as_posix(): hashlib.sha1(p.read_bytes()).hexdigest()
            for p in sorted(self.folder.rglob("*"))
            if p.is_file() and not p.name.endswith(".bak") and p.name != LOCK_FILE
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


def composed_in(
    root: Path, prompt: str, seed: int, answers: dict[str, str] | None = None
) -> Session:
    """A song composed from `prompt` into a session folder under `root`, every gate open."""
    engine = Orchestrator(product_stages(), root, clock=fixed_clock)
    config = PipelineConfig(approval_gates=[])
    pipeline = asyncio.run(engine.run(prompt, seed=seed, config=config, answers=answers))
    assert pipeline.status == "completed"
    return Session(pipeline, root / pipeline.session_id)


def copied(session: Session, tmp_path: Path) -> Session:
    """The session with its folder copied, so a test may change its files."""
    folder = tmp_path / session.folder.name
    shutil.copytree(session.folder, folder)
    return Session(session.pipeline, folder)


@pytest.fixture(scope="session")
def composed(tmp_path_factory: pytest.TempPathFactory) -> Session:
    return composed_in(tmp_path_factory.mktemp("composed"), PROMPT, SEED, {"bars": BARS})


@pytest.fixture
def session(composed: Session, tmp_path: Path) -> Session:
    """The composed session, copied so each test may change its files."""
    return copied(composed, tmp_path)


@pytest.fixture(scope="session")
def c_major(tmp_path_factory: pytest.TempPathFactory) -> Session:
    """A C major pop song with keys, a second piano (chords), bass and drums, for DAW edits."""
    composed = composed_in(tmp_path_factory.mktemp("c_major"), C_MAJOR_PROMPT, seed=1)
    assert (composed.pipeline.song_state.key, composed.pipeline.song_state.mode) == ("C", "major")
    return composed


@pytest.fixture
def song(c_major: Session, tmp_path: Path) -> Session:
    """The C major session, copied so each test may change its files."""
    return copied(c_major, tmp_path)
