"""A second seed is a new song: another progression of the genre's library, on the MIDI file.

Producers press "another take" to hear a different song. Seeds walk one weighted
order of the genre's fitting progressions, so consecutive seeds never land on the
same one while the likelier progressions still come first.
"""

from __future__ import annotations

import random
from pathlib import Path

import mido
import pytest

from muse_tui.compose.intent.decompose import decompose
from muse_tui.compose.progression_pick import pick_from_library
from muse_tui.compose.section_harmony import song_progression
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages
from muse_tui.knowledge.genres import genre_table
from muse_tui.knowledge.progressions import progression_table
from muse_tui.theory import Key

PROMPTS = [
    "country ballad in G major",
    "funk in E minor",
    "afrobeats in A minor",
    "metal in D minor",
]


def main_chords(prompt: str, seed: int) -> list[str]:
    intent = decompose(prompt).intent
    progression = song_progression(intent, derive_rng(seed, 2, "progression", 0), take=seed)
    return [chord.symbol for chord in progression.chords]


@pytest.mark.parametrize("prompt", PROMPTS)
def test_consecutive_seeds_play_different_progressions(prompt: str) -> None:
    takes = [main_chords(prompt, seed) for seed in (1, 2, 3)]

    assert takes[0] != takes[1] and takes[1] != takes[2]


def test_the_walk_visits_every_fitting_progression_once_before_repeating() -> None:
    table, key = progression_table(), Key("A", "minor")
    picks = [
        pick_from_library("trap", key, 0.3, (1, 16), random.Random(seed), table, take=seed)
        for seed in range(40)
    ]
    cycle = len({id(p) for p in picks})

    assert cycle > 2
    assert len({id(p) for p in picks[:cycle]}) == cycle  # every one once, then again
    assert picks[cycle] is picks[0]


def test_likelier_progressions_come_first_across_genres_and_keys() -> None:
    # Over many (genre, key) orders, the first take is a heavier progression than the last.
    table, first, last = progression_table(), 0.0, 0.0
    for genre in ("pop", "trap", "house", "jazz", "rock", "reggae", "country", "funk"):
        length = genre_table().get(genre).progression_length  # jazz's are 32-bar forms
        # Every key: the orders are random, and seven keys were too few to hold the average.
        for tonic in ("C", "Db", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"):
            picks = [
                pick_from_library(
                    genre, Key(tonic, "major"), 1.0, length, random.Random(0), table, take=n
                )
                for n in range(60)
            ]
            cycle = len({id(p) for p in picks if p})
            if cycle > 1:
                first += picks[0].weight
                last += picks[cycle - 1].weight
    assert first > last


def _chord_bars(session: Path) -> list[frozenset[int]]:
    midi = mido.MidiFile(session / "midi" / "full-arrangement.mid")
    ppq, bars = midi.ticks_per_beat, {}
    for track in midi.tracks:
        tick = 0
        for msg in track:
            tick += msg.time
            if msg.type == "note_on" and msg.velocity and msg.channel != 9:
                bars.setdefault(tick // (4 * ppq), set()).add(msg.note % 12)
    return [frozenset(bars[b]) for b in sorted(bars)]


def test_two_seeds_of_one_prompt_are_two_songs_in_the_midi_file(tmp_path: Path) -> None:
    engine = Orchestrator(product_stages(), tmp_path)
    songs = []
    for seed in (1, 2):
        run = run_blocking(
            engine.run("funk in E minor", seed=seed, config=PipelineConfig(approval_gates=[]))
        )
        assert run.status == "completed"
        songs.append(_chord_bars(tmp_path / run.session_id))
    shared = sum(a == b for a, b in zip(*songs, strict=False))

    assert shared < 0.5 * min(len(s) for s in songs)
