"""Songs composed through the real pipeline once per test session, read back from their MIDI."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.listening.heard import HeardSong, read_session
from muse_tui.contracts import PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages

#: name → prompt: crash genres, builds into drops, and two genres that never crash.
PROMPTS = {
    "trap": "dark trap, 140, key of Am",
    "edm": "edm festival banger, 128 bpm",
    "rock": "indie rock anthem with guitars, 150 bpm",
    "dnb": "liquid drum and bass, 174 bpm",
    "pop": "upbeat pop song, 118 bpm",
    "house": "deep house in F minor, 122 BPM",
    "jazz": "slow jazz ballad with brushes, 70 bpm",
    "ambient": "ambient drone soundscape, 60 bpm",
}


@pytest.fixture(scope="session")
def songs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, HeardSong]:
    root = tmp_path_factory.mktemp("develops")
    engine = Orchestrator(product_stages(), root)
    heard = {}
    for name, prompt in PROMPTS.items():
        pipeline = run_blocking(
            engine.run(prompt, seed=1, config=PipelineConfig(approval_gates=[]))
        )
        assert pipeline.status in ("completed", "partial"), prompt
        heard[name] = read_session(Path(engine.sessions_root / pipeline.session_id))
    return heard
