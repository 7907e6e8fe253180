"""Properties of chord symbols over generated roots × qualities × tensions × slash basses."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from muse_tui.theory import Key, parse_chord, parse_roman, to_roman

ROOTS = ["C", "C#", "Db", "D", "D#", "Eb", "E", "F", "F#", "Gb", "G", "G#", "Ab", "A", "A#",
         "Bb", "B", "Cb", "Fb", "E#", "B#", "E♭", "F♯"]  # fmt: skip
QUALITIES = [
    "", "maj", "M", "m", "min", "-", "dim", "o", "°", "aug", "+", "5", "6", "m6", "6/9", "69",
    "m6/9", "7", "9", "11", "13", "maj7", "M7", "Maj7", "Δ", "Δ7", "ma7", "maj9", "maj11",
    "maj13", "m7", "min7", "-7", "m9", "m11", "m13", "mMaj7", "m(maj7)", "mM7", "-Δ7",
    "mMaj9", "m7b5", "ø", "ø7", "dim7", "o7", "aug7", "+7", "maj7#5", "7alt", "alt", "2",
]  # fmt: skip
TENSIONS = ["b9", "#9", "#11", "b13", "b5", "#5", "add9", "add11", "add13", "add2", "add4",
            "add6", "sus4", "sus2", "sus", "no3", "no5"]  # fmt: skip


@st.composite
def symbols(draw) -> str:
    root = draw(st.sampled_from(ROOTS))
    quality = draw(st.sampled_from(QUALITIES))
    tensions = draw(st.lists(st.sampled_from(TENSIONS), max_size=3, unique=True))
    bracketed = draw(st.booleans())
    text = "".join(tensions)
    if tensions and (bracketed or (quality == "" and tensions[0][0] in "b#")):
        # "Cb5" would be a C-flat power chord: a bare alteration after the root needs brackets.
        text = "(" + ",".join(tensions) + ")"
    bass = draw(st.one_of(st.none(), st.sampled_from(ROOTS)))
    return root + quality + text + (f"/{bass}" if bass else "")


@settings(max_examples=500, deadline=None)
@given(symbols())
def test_symbol_round_trip_is_stable(symbol: str) -> None:
    chord = parse_chord(symbol)
    again = parse_chord(chord.symbol)
    assert again == chord
    assert again.symbol == chord.symbol
    assert again.pitch_classes == chord.pitch_classes
    assert chord.root_pc in chord.pitch_classes
    assert chord.bass_pc in chord.pitch_classes


@settings(max_examples=500, deadline=None)
@given(symbols(), st.integers(min_value=-24, max_value=24))
def test_transposition_commutes_with_parsing(symbol: str, semitones: int) -> None:
    chord = parse_chord(symbol)
    moved = chord.transpose(semitones)
    assert moved.pitch_classes == {(pc + semitones) % 12 for pc in chord.pitch_classes}
    assert moved.intervals == chord.intervals
    assert moved.quality == chord.quality
    assert parse_chord(moved.symbol) == moved
    assert moved.transpose(-semitones).pitch_classes == chord.pitch_classes


@settings(max_examples=300, deadline=None)
@given(symbols(), st.sampled_from([None, "C", "Eb", "F# minor", "Bb minor", "D dorian"]))
def test_tone_names_spell_the_chord(symbol: str, key: str | None) -> None:
    chord = parse_chord(symbol)
    names = chord.tones(key)
    assert {parse_chord(name).root_pc for name in names} == chord.pitch_classes
    assert parse_chord(names[0]).root_pc == chord.bass_pc


KEYS = [Key(tonic, mode) for tonic in ("C", "A", "Eb", "F#", "Bb") for mode in ("major", "minor")]
NUMERALS = ["I", "ii", "iii", "IV", "V", "vi", "viio", "i", "iio", "III", "iv", "v", "VI", "VII",
            "bII", "bIII", "bVI", "bVII", "#iv", "V/V", "V/ii", "V/vi", "viio/V"]  # fmt: skip
FIGURES = ["", "6", "64", "7", "65", "43", "42"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(KEYS), st.sampled_from(NUMERALS), st.sampled_from(FIGURES))
def test_to_roman_and_parse_roman_agree(key: Key, numeral: str, figure: str) -> None:
    head, slash, target = numeral.partition("/")
    chord = parse_roman(head + figure + slash + target, key)
    written = to_roman(chord, key)
    again = parse_roman(written, key)
    assert again.pitch_classes == chord.pitch_classes
    assert again.bass_pc == chord.bass_pc


@settings(max_examples=300, deadline=None)
@given(symbols(), st.sampled_from([*KEYS, Key("D", "dorian"), Key("G", "mixolydian")]))
@example("Cdim7add9no5#5", Key("C", "major"))  # a dim7 whose fifth moved is still a dim7 (io9no5#5)
def test_every_chord_has_a_numeral(symbol: str, key: Key) -> None:
    chord = parse_chord(symbol)
    again = parse_roman(to_roman(chord, key), key)
    assert again.root_pc == chord.root_pc
    # A slash bass no figure can show is left out; everything else comes back.
    root_position = {(chord.root_pc + interval) % 12 for interval in chord.intervals}
    assert again.pitch_classes in (chord.pitch_classes, root_position)
