"""Chord symbols: canonical spelling, qualities, transposition, note names, errors."""

from __future__ import annotations

import pytest

from muse_tui.theory import Chord, ChordSyntaxError, parse_chord


@pytest.mark.parametrize(
    ("written", "canonical", "quality"),
    [
        ("C", "C", "maj"),
        ("Cmaj", "C", "maj"),
        ("Cmin", "Cm", "m"),
        ("C-", "Cm", "m"),
        ("Co", "Cdim", "dim"),
        ("C+", "Caug", "aug"),
        ("C5", "C5", "5"),
        ("C69", "C6/9", "6/9"),
        ("CMaj7", "Cmaj7", "maj7"),
        ("CM7", "Cmaj7", "maj7"),
        ("CΔ", "Cmaj7", "maj7"),
        ("C∆7", "Cmaj7", "maj7"),
        ("Cma7", "Cmaj7", "maj7"),
        ("C-7", "Cm7", "m7"),
        ("Cm(maj7)", "CmMaj7", "mMaj7"),
        ("C-Δ7", "CmMaj7", "mMaj7"),
        ("Cø", "Cm7b5", "m7b5"),
        ("Cø7", "Cm7b5", "m7b5"),
        ("Co7", "Cdim7", "dim7"),
        ("C+7", "Caug7", "aug7"),
        ("C7#5", "Caug7", "aug7"),
        ("C7+5", "Caug7", "aug7"),
        ("Csus", "Csus4", "sus4"),
        ("C9sus4", "C9sus4", "9sus4"),
        ("CM9", "Cmaj9", "maj9"),
        ("Cmin11", "Cm11", "m11"),
        ("C2", "Cadd9", "add9"),
        ("C7(b9,#11)", "C7b9#11", "7b9#11"),
        ("C7(b9 #11)", "C7b9#11", "7b9#11"),
        ("C7-9", "C7b9", "7b9"),
        ("C7(13)", "C7add13", "7add13"),
        ("Calt", "C7alt", "7alt"),
        ("C(b5)", "C(b5)", "b5"),
        ("C7♭9", "C7b9", "7b9"),
        ("C♯m7", "C#m7", "m7"),
        ("Gmaj/E", "G/E", "maj"),
        ("Dbmaj7/F", "Dbmaj7/F", "maj7"),
        ("C/C", "C", "maj"),
        ("bbm7", "Bbm7", "m7"),
    ],
)
def test_canonical_symbols(written: str, canonical: str, quality: str) -> None:
    chord = parse_chord(written)
    assert chord.symbol == canonical
    assert chord.quality == quality
    assert parse_chord(canonical) == chord
    assert str(chord) == canonical


def test_aliases_are_the_same_chord() -> None:
    assert parse_chord("Cø7") == parse_chord("Cm7b5") == parse_chord("Cmin7b5")
    assert parse_chord("Caug7") == parse_chord("C7#5") == parse_chord("C+7")
    assert parse_chord("C6/9") == parse_chord("C6add9") == parse_chord("C69")
    assert parse_chord("C#") != parse_chord("Db")  # different spellings, different symbols


def test_chord_parts() -> None:
    chord = parse_chord("Dbmaj7/F")
    assert chord.root_name == "Db"
    assert chord.root_pc == 1
    assert chord.bass_name == "F"
    assert chord.bass_pc == 5
    assert chord.intervals == (0, 4, 7, 11)
    assert chord.pitch_classes == {1, 5, 8, 0}
    assert parse_chord("C9").intervals == (0, 4, 7, 10, 14)  # the ninth keeps its octave
    assert parse_chord("C/D").pitch_classes == {0, 2, 4, 7}  # the slash bass counts
    assert parse_chord("Am").is_minor and not parse_chord("A7sus4").is_minor


@pytest.mark.parametrize(
    ("symbol", "key", "names"),
    [
        ("Cm7", None, ("C", "Eb", "G", "Bb")),
        ("C7#9", None, ("C", "E", "G", "Bb", "D#")),
        ("C7b9", None, ("C", "E", "G", "Bb", "Db")),
        ("Cdim7", None, ("C", "Eb", "Gb", "A")),  # Bbb reads as A
        ("F#7", None, ("F#", "A#", "C#", "E")),
        ("Abm7add11", None, ("Ab", "Cb", "Eb", "Gb", "Db")),
        ("Am7/G", None, ("G", "A", "C", "E")),
        ("C/E", None, ("E", "C", "G")),
        ("Gb7", "Db", ("Gb", "Bb", "Db", "Fb")),
        ("C#m", "E", ("C#", "E", "G#")),
        ("A7", "C", ("A", "C#", "E", "G")),
    ],
)
def test_tones(symbol: str, key: str | None, names: tuple[str, ...]) -> None:
    assert parse_chord(symbol).tones(key) == names


@pytest.mark.parametrize(
    ("symbol", "semitones", "result"),
    [
        ("C", 1, "Db"),
        ("Cm", 1, "C#m"),
        ("Cm7", 3, "Ebm7"),
        ("C7", 6, "F#7"),
        ("Am", 11, "G#m"),
        ("Am7/G", 1, "Bbm7/Ab"),
        ("C/E", 2, "D/F#"),
        ("G7b9", 5, "C7b9"),
        ("F#m7b5", -1, "Fm7b5"),
        ("C#", 12, "C#"),
        ("C#", 0, "C#"),
        ("Bbmaj9", 2, "Cmaj9"),
        ("Dbmaj7/F", -1, "Cmaj7/E"),
        ("Eb", 3, "F#"),
    ],
)
def test_transpose_respells(symbol: str, semitones: int, result: str) -> None:
    assert parse_chord(symbol).transpose(semitones).symbol == result


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("Cmaj7q", "unexpected 'q' at position 5 in 'Cmaj7q'"),
        ("Cq", "unexpected 'q' at position 1 in 'Cq'"),
        ("H7", "unexpected 'H' at position 0 in 'H7'"),
        ("C7b3", "unexpected 'b3' at position 2 in 'C7b3'"),
        ("Cadd8", "unexpected 'add8' at position 1 in 'Cadd8'"),
        ("Csus3", "unexpected 'sus3' at position 1 in 'Csus3'"),
        ("C7no9", "unexpected 'no9' at position 2 in 'C7no9'"),
        ("C/H", "expected a bass note after '/' at position 1 in 'C/H'"),
        ("Am7/", "expected a bass note after '/' at position 3 in 'Am7/'"),
        ("C7(b9", "missing ')' for the '(' at position 2 in 'C7(b9'"),
        ("Cm7/Gx", "unexpected 'x' at position 5 in 'Cm7/Gx'"),
        ("Cmaj7#", "unexpected '#' at position 5 in 'Cmaj7#'"),
        ("", "empty chord symbol"),
        ("   ", "empty chord symbol"),
    ],
)
def test_syntax_errors_say_where(bad: str, message: str) -> None:
    with pytest.raises(ChordSyntaxError) as caught:
        parse_chord(bad)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_chords_can_be_built_from_tones() -> None:
    chord = Chord("Eb", frozenset({(1, 0), (3, -1), (5, 0), (7, -1)}), "Db")
    assert chord.symbol == "Ebm7/Db"
    with pytest.raises(ValueError):
        Chord("C", frozenset({(1, 0), (8, 0)}))
