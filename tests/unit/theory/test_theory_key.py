"""Keys, scales and spelling notes in a key."""

from __future__ import annotations

import pytest
from music21 import key as m21_key
from music21 import scale as m21_scale

from muse_tui.theory import (
    SCALE_STEPS,
    Key,
    KeySyntaxError,
    Scale,
    parse_key,
    scale_pitch_classes,
    spell,
    tonic_name,
)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("C", "C major"),
        ("Am", "A minor"),
        ("A minor", "A minor"),
        ("F# minor", "F# minor"),
        ("F#m", "F# minor"),
        ("Ebm", "Eb minor"),
        ("E♭m", "Eb minor"),
        ("D dorian", "D dorian"),
        ("Bb major", "Bb major"),
        ("C#", "C# major"),
        ("c#", "C# major"),
        ("bb min", "Bb minor"),
        ("G Major", "G major"),
        ("E  phrygian", "E phrygian"),
        ("F lydian", "F lydian"),
        ("G mixolydian", "G mixolydian"),
        ("B locrian", "B locrian"),
        ("C ionian", "C major"),
        ("A aeolian", "A minor"),
        ("A harmonic minor", "A harmonic minor"),
        ("C melodic minor", "C melodic minor"),
        ("A harmonic_minor", "A harmonic minor"),  # as genre DNA spells the mode
        ("F# natural-minor", "F# minor"),
        ("DbM", "Db major"),
        ("Cbmaj", "Cb major"),
    ],
)
def test_parse_key(text: str, name: str) -> None:
    assert parse_key(text).name == name


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("", "is not a key"),
        ("H", "is not a key"),
        ("minor", "is not a key"),  # "m" is not a note letter
        ("C#x", "unknown mode 'x'"),
        ("C lydian dominant", "unknown mode 'lydian dominant'"),
        ("Am7", "unknown mode 'm7'"),
        ("#C", "is not a key"),
    ],
)
def test_bad_keys_say_what_is_wrong(bad: str, message: str) -> None:
    with pytest.raises(KeySyntaxError, match=message):
        parse_key(bad)


def test_key_syntax_error_is_a_value_error() -> None:
    assert issubclass(KeySyntaxError, ValueError)
    with pytest.raises(KeySyntaxError):
        Key("C", "bebop")


def _music21_key(key: Key) -> m21_key.Key:
    tonic = key.tonic.replace("b", "-")
    return m21_key.Key(tonic if key.mode == "major" else tonic.lower(), key.mode)


@pytest.mark.parametrize(
    "text",
    ["C", "G", "D", "A", "E", "B", "F#", "C#", "F", "Bb", "Eb", "Ab", "Db", "Gb", "Cb", "Am",
     "Em", "Bm", "F#m", "C#m", "G#m", "D#m", "A#m", "Dm", "Gm", "Cm", "Fm", "Bbm", "Ebm", "Abm",
     "D dorian", "E phrygian", "F lydian", "G mixolydian", "B locrian", "Eb dorian"],
)  # fmt: skip
def test_key_notes_and_signature_match_music21(text: str) -> None:
    key = parse_key(text)
    theirs = _music21_key(key)
    assert key.note_names == tuple(p.name.replace("-", "b") for p in theirs.pitches[:7])
    if key.mode in ("major", "minor"):
        assert key.signature == theirs.sharps
        assert key.relative.tonic_pc == theirs.relative.tonic.pitchClass


def test_key_properties() -> None:
    key = parse_key("Eb minor")
    assert key.name == "Eb minor"
    assert key.tonic_name == "Eb"
    assert key.tonic_pc == 3
    assert key.pitch_classes == (3, 5, 6, 8, 10, 11, 1)
    assert key.degree_pc(1) == 3
    assert key.degree_pc(5) == 10
    assert key.degree_pc(9) == 5  # the ninth is the second
    assert key.contains(11) and not key.contains(2)
    assert key.relative == Key("Gb", "major")
    assert key.relative.relative == key
    assert key.parallel == Key("Eb", "major")
    assert key.signature == -6
    assert str(key) == "Eb minor"
    assert parse_key("D dorian").relative == Key("C", "major")
    assert parse_key("A harmonic minor").signature == 0  # G# is an accidental, not signature


