"""Note names, MIDI numbers and intervals, checked against music21 where it has an answer."""

from __future__ import annotations

import pytest
from music21 import interval as m21_interval
from music21 import pitch as m21_pitch

from muse_tui.theory import (
    IntervalSyntaxError,
    NoteName,
    NoteSyntaxError,
    interval_name,
    interval_semitones,
    midi_to_name,
    name_to_midi,
    note_name,
    parse_note,
    pitch_class,
)


@pytest.mark.parametrize(
    ("text", "pc", "canonical"),
    [
        ("C", 0, "C"),
        ("c", 0, "C"),
        ("C#", 1, "C#"),
        ("c♯", 1, "C#"),
        ("Db", 1, "Db"),
        ("E♭", 3, "Eb"),
        ("e♭", 3, "Eb"),
        ("F##", 7, "F##"),
        ("Cb", 11, "Cb"),
        ("B#", 0, "B#"),
        ("Bbb", 9, "Bbb"),
        (" G ", 7, "G"),
        ("a", 9, "A"),
    ],
)
def test_note_names(text: str, pc: int, canonical: str) -> None:
    assert pitch_class(text) == pc
    assert parse_note(text).text == canonical
    assert parse_note(text).pitch_class == pc


@pytest.mark.parametrize("bad", ["", "H", "C$", "Cm", "#C", "do"])
def test_bad_note_names(bad: str) -> None:
    with pytest.raises(NoteSyntaxError):
        parse_note(bad)


def test_a_bad_note_name_says_where() -> None:
    with pytest.raises(NoteSyntaxError, match=r"unexpected '\$' at position 1"):
        parse_note("C$")


@pytest.mark.parametrize("midi", range(0, 128, 1))
def test_midi_names_match_music21(midi: int) -> None:
    ours = midi_to_name(midi)
    theirs = m21_pitch.Pitch(midi=midi)
    name = ours.rstrip("-0123456789")
    assert name_to_midi(ours) == midi
    assert int(ours[len(name) :]) == theirs.octave
    assert pitch_class(name) == theirs.pitchClass


@pytest.mark.parametrize(
    ("name", "midi"),
    [
        ("C4", 60),
        ("A4", 69),
        ("C-1", 0),
        ("G9", 127),
        ("Cb4", 59),  # the octave belongs to the letter: C-flat 4 is B3
        ("B#3", 60),
        ("Bb3", 58),
        ("F#2", 42),
        ("e♭5", 75),
    ],
)
def test_names_with_octaves(name: str, midi: int) -> None:
    assert name_to_midi(name) == midi
    if not name.endswith("-1"):  # music21 would read "C-1" as C-flat 1
        letter, rest = name[0], name[1:].replace("♭", "b")
        assert m21_pitch.Pitch(letter + rest.replace("b", "-")).midi == midi


def test_midi_to_name_follows_the_spelling_it_is_given() -> None:
    assert midi_to_name(59, "Cb") == "Cb4"
    assert midi_to_name(60, "B#") == "B#3"
    assert midi_to_name(61, "Db") == "Db4"
    with pytest.raises(ValueError, match="not a spelling"):
        midi_to_name(60, "D")


@pytest.mark.parametrize("bad", ["C", "H4", "C4x", "C12"])
def test_bad_names_with_octaves(bad: str) -> None:
    with pytest.raises(NoteSyntaxError):
        name_to_midi(bad)


def test_plain_note_names() -> None:
    assert [note_name(pc) for pc in range(12)] == [
        "C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B",
    ]  # fmt: skip
    assert note_name(10, flats=False) == "A#"
    assert note_name(1, flats=True) == "Db"
    assert NoteName("F", 2).pitch_class == 7


INTERVALS = [
    "P1", "m2", "M2", "A2", "m3", "M3", "d4", "P4", "A4", "d5", "P5", "A5", "m6", "M6", "d7",
    "m7", "M7", "P8", "m9", "M9", "A9", "m10", "M10", "P11", "A11", "P12", "m13", "M13", "m14",
    "M14", "P15",
]  # fmt: skip


@pytest.mark.parametrize("name", INTERVALS)
def test_interval_sizes_match_music21(name: str) -> None:
    assert interval_semitones(name) == m21_interval.Interval(name).semitones


@pytest.mark.parametrize("semitones", range(25))
def test_interval_names_round_trip(semitones: int) -> None:
    name = interval_name(semitones)
    assert interval_semitones(name) == semitones
    assert m21_interval.Interval(name).semitones == semitones


def test_common_interval_names() -> None:
    assert interval_name(6) == "A4"
    assert interval_semitones("d5") == 6
    assert [interval_name(n) for n in (13, 14, 17, 18, 20, 21)] == [
        "m9", "M9", "P11", "A11", "m13", "M13",
    ]  # fmt: skip


@pytest.mark.parametrize("bad", ["M5", "P3", "m4", "X3", "M0", "M16", "3", ""])
def test_bad_interval_names(bad: str) -> None:
    with pytest.raises(IntervalSyntaxError):
        interval_semitones(bad)
