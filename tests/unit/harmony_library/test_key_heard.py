"""The key a listener hears is the key asked: music21 reads the composed MIDI file."""

from __future__ import annotations

import random
from pathlib import Path

import mido
import pytest

from muse_tui.compose.arrangement import chords_for_section
from muse_tui.compose.harmony import generate_progression
from muse_tui.compose.intent import decompose
from muse_tui.contracts import PipelineConfig
from muse_tui.contracts.song import Section
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages

DRUM_CHANNEL = 9


def test_an_outro_ends_on_the_tonic() -> None:
    progression = generate_progression(decompose("pop in C major").intent, random.Random(3))
    outro = Section(name="Outro", kind="outro", start_bar=32, bars=4, energy=0.3)
    outro = outro.model_copy(update={"chord_plan": "subset"})
    last = chords_for_section(outro, progression)[-1].chord
    assert last.symbol.startswith("C") and "/" not in last.symbol and "m" not in last.symbol


def pitched_durations(midi_path: Path) -> list[float]:
    """Each pitch class's total sounding time (beats) over the file's pitched channels."""
    midi = mido.MidiFile(str(midi_path))
    weights = [0.0] * 12
    for track in midi.tracks:
        tick, started = 0, {}
        for msg in track:
            tick += msg.time
            if msg.type not in ("note_on", "note_off") or msg.channel == DRUM_CHANNEL:
                continue
            if msg.type == "note_on" and msg.velocity > 0:
                started[msg.note] = tick
            elif msg.note in started:
                weights[msg.note % 12] += (tick - started.pop(msg.note)) / midi.ticks_per_beat
    return weights


@pytest.mark.parametrize(
    ("prompt", "tonic", "mode"),
    [
        ("dark trap, 140, key of Am", "A", "minor"),
        ("gospel in Ab major with organ", "A-", "major"),
        # Once heard in iv (Bb minor): its intro and outro played only iv-v, and the
        # keys' stabs dropped the v chord's G for an octave-doubled C.
        ("deep house in F minor, 122 BPM", "F", "minor"),
    ],
)
def test_music21_hears_the_asked_key_in_the_midi(
    tmp_path: Path, prompt: str, tonic: str, mode: str
) -> None:
    from music21 import note, stream  # imported late: it takes a second or two

    engine = Orchestrator(product_stages(), tmp_path)
    pipeline = run_blocking(engine.run(prompt, seed=1, config=PipelineConfig(approval_gates=[])))
    weights = pitched_durations(tmp_path / pipeline.session_id / "midi" / "full-arrangement.mid")
    # One note per pitch class, as long as all of them together: what music21 sums anyway.
    score = stream.Stream()
    for pc, weight in enumerate(weights):
        if weight > 0:
            score.append(note.Note(60 + pc, quarterLength=round(weight * 4) / 4 or 0.25))
    heard = score.analyze("key")
    assert (heard.tonic.name, heard.mode) == (tonic, mode)
