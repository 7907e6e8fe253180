"""Roman numerals agree with music21, and chords name themselves back as numerals."""

from __future__ import annotations

import warnings

import pytest
from music21 import roman

from muse_tui.theory import Key, RomanSyntaxError, parse_chord, parse_key, parse_roman, to_roman

MAJOR_KEYS = ("C", "G", "D", "A", "E", "B", "F#", "F", "Bb", "Eb", "Ab", "Db")
MINOR_KEYS = ("A minor", "E minor", "B minor", "F# minor", "C# minor", "D minor", "G minor",
              "C minor", "F minor", "Bb minor", "Eb minor")  # fmt: skip

MAJOR_NUMERALS = (
    # diatonic triads and their inversions
    "I", "ii", "iii", "IV", "V", "vi", "viio", "vii°", "I6", "I64", "ii6", "IV64", "V6", "V64",
    "vi64", "iii6",
    # sevenths and inversions
    "I7", "ii7", "iii7", "IV7", "V7", "vi7", "viiø7", "viio7", "V65", "V43", "V42", "V2",
    "ii65", "ii43", "ii42", "viio65", "viio43", "viio42", "iiø7", "iiø65", "iio", "iio7",
    "Imaj7", "IM7", "IMaj7", "V9", "ii9",
    # borrowed from the parallel minor, Neapolitan, chromatic roots
    "iv", "iv6", "iv7", "i", "i7", "v", "v7", "bIII", "bVI", "bVII", "bII", "bII6", "N6", "N",
    "bVI7", "bIII7", "bII7", "#iv", "#ivo", "#ivø7", "#ivo7", "II", "III", "VI", "III+", "V+",
    "I+",
    # secondary functions
    "V/V", "V7/V", "V65/V", "V43/V", "V/ii", "V7/ii", "V/iii", "V7/iii", "V/IV", "V7/IV",
    "V2/IV", "V/vi", "V7/vi", "viio7/V", "viio7/ii", "viio/vi", "viiø7/V", "viio65/V", "V/V/V",
    "V7/bVI", "V/bIII",
)  # fmt: skip

MINOR_NUMERALS = (
    "i", "iio", "III", "iv", "V", "v", "VI", "VII", "viio", "i6", "i64", "iv6", "iv64", "V6",
    "V64", "VI6", "III6", "VII6", "v6", "i7", "iiø7", "iiø65", "iiø43", "III7", "iv7", "V7",
    "VI7", "VII7", "viio7", "V65", "V43", "V42", "V2", "viio65", "viio43", "viio42", "iio7",
    "V9", "i9", "III+",
    # raised and lowered sixth and seventh degrees (music21's CAUTIONARY reading)
    "vi", "vio", "#vio", "vii", "bVI", "bVII", "bVI7", "bVII7",
    # borrowed from the parallel major, Neapolitan, chromatic
    "I", "I7", "IV", "IV7", "ii", "ii7", "II", "bII", "bII6", "N6", "N", "bII7", "#iv",
    "#ivo7",
    # secondary functions
    "V/V", "V7/V", "V/III", "V7/III", "V/iv", "V7/iv", "V/VI", "V7/VI", "V/VII", "viio7/V",
    "viio7/iv", "V7/V/V", "iv7/iv", "V/bVI", "V/bVII",
)  # fmt: skip


def _cases() -> list[tuple[str, str]]:
    """Each numeral in three keys: walking the key lists so sharps and flats both appear."""
    cases = []
    for keys, numerals in ((MAJOR_KEYS, MAJOR_NUMERALS), (MINOR_KEYS, MINOR_NUMERALS)):
        for index, numeral in enumerate(numerals):
            for step in (0, 4, 8):
                cases.append((numeral, keys[(index + step) % len(keys)]))
    return cases


CASES = _cases()


def _music21_key(key: str) -> str:
    the_key = parse_key(key)
    tonic = the_key.tonic.replace("b", "-")
    return tonic if the_key.mode == "major" else tonic.lower()


