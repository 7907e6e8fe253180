"""Which chord sounds when: the map the part generators play from."""

from __future__ import annotations

import random

from muse_tui.compose.arrangement import arrange, chord_indices, chord_map, chords_for_section
from muse_tui.contracts.song import Section


def _section(plan: str, bars: int, start_bar: int = 0) -> Section:
    return Section(
        name="Test", kind="verse", start_bar=start_bar, bars=bars, energy=0.5, chord_plan=plan
    )


def test_a_loop_restarts_the_progression_in_song_time(progression) -> None:
    placed = chords_for_section(_section("loop", 16, start_bar=8), progression(4, beats=4))

    assert [p.index for p in placed] == [0, 1, 2, 3] * 4
    assert placed[0].start_beat == 32.0
    assert [p.start_beat for p in placed] == [32.0 + 4 * i for i in range(16)]
    assert placed[-1].end_beat == (8 + 16) * 4


def test_a_chord_running_past_the_section_is_cut_at_its_end(progression) -> None:
    placed = chords_for_section(_section("loop", 4), progression(3, beats=6))

    assert [(p.index, p.beats) for p in placed] == [(0, 6), (1, 6), (2, 4)]


def test_a_section_shorter_than_the_progression_plays_its_start(progression) -> None:
    assert chord_indices(_section("loop", 4), progression(4, beats=8)) == [0, 1]


def test_vary_turns_the_last_pass_around_on_the_dominant(progression) -> None:
    indices = chord_indices(_section("vary", 8), progression(4, beats=4))
    assert indices == [0, 1, 2, 3, 0, 1, 2, 1]


def test_vary_without_a_dominant_plays_the_loop(progression) -> None:
    chords = progression(4, beats=4, functions=["tonic", "predominant", "tonic", "borrowed"])
    assert chord_indices(_section("vary", 8), chords) == [0, 1, 2, 3] * 2


def test_vary_over_a_single_pass_leaves_the_progression_alone(progression) -> None:
    assert chord_indices(_section("vary", 4), progression(4, beats=4)) == [0, 1, 2, 3]


def test_subset_cycles_the_first_half(progression) -> None:
    assert chord_indices(_section("subset", 4), progression(4, beats=4)) == [0, 1, 0, 1]
    assert chord_indices(_section("subset", 4), progression(1, beats=4)) == [0] * 4


def test_three_four_time_fits_more_bars_per_chord(progression) -> None:
    placed = chords_for_section(_section("loop", 4), progression(2, beats=3), beats_per_bar=3)
    assert [p.index for p in placed] == [0, 1, 0, 1]
    assert placed[-1].end_beat == 12


def test_the_chord_map_covers_every_section_with_valid_indices(progression) -> None:
    chords = progression(4, beats=4)
    song = arrange("pop_rnb", ["drums", "bass", "chords"], rng=random.Random(1), bars=64)
    mapped = chord_map(song, chords)

    assert list(mapped) == [s.name for s in song.sections]
    for section in song.sections:
        indices = mapped[section.name]
        assert indices and all(0 <= i < 4 for i in indices)
        placed = chords_for_section(section, chords)
        assert placed[0].start_beat == section.start_bar * 4
        assert placed[-1].end_beat == section.end_bar * 4
