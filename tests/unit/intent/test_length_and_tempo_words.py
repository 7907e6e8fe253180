"""Lengths and tempos said in words: "a short fragment", "a long piece", "Presto", "Largo".

Ranges follow the MidiCaps duration and tempo bins (the captions text-to-MIDI papers
score on): a fragment under 30 s, a short song under two minutes, a long piece over
five; Largo 40–60 BPM … Presto 160–210.
"""

from __future__ import annotations

import pytest

from muse_tui.compose.intent.decompose import decompose
from tests.unit.meter.test_meter_words import MIDICAPS


def _seconds(prompt: str) -> tuple[float, float]:
    intent = decompose(prompt).intent
    assert intent.duration is not None and intent.tempo_analysis is not None
    bar = 4 * 60 / intent.tempo_analysis.bpm
    return intent.duration.min * bar, intent.duration.max * bar


@pytest.mark.parametrize(
    ("prompt", "shortest", "longest"),
    [
        ("pop, a very short fragment", 0, 30),
        ("house snippet", 0, 30),
        ("trap, a short song", 0, 120),
        ("quite short lofi tune", 0, 120),
        ("ambient, a long piece", 300, 10_000),
        ("a lengthy techno track", 300, 10_000),
        ("cinematic, epic-length", 300, 10_000),
        ("blues, a short loop", 0, 120),
    ],
)
def test_a_length_in_words_gives_a_song_of_that_length(
    prompt: str, shortest: float, longest: float
) -> None:
    low, high = _seconds(prompt)
    assert shortest <= low and high <= longest, (low, high)


@pytest.mark.parametrize(
    "prompt",
    [
        "trap with a short intro",
        "lofi with short stabs",
        "jazz with extended chords",
        "house with an extended outro",
    ],
)
def test_short_and_extended_about_a_part_are_not_lengths(prompt: str) -> None:
    assert "duration" in decompose(prompt).inferred_fields


@pytest.mark.parametrize(
    ("prompt", "low", "high"),
    [
        ("jazz, Presto", 160, 210),
        ("classical piano, Largo", 40, 60),
        ("string quartet, adagio", 60, 70),
        ("folk song, Andante", 70, 90),
        ("jazz, Moderato", 90, 110),
        ("allegro moderato piano piece", 90, 140),
        ("orchestral, Vivace", 140, 160),
        ("piano, prestissimo", 210, 999),
    ],
)
def test_a_tempo_marking_gives_a_tempo_in_its_range(prompt: str, low: float, high: float) -> None:
    bpm = decompose(prompt).intent.tempo_analysis.bpm  # type: ignore[union-attr]
    assert low <= bpm <= high, bpm


def test_a_bpm_written_out_wins_over_a_marking() -> None:
    assert decompose("jazz, Presto, 120 bpm").intent.tempo_analysis.bpm == 120  # type: ignore[union-attr]


def test_the_midicaps_captions_get_their_length_words() -> None:
    """'quite short', 'a short fragment', 'a very short fragment', 'a long … piece', 'lengthy'."""
    wanted = {
        0: (0, 120),  # "This song is quite short."
        4: (0, 30),  # "A short fragment of classical music"
        8: (300, 10_000),  # "A long electronic melodic piece"
        10: (0, 30),  # "A very short fragment of pop music"
        12: (0, 30),  # "A very fast and short fragment"
        16: (300, 10_000),  # "this lengthy composition"
    }
    for index, (shortest, longest) in wanted.items():
        low, high = _seconds(MIDICAPS[index][0])
        assert shortest <= low and high <= longest, (index, low, high)


@pytest.mark.parametrize(
    ("prompt", "seconds"),
    [
        ("minimal techno, in 3/4, 128 BPM, 2 minutes", 120),
        ("video game chiptune, in 6/8, 67 BPM, an extended 5-minute piece", 300),
        ("prog rock in 7/8, 140 BPM, 3 minutes", 180),
        ("pop, 120 BPM, 2 minutes", 120),
    ],
)
def test_minutes_count_the_meters_own_bars(prompt: str, seconds: float) -> None:
    """A random draw heard "2 minutes" of 3/4 at 128 as 90 s: bars were counted as 4/4."""
    intent = decompose(prompt).intent
    assert intent.duration is not None and intent.tempo_analysis is not None
    beats = intent.meter.beats_per_bar if intent.meter else 4
    bar = beats * 60 / intent.tempo_analysis.bpm
    assert intent.duration.min * bar >= seconds * 0.85
    assert intent.duration.max * bar <= seconds * 1.15
