"""Key detection agrees with music21's analyze("key") and finds the key we wrote in."""

from __future__ import annotations

import random
import warnings

import pytest
from music21 import chord as m21_chord
from music21 import note as m21_note
from music21 import stream

from muse_tui.theory import Key, detect_key, parse_roman, tonic_name, voice

Group = list[tuple[int, float]]


def _scale_and_cadence(key: Key) -> list[Group]:
    """A one-octave scale run in quarters, then I–IV–V–I (i–iv–V–i) in half notes."""
    tonic = 60 + key.tonic_pc
    groups: list[Group] = [[(tonic + step, 1.0)] for step in (*key.scale.steps, 12)]
    numerals = ("I", "IV", "V", "I") if key.mode == "major" else ("i", "iv", "V", "i")
    for numeral in numerals:
        notes = voice(parse_roman(numeral, key), "close", 48, 84)
        groups.append([(pitch, 2.0) for pitch in notes])
    return groups


def _music21_key(groups: list[Group]) -> tuple[int, str, float]:
    part = stream.Stream()
    for group in groups:
        element = (
            m21_note.Note(group[0][0])
            if len(group) == 1
            else m21_chord.Chord([pitch for pitch, _ in group])
        )
        element.quarterLength = group[0][1]
        part.append(element)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = part.analyze("key")
    return found.tonic.pitchClass, found.mode, found.correlationCoefficient


KEYS = [Key(tonic_name(pc, mode), mode) for mode in ("major", "minor") for pc in range(12)]


@pytest.mark.parametrize("key", KEYS, ids=lambda key: key.name.replace(" ", "_"))
def test_scale_and_cadence_agree_with_music21(key: Key) -> None:
    groups = _scale_and_cadence(key)
    estimate = detect_key([note for group in groups for note in group])
    tonic_pc, mode, correlation = _music21_key(groups)
    assert (estimate.tonic_pc, estimate.mode) == (tonic_pc, mode)
    assert (estimate.tonic_pc, estimate.mode) == (key.tonic_pc, key.mode)
    assert estimate.tonic_name == key.tonic
    assert estimate.confidence == pytest.approx(correlation)
    assert estimate.key == key


@pytest.mark.parametrize("profile", ["krumhansl", "temperley"])
@pytest.mark.parametrize("key", KEYS, ids=lambda key: key.name.replace(" ", "_"))
def test_other_profiles_find_the_same_keys(key: Key, profile: str) -> None:
    groups = _scale_and_cadence(key)
    estimate = detect_key([note for group in groups for note in group], profile)
    assert (estimate.tonic_pc, estimate.mode) == (key.tonic_pc, key.mode)


def test_random_melodies_agree_with_music21() -> None:
    """Forty seeded melodies of uneven notes: same key, same correlation."""
    rng = random.Random(20240611)
    for _ in range(40):
        groups = [
            [(rng.randint(48, 84), rng.choice((0.25, 0.5, 1.0, 1.5, 2.0, 3.0)))]
            for _ in range(rng.randint(6, 30))
        ]
        estimate = detect_key([note for group in groups for note in group])
        tonic_pc, mode, correlation = _music21_key(groups)
        assert estimate.confidence == pytest.approx(max(0.0, correlation))
        assert (estimate.tonic_pc, estimate.mode) == (tonic_pc, mode)


def test_longer_notes_weigh_more() -> None:
    # The same seven pitches: holding C-E-G says C major, holding A-C-E says A minor.
    melody = [60, 62, 64, 65, 67, 69, 71]
    on_c = [(pitch, 8.0 if pitch in (60, 64, 67) else 0.5) for pitch in melody]
    on_a = [(pitch, 8.0 if pitch in (69, 60, 64) else 0.5) for pitch in melody]
    assert detect_key(on_c).key == Key("C", "major")
    assert detect_key(on_a).key == Key("A", "minor")


def test_plain_midi_numbers_count_as_equal_durations() -> None:
    melody = [62, 66, 69, 74, 73, 71, 69, 67, 66, 64, 62]
    assert detect_key(melody) == detect_key([(pitch, 1.0) for pitch in melody])
    assert detect_key(melody).key == Key("D", "major")


def test_nothing_to_hear_is_an_error() -> None:
    with pytest.raises(ValueError, match="no sounding notes"):
        detect_key([])
    with pytest.raises(ValueError, match="unknown key profile"):
        detect_key([60], "bellman")
