"""A key change is written in the MIDI file: a key signature where the key moves.

A notation program or a DAW reads the key from the conductor track; a last chorus up
a step that still says C major is spelled wrong in every score made from the file.
"""

from __future__ import annotations

from pathlib import Path

import mido
import pytest

from muse_tui.contracts import PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages

#: (prompt, the song's key signature, the one from the key change on)
CASES = [
    ("pop song in C major with piano, bass and drums, key change up a step for the last chorus",
     "C", "D"),
    ("rock ballad in E minor, modulate up a half step for the final chorus", "Em", "Fm"),
]  # fmt: skip


def _conductor(session: Path) -> tuple[list[tuple[int, str]], list[tuple[int, str]], int]:
    """(key signatures, markers) as (bar, text), and the bars the notes span."""
    midi = mido.MidiFile(session / "midi" / "full-arrangement.mid")
    bar = 4 * midi.ticks_per_beat
    keys, markers, tick, end = [], [], 0, 0
    for msg in midi.tracks[0]:
        tick += msg.time
        if msg.type == "key_signature":
            keys.append((tick // bar, msg.key))
        elif msg.type == "marker":
            markers.append((tick // bar, msg.text))
    for track in midi.tracks[1:]:
        tick = 0
        for msg in track:
            tick += msg.time
            end = max(end, tick)
    return keys, markers, end // bar


@pytest.mark.parametrize(("prompt", "home", "moved"), CASES)
def test_the_key_signature_changes_where_the_key_does(
    tmp_path: Path, prompt: str, home: str, moved: str
) -> None:
    engine = Orchestrator(product_stages(), tmp_path)
    run = run_blocking(engine.run(prompt, seed=1, config=PipelineConfig(approval_gates=[])))
    assert run.status == "completed"
    keys, markers, _ = _conductor(tmp_path / run.session_id)

    last_chorus = max(bar for bar, name in markers if name.startswith("Chorus"))
    assert keys == [(0, home), (last_chorus, moved)]


def test_a_song_without_a_key_change_has_one_key_signature(tmp_path: Path) -> None:
    engine = Orchestrator(product_stages(), tmp_path)
    run = run_blocking(
        engine.run("pop song in A major", seed=1, config=PipelineConfig(approval_gates=[]))
    )
    assert run.status == "completed"
    keys, _, _ = _conductor(tmp_path / run.session_id)

    assert keys == [(0, "A")]
