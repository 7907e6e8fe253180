"""Every .mid we write opens in three independent parsers, and music21 hears the right key."""

from __future__ import annotations

from pathlib import Path

import mido
import pretty_midi
import pytest
from music21 import converter

from muse_tui.store.smf import write_song_midi
from muse_tui.theory import parse_key
from tests.io.songs import build_song, three_sections

# Ten keys and modes; for a mode, music21 (major/minor only) may name its tonic or its parent.
KEYS = [
    ("C", "major"),
    ("G", "major"),
    ("Eb", "major"),
    ("B", "major"),
    ("A", "minor"),
    ("F#", "minor"),
    ("C", "minor"),
    ("Bb", "minor"),
    ("D", "dorian"),
    ("G", "mixolydian"),
]


def _written(tmp_path: Path, tonic: str, mode: str) -> list[Path]:
    song = build_song(tonic, mode, arrangement=three_sections(), title=f"{tonic} {mode}")
    folder = tmp_path / f"{tonic}-{mode}"
    return [folder / f.path for f in write_song_midi(folder, song) if f.type == "midi"]


def _accepted(tonic: str, mode: str) -> set[tuple[int, str]]:
    key = parse_key(f"{tonic} {mode}")
    third = "minor" if key.scale.pitch_classes[2] - key.tonic_pc in (3, -9) else "major"
    as_major_minor = parse_key(f"{tonic} {third}")
    candidates = {as_major_minor, as_major_minor.relative, key.relative}
    return {(k.tonic_pc, k.mode) for k in candidates}


@pytest.mark.slow
def test_every_file_opens_in_mido_pretty_midi_and_music21(tmp_path: Path) -> None:
    paths = _written(tmp_path, "Eb", "major")
    assert len(paths) == 5
    for path in paths:
        strict = mido.MidiFile(path, clip=False)
        assert strict.type == 1
        assert pretty_midi.PrettyMIDI(str(path)).instruments
        assert converter.parse(path).flatten().notes


@pytest.mark.slow
def test_music21_names_the_requested_key_for_nine_songs_in_ten(tmp_path: Path) -> None:
    heard = {}
    for tonic, mode in KEYS:
        full = _written(tmp_path, tonic, mode)[0]
        assert full.name == "full-arrangement.mid"
        analysed = converter.parse(full).analyze("key")
        found = (analysed.tonic.pitchClass, analysed.mode)
        heard[f"{tonic} {mode}"] = (str(analysed), found in _accepted(tonic, mode))
    right = [name for name, (_, ok) in heard.items() if ok]
    assert len(right) >= 9, heard
