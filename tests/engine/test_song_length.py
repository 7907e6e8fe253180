"""How long a song is: --bars, then a length in the prompt, then the settings' default bars."""

from __future__ import annotations

from pathlib import Path

import pytest

from muse_tui.contracts import PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages


@pytest.mark.parametrize(
    ("prompt", "answers", "bars"),
    [
        ("lofi hip hop, rainy", {"default_bars": "40"}, 40),  # no length said: the default
        ("lofi hip hop, rainy, 16 bars", {"default_bars": "40"}, 16),  # the prompt wins
        ("lofi hip hop, rainy, 16 bars", {"bars": "24", "default_bars": "40"}, 24),  # --bars
    ],
)
def test_the_length_comes_from_the_most_explicit_source(
    tmp_path: Path, prompt: str, answers: dict[str, str], bars: int
) -> None:
    engine = Orchestrator(product_stages(), tmp_path)
    config = PipelineConfig(approval_gates=[])
    pipeline = run_blocking(engine.run(prompt, seed=3, config=config, answers=answers))
    assert pipeline.song_state.arrangement.total_bars == bars
