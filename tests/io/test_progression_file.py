"""`progression/main.progression`: MPC's JSON shape, and reading it back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from muse_tui.contracts import EnrichedProgression, ProgressionChord
from muse_tui.store.progression_file import (
    ProgressionFileError,
    progression_to_mpc,
    read_progression,
    write_progression,
)
from tests.io.songs import progression_in


def test_the_file_has_mpcs_shape(tmp_path: Path) -> None:
    progression = progression_in("A", "minor")
    entry = write_progression(tmp_path, progression, title="Late Night")
    assert entry.path == "progression/main.progression" and entry.type == "progression"
    data = json.loads((tmp_path / entry.path).read_text())
    assert entry.size_bytes == (tmp_path / entry.path).stat().st_size
    body = data["progression"]
    assert list(data) == ["progression"]
    assert list(body) == ["name", "rootNote", "scale", "recordingOctave", "chords"]
    assert body["name"] == "Muse-Late Night"
    assert (body["rootNote"], body["scale"]) == ("A", "Minor")
    assert body["recordingOctave"] == 2
    assert [c["role"] for c in body["chords"]] == ["Root", "Normal", "Normal", "Normal"]
    assert [c["name"] for c in body["chords"]] == ["Am", "F", "Dm", "E"]
    assert [c["notes"] for c in body["chords"]] == [c.voicing for c in progression.chords]
    assert all(set(c) == {"name", "role", "notes"} for c in body["chords"])


def test_reading_it_back_gives_the_same_chords_and_key(tmp_path: Path) -> None:
    progression = progression_in("Eb", "major")
    write_progression(tmp_path, progression)
    back = read_progression(tmp_path / "progression" / "main.progression")
    assert (back.key, back.mode) == ("Eb", "major")
    assert [c.symbol for c in back.chords] == [c.symbol for c in progression.chords]
    assert [c.voicing for c in back.chords] == [c.voicing for c in progression.chords]
    assert [c.roman for c in back.chords] == ["I", "vi", "IV", "V"]


@pytest.mark.parametrize(
    ("key", "mode", "root", "scale"),
    [
        ("D", "dorian", "D", "Dorian"),
        ("F#", "harmonic minor", "F#", "Harmonic Minor"),
        ("Cb", "major", "B", "Major"),
        ("Bb", "mixolydian", "Bb", "Mixolydian"),
    ],
)
def test_root_and_scale_use_mpc_names(key: str, mode: str, root: str, scale: str) -> None:
    chords = [ProgressionChord(symbol="C", roman="I", voicing=[48, 52, 55], beats=4)]
    body = progression_to_mpc(EnrichedProgression(key=key, mode=mode, chords=chords))["progression"]
    assert (body["rootNote"], body["scale"]) == (root, scale)


def test_the_menu_name_has_one_hyphen_and_plain_text() -> None:
    body = progression_to_mpc(progression_in("C", "major"), title="Lo-fi\nnight — ♭ café")[
        "progression"
    ]
    assert body["name"].count("-") == 1
    assert body["name"].startswith("Muse-") and "\n" not in body["name"]
    assert body["name"].isascii()


def test_fancy_chord_symbols_are_written_plainly() -> None:
    chords = [
        ProgressionChord(symbol="B♭Δ7", roman="I", voicing=[58, 62, 65, 69], beats=4),
        ProgressionChord(symbol="Cø7", roman="ii", voicing=[60, 63, 66, 70], beats=4),
    ]
    body = progression_to_mpc(EnrichedProgression(key="Bb", mode="major", chords=chords))[
        "progression"
    ]
    assert [c["name"] for c in body["chords"]] == ["Bbmaj7", "Cm7b5"]


def test_an_mpc_factory_style_file_reads(tmp_path: Path) -> None:
    path = tmp_path / "Godly.progression"
    factory = {
        "progression": {
            "name": "Gospel-Godly",
            "rootNote": "E",
            "scale": "Pentatonic Minor",
            "recordingOctave": 2,
            "chords": [
                {"name": "Em", "role": "Root", "notes": [52, 59, 64, 67]},
                {"name": "B7/D#", "role": "Normal", "notes": [51, 59, 63, 66, 69]},
            ],
        }
    }
    path.write_text(json.dumps(factory))
    back = read_progression(path, chord_beats=8)
    assert (back.name, back.key, back.mode) == ("Gospel-Godly", "E", "minor")
    assert [c.voicing for c in back.chords] == [[52, 59, 64, 67], [51, 59, 63, 66, 69]]
    assert all(c.beats == 8 for c in back.chords)


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        '{"chords": []}',
        '{"progression": {"chords": []}}',
        '{"progression": {"chords": [{"name": "C"}]}}',
    ],
)
def test_a_broken_file_is_one_sentence(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.progression"
    path.write_text(content)
    with pytest.raises(ProgressionFileError) as caught:
        read_progression(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)
