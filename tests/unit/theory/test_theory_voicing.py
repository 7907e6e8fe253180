"""Voicings and voice leading: register, chord tones, smooth motion."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from muse_tui.theory import (
    VOICING_STYLES,
    VoicingError,
    parse_chord,
    voice,
    voice_lead,
    voice_leading_motion,
    voicing_names,
)
from muse_tui.theory.pitch import midi_to_name

FULL_STYLES = ("close", "open", "drop2", "spread")


def _names(notes: tuple[int, ...]) -> str:
    return " ".join(midi_to_name(note) for note in notes)


@pytest.mark.parametrize(
    ("symbol", "style", "expected"),
    [
        ("Cmaj7", "close", "C3 E3 G3 B3"),
        ("Cmaj7", "open", "C3 G3 B3 E4"),
        ("Dm7", "drop2", "A3 D4 F4 C5"),
        ("G7", "drop2", "D3 G3 B3 F4"),
        ("Cmaj9", "spread", "C3 G3 E4 B4 D5"),
        ("G7", "shell", "G3 B3 F4"),
        ("Dm7", "rootless", "F3 A3 C4 E4"),
        ("G13", "rootless", "B3 E4 F4 A4"),  # the 13 stands in for the 5th
        ("Am7/G", "close", "G3 A3 C4 E4"),
        ("C/E", "open", "E3 C4 G4"),
        ("F#m7b5", "shell", "F#3 A3 E4"),
    ],
)
def test_voicing_styles(symbol: str, style: str, expected: str) -> None:
    assert _names(voice(parse_chord(symbol), style)) == expected


def test_voicings_sit_as_low_as_the_range_allows() -> None:
    assert voice(parse_chord("C"), "close", low=60, high=72) == (60, 64, 67)
    assert voice(parse_chord("B"), "close", low=60, high=80) == (71, 75, 78)


def test_wide_chords_fold_under_the_ceiling() -> None:
    notes = voice(parse_chord("B13"), "spread", low=48, high=76)
    assert max(notes) <= 76 and min(notes) == 59
    assert {n % 12 for n in notes} == parse_chord("B13").pitch_classes


def test_a_range_too_narrow_is_an_error() -> None:
    with pytest.raises(VoicingError, match="does not fit between 60 and 64"):
        voice(parse_chord("Cmaj7"), "close", low=60, high=64)
    with pytest.raises(ValueError, match="unknown voicing style"):
        voice(parse_chord("C"), "stacked")
    with pytest.raises(ValueError, match="register"):
        voice(parse_chord("C"), "close", low=80, high=60)


def test_ii_v_i_moves_by_step() -> None:
    dm7 = voice(parse_chord("Dm7"), "close", 48, 72)
    g7 = voice_lead(dm7, parse_chord("G7"), 48, 72)
    cmaj7 = voice_lead(g7, parse_chord("Cmaj7"), 48, 72)
    assert _names(g7) == "D3 F3 G3 B3"
    assert _names(cmaj7) == "C3 E3 G3 B3"
    assert voice_leading_motion(dm7, g7) == 3
    assert voice_leading_motion(g7, cmaj7) == 3


def test_voice_lead_keeps_the_slash_bass_at_the_bottom() -> None:
    after = voice_lead((57, 60, 64, 67), parse_chord("Am7/G"), 40, 80)
    assert after[0] % 12 == 7


def test_voice_lead_with_fewer_voices_than_tones_keeps_guide_tones() -> None:
    after = voice_lead((55, 59, 65), parse_chord("C13"), 48, 80)
    pcs = {note % 12 for note in after}
    assert {4, 10} <= pcs  # the 3rd and the 7th survive


def test_voice_lead_from_nothing_is_a_close_voicing() -> None:
    assert voice_lead((), parse_chord("F")) == voice(parse_chord("F"), "close", 36, 96)


def test_motion_needs_matching_voices() -> None:
    assert voice_leading_motion((60, 64, 67), (67, 59, 62)) == 1 + 2 + 0  # paired low to high
    with pytest.raises(ValueError, match="must match"):
        voice_leading_motion((60, 64), (60, 64, 67))


ROOTS = ["C", "C#", "Db", "D", "Eb", "E", "F", "F#", "Gb", "G", "Ab", "A", "Bb", "B"]
QUALITIES = ["", "m", "dim", "aug", "5", "6", "m6", "7", "maj7", "m7", "m7b5", "dim7", "9",
             "m9", "maj9", "11", "13", "m11", "7sus4", "sus2", "add9", "7b9", "7#9#11", "7alt",
             "13#11", "mMaj7", "6/9", "7b5"]  # fmt: skip

chords = st.builds(
    lambda root, quality, bass: parse_chord(root + quality + (f"/{bass}" if bass else "")),
    st.sampled_from(ROOTS),
    st.sampled_from(QUALITIES),
    st.one_of(st.none(), st.sampled_from(ROOTS)),
)
registers = st.integers(min_value=21, max_value=72).flatmap(
    lambda low: st.tuples(st.just(low), st.integers(min_value=low + 24, max_value=108))
)


@settings(max_examples=300, deadline=None)
@given(chords, st.sampled_from(VOICING_STYLES), registers)
def test_voicings_stay_in_register_and_keep_the_chord(chord, style, register) -> None:
    low, high = register
    notes = voice(chord, style, low, high)
    assert all(low <= note <= high for note in notes)
    assert list(notes) == sorted(set(notes))
    if chord.bass_name is not None:
        assert notes[0] % 12 == chord.bass_pc
    pcs = {note % 12 for note in notes}
    if style in FULL_STYLES:
        assert pcs == chord.pitch_classes
    else:
        natural_ninth = (chord.root_pc + 2) % 12
        assert pcs <= chord.pitch_classes | {natural_ninth}


previous_voicings = st.lists(
    st.integers(min_value=45, max_value=80), min_size=2, max_size=6, unique=True
).map(lambda notes: tuple(sorted(notes)))


@settings(max_examples=200, deadline=None)
@given(previous_voicings, chords)
def test_voice_lead_never_crosses_and_stays_in_range(previous, chord) -> None:
    low, high = 40, 88
    after = voice_lead(previous, chord, low, high)
    assert len(after) == len(previous)
    # Voices keep their order: the i-th voice from the bottom stays i-th.
    assert list(after) == sorted(set(after))
    assert all(low <= note <= high for note in after)
    assert {note % 12 for note in after} <= chord.pitch_classes
    if len(previous) >= len(chord.pitch_classes):
        assert {note % 12 for note in after} == chord.pitch_classes
    if chord.bass_name is not None:
        assert after[0] % 12 == chord.bass_pc


triads = st.builds(
    lambda root, quality: parse_chord(root + quality),
    st.sampled_from(ROOTS),
    st.sampled_from(["", "m", "dim", "aug", "sus4"]),
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(min_value=52, max_value=70), min_size=3, max_size=3, unique=True),
    triads,
)
def test_voice_lead_finds_the_least_motion(previous, chord) -> None:
    """Brute force over every three-note voicing of the triad in a two-octave range."""
    low, high = 48, 72
    before = tuple(sorted(previous))
    after = voice_lead(before, chord, low, high)
    best = min(
        voice_leading_motion(before, candidate)
        for candidate in combinations(range(low, high + 1), 3)
        if {note % 12 for note in candidate} == chord.pitch_classes
    )
    assert voice_leading_motion(before, after) == best


@pytest.mark.parametrize(
    ("symbol", "pitches", "key", "names"),
    [
        ("E", [56, 64, 71], "A minor", ["G#3", "E4", "B4"]),  # read Ab3 E4 B4 before
        ("Ebm9", [63, 65, 66, 73], "Eb minor", ["Eb4", "F4", "Gb4", "Db5"]),  # Eb F F# C#
        ("Dm7", [53, 57, 60, 62, 65], "A minor", ["F3", "A3", "C4", "D4", "F4"]),
        ("C", [60, 64, 67, 70], "C major", ["C4", "E4", "G4", "Bb4"]),  # Bb: not the chord's
    ],
)
def test_a_voicing_is_spelled_as_its_chord_spells_it(
    symbol: str, pitches: list[int], key: str, names: list[str]
) -> None:
    assert voicing_names(parse_chord(symbol), pitches, key) == names
