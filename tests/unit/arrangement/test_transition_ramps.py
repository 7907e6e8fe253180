"""Transitions as heard in the MIDI: one controller ramp at a time on any track."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import mido
import pytest

from muse_tui.contracts import PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages


def _composed_midi(tmp_path: Path, prompt: str, seed: int) -> list[Path]:
    engine = Orchestrator(product_stages(), tmp_path)
    config = PipelineConfig(approval_gates=[])
    pipeline = run_blocking(engine.run(prompt, seed=seed, config=config))
    (session,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    assert pipeline.song_state.arrangement is not None
    return sorted((session / "midi").glob("*.mid"))


def _same_tick_controller_events(path: Path) -> dict[str, list[tuple[int, int, int]]]:
    """Per track: (tick, channel, controller) where one controller is set twice at once."""
    clashes: dict[str, list[tuple[int, int, int]]] = {}
    for track in mido.MidiFile(path).tracks:
        tick = 0
        seen: Counter[tuple[int, int, int]] = Counter()
        for message in track:
            tick += message.time
            if message.type == "control_change":
                seen[(tick, message.channel, message.control)] += 1
        twice = sorted(k for k, n in seen.items() if n > 1)
        if twice:
            clashes[track.name] = twice
    return clashes


@pytest.mark.parametrize("seed", [1, 2])
def test_a_uk_garage_song_never_carries_two_ramps_of_one_controller_at_once(
    tmp_path: Path, seed: int
) -> None:
    files = _composed_midi(tmp_path, "uk garage, 2-step, late night", seed)
    assert files, "the session wrote no MIDI"
    for path in files:
        assert _same_tick_controller_events(path) == {}, path.name