def _music21(numeral: str, key: str) -> tuple[frozenset[int], int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # CAUTIONARY: "#vi" and "vi" (and "bVI" and "VI") mean the same chord in minor,
        # the reading we use; music21's default would stack a second sharp or flat.
        numeral_21 = roman.RomanNumeral(
            numeral,
            _music21_key(key),
            sixthMinor=roman.Minor67Default.CAUTIONARY,
            seventhMinor=roman.Minor67Default.CAUTIONARY,
        )
    return frozenset(p.pitchClass for p in numeral_21.pitches), numeral_21.bass().pitchClass


def test_enough_numerals_are_checked() -> None:
    assert len(set(MAJOR_NUMERALS)) + len(set(MINOR_NUMERALS)) >= 150
    assert len(set(MAJOR_NUMERALS) | set(MINOR_NUMERALS)) >= 60
    assert len(CASES) == len(set(CASES))


@pytest.mark.parametrize(("numeral", "key"), CASES, ids=lambda value: value.replace(" ", "_"))
def test_pitch_classes_and_bass_match_music21(numeral: str, key: str) -> None:
    chord = parse_roman(numeral, key)
    pitch_classes, bass = _music21(numeral, key)
    assert chord.pitch_classes == pitch_classes, chord.symbol
    assert chord.bass_pc == bass, chord.symbol


@pytest.mark.parametrize(("numeral", "key"), CASES, ids=lambda value: value.replace(" ", "_"))
def test_to_roman_names_the_same_chord(numeral: str, key: str) -> None:
    chord = parse_roman(numeral, key)
    again = parse_roman(to_roman(chord, key), key)
    assert again.pitch_classes == chord.pitch_classes
    assert again.bass_pc == chord.bass_pc


@pytest.mark.parametrize(
    ("numeral", "key", "symbol", "why"),
    [
        # music21 lowers the minor key's own (already flat) third: C-flat in A minor.
        ("bIII", "A minor", "C", "a flat lowers the parallel major's degree"),
        ("bIII", "C minor", "Eb", "the same chord as bIII in C major"),
        ("bIII", "C", "Eb", "the same chord as bIII in C minor"),
        # music21 takes the seventh from the unaltered degree (B-A): Bbmaj7.
        ("bVII7", "C", "Bb7", "the backdoor dominant, seventh from C minor"),
        ("bVII7", "Eb", "Db7", "the backdoor dominant, seventh from Eb minor"),
        # music21 ignores "maj" in minor keys and keeps the key's G.
        ("Imaj7", "A minor", "Amaj7", "maj7 always means a major seventh"),
        ("IM7", "F# minor", "F#maj7", "maj7 always means a major seventh"),
    ],
)
def test_documented_departures_from_music21(numeral: str, key: str, symbol: str, why: str) -> None:
    assert parse_roman(numeral, key) == parse_chord(symbol), why


@pytest.mark.parametrize(
    ("numeral", "key", "symbol"),
    [
        ("V7", "C", "G7"),
        ("viio7", "A minor", "G#dim7"),
        ("V", "A minor", "E"),
        ("VII", "A minor", "G"),
        ("bVII", "A minor", "G"),
        ("ii65", "C", "Dm7/F"),
        ("V42", "Bb", "F7/Eb"),
        ("I64", "D", "D/A"),
        ("N6", "C minor", "Db/F"),
        ("V7/ii", "C", "A7"),
        ("viio7/V", "G", "C#dim7"),
        ("iv", "E", "Am"),
        ("bVI", "Eb", "Cb"),
        ("#ivø7", "F", "Bm7b5"),
        ("V7b9", "C", "G7b9"),
        ("Vsus4", "D", "Asus4"),
        ("Iadd9", "F", "Fadd9"),
        ("ii7", "D dorian", "Em7"),
        ("IV", "D dorian", "G"),
        ("bVII", "E mixolydian", "D"),
    ],
)
def test_numerals_spell_their_chords(numeral: str, key: str, symbol: str) -> None:
    assert parse_roman(numeral, key) == parse_chord(symbol)


def test_key_objects_and_key_names_give_the_same_chords() -> None:
    assert parse_roman("V7/V", Key("F#", "minor")) == parse_roman("V7/V", "F#m")


@pytest.mark.parametrize(
    ("symbol", "key", "numeral"),
    [
        ("G7", "C", "V7"),
        ("Cmaj7", "C", "I7"),
        ("Dm7/F", "C", "ii65"),
        ("G7/F", "C", "V42"),
        ("C/E", "C", "I6"),
        ("Bm7b5", "C", "viiø7"),
        ("Bdim7", "C", "viio7"),
        ("D", "C", "V/V"),
        ("D7", "C", "V7/V"),
        ("E7", "C", "V7/vi"),
        ("A7", "C", "V7/ii"),
        ("C7", "C", "V7/IV"),
        ("Fm", "C", "iv"),
        ("Ab", "C", "bVI"),
        ("Bb", "C", "bVII"),
        ("Eb", "C", "bIII"),
        ("Db", "C", "bII"),
        ("F#m", "C", "#iv"),
        ("E", "A minor", "V"),
        ("E7", "A minor", "V7"),
        ("G#dim7", "A minor", "viio7"),
        ("G", "A minor", "VII"),
        ("F", "A minor", "VI"),
        ("Bm7b5", "A minor", "iiø7"),
        ("Bb", "F", "IV"),
        ("C7", "F", "V7"),
        ("Gb", "Db", "IV"),
        ("G7b9", "C", "V7b9"),
        ("Gsus4", "C", "Vsus4"),
        ("Cadd9", "C", "Iadd9"),
        ("G9", "C", "V9"),
    ],
)
def test_to_roman(symbol: str, key: str, numeral: str) -> None:
    assert to_roman(parse_chord(symbol), key) == numeral


@pytest.mark.parametrize("bad", ["X", "VIII", "Vq", "H7", "", "V/", "Imaj"])
def test_bad_numerals_are_rejected(bad: str) -> None:
    with pytest.raises(RomanSyntaxError):
        parse_roman(bad, "C")


def test_a_bad_numeral_says_what_is_wrong() -> None:
    with pytest.raises(RomanSyntaxError, match=r"unexpected 'q' at position 2 in 'V7q'"):
        parse_roman("V7q", "C")
