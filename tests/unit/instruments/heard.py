"""Compose a prompt through the whole pipeline and read back what its MIDI plays."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import mido

from muse_tui.contracts import PipelineConfig, SongState
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages

DRUM_CHANNEL = 9


@dataclass
class HeardTrack:
    """One track of the written full-arrangement file: its name, program and notes."""

    name: str
    channel: int | None = None
    program: int | None = None
    pitches: list[int] = field(default_factory=list)


def compose(tmp_path: Path, prompt: str, seed: int = 1) -> tuple[SongState, list[HeardTrack]]:
    """The finished song and its full-arrangement MIDI, track by track."""
    engine = Orchestrator(product_stages(), tmp_path)
    config = PipelineConfig(approval_gates=[])
    pipeline = run_blocking(engine.run(prompt, seed=seed, config=config))
    assert pipeline.status == "completed", pipeline.status
    session = tmp_path / pipeline.session_id
    return pipeline.song_state, heard(session / "midi" / "full-arrangement.mid")


def heard(path: Path) -> list[HeardTrack]:
    tracks = []
    for smf_track in mido.MidiFile(str(path)).tracks:
        track = HeardTrack(smf_track.name)
        for message in smf_track:
            if message.type == "program_change":
                track.program = message.program
            elif message.type == "note_on" and message.velocity > 0:
                track.channel = message.channel
                track.pitches.append(message.note)
        if track.channel is not None:
            tracks.append(track)
    return tracks


def drum_hits(tracks: list[HeardTrack]) -> set[int]:
    """Every drum-channel key that sounds at least once."""
    return {p for t in tracks if t.channel == DRUM_CHANNEL for p in t.pitches}