SCALES_21 = {
    "major": m21_scale.MajorScale,
    "minor": m21_scale.MinorScale,
    "harmonic minor": m21_scale.HarmonicMinorScale,
    "melodic minor": m21_scale.MelodicMinorScale,  # its ascending form
    "dorian": m21_scale.DorianScale,
    "phrygian": m21_scale.PhrygianScale,
    "lydian": m21_scale.LydianScale,
    "mixolydian": m21_scale.MixolydianScale,
    "locrian": m21_scale.LocrianScale,
}


@pytest.mark.parametrize("kind", sorted(SCALES_21))
@pytest.mark.parametrize("tonic", ["C", "F#", "Bb"])
def test_scales_match_music21(kind: str, tonic: str) -> None:
    theirs = SCALES_21[kind](tonic.replace("b", "-"))
    pitches = theirs.getPitches(direction=m21_scale.Direction.ASCENDING)
    expected = tuple(p.pitchClass for p in pitches[:7])
    assert Scale(parse_key(tonic).tonic_pc, kind).pitch_classes == expected


def test_pentatonic_and_blues_scales() -> None:
    assert scale_pitch_classes(9, "minor pentatonic") == (9, 0, 2, 4, 7)
    assert scale_pitch_classes(0, "major pentatonic") == (0, 2, 4, 7, 9)
    assert scale_pitch_classes(9, "blues") == (9, 0, 2, 3, 4, 7)
    assert Scale(2, "Natural Minor").kind == "minor"
    assert Scale(0, "blues").degree_pc(4) == 6  # the blue note
    assert set(SCALE_STEPS) >= {"ionian", "aeolian", "locrian", "blues"}
    with pytest.raises(ValueError, match="unknown scale"):
        Scale(0, "bebop")


@pytest.mark.parametrize(
    ("pc", "key", "name"),
    [
        (10, "Eb", "Bb"),
        (6, "D", "F#"),
        (10, "F", "Bb"),
        (10, "D minor", "Bb"),
        (6, "G", "F#"),
        (6, "E minor", "F#"),
        (1, "F", "Db"),  # flat keys spell chromatic notes flat
        (8, "Bb", "Ab"),
        (3, "E", "D#"),  # sharp keys spell them sharp
        (10, "A", "A#"),
        (5, "F#", "E#"),  # the key's own notes keep their letters
        (11, "Gb", "Cb"),
        (1, "D minor", "C#"),  # the leading tone of a minor key is a raised seventh
        (0, "C# minor", "B#"),
        (11, "D minor", "B"),  # the raised sixth
        (4, "Eb", "E"),  # white keys outside the key stay natural
        (8, "C", "Ab"),  # no signature: the everyday choice
        (1, "C", "C#"),
        (8, "A minor", "G#"),
        (10, "C", "Bb"),
        (3, "A minor", "Eb"),
        (1, "D dorian", "C#"),
        (6, "C", "F#"),
    ],
)
def test_spell(pc: int, key: str, name: str) -> None:
    assert spell(pc, key) == name
    assert parse_key(key).spell(pc) == name


def test_tonic_names_take_the_simpler_signature() -> None:
    assert [tonic_name(pc) for pc in range(12)] == [
        "C", "Db", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B",
    ]  # fmt: skip
    assert [tonic_name(pc, "minor") for pc in range(12)] == [
        "C", "C#", "D", "Eb", "E", "F", "F#", "G", "G#", "A", "Bb", "B",
    ]  # fmt: skip
    assert tonic_name(3, "dorian") == "Eb"  # Eb dorian (5 flats) over D# dorian (7 sharps)
