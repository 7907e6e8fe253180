"""The energy arc: per bar, smooth, with the section's level kept as its nominal energy."""

from __future__ import annotations

import itertools
import random

from muse_tui.compose.arrangement import MAX_STEP, arrange, energy_arc, mood_energy_bias
from muse_tui.contracts.song import Section

FOUR_TRACKS = ["drums", "bass", "chords", "lead"]


def _sections(*spec: tuple[str, int, float]) -> list[Section]:
    sections, start = [], 0
    for kind, bars, energy in spec:
        sections.append(
            Section(name=f"{kind} {start}", kind=kind, start_bar=start, bars=bars, energy=energy)
        )
        start += bars
    return sections


def _steps(arc: list[float]) -> list[float]:
    return [abs(b - a) for a, b in itertools.pairwise(arc)]


def test_a_jump_from_intro_to_drop_ramps_in_the_intros_last_bars() -> None:
    arc = energy_arc(_sections(("intro", 8, 0.2), ("drop", 8, 0.9)))

    assert arc[:6] == [0.2] * 6
    assert arc[5] < arc[6] < arc[7] < arc[8]
    assert arc[8:] == [0.9] * 8
    assert max(_steps(arc)) <= MAX_STEP + 1e-9


def test_a_build_climbs_through_its_bars_and_stays_under_the_drop() -> None:
    arc = energy_arc(_sections(("intro", 8, 0.25), ("build", 8, 0.7), ("drop", 8, 0.9)))
    build = arc[8:16]

    assert all(b > a for a, b in itertools.pairwise(build))
    assert max(build) < 0.9 and arc[16] == 0.9


def test_a_step_of_exactly_0_3_lands_without_a_ramp() -> None:
    arc = energy_arc(_sections(("pre_chorus", 4, 0.6), ("chorus", 4, 0.9)))
    assert arc == [0.6] * 4 + [0.9] * 4


def test_the_outro_fades_down() -> None:
    arc = energy_arc(_sections(("chorus", 4, 0.5), ("outro", 8, 0.2)))
    outro = arc[4:]
    assert outro[0] == 0.2 and outro[-1] < outro[0]
    assert all(b <= a for a, b in itertools.pairwise(outro))


def test_sections_too_short_to_ramp_are_still_smoothed() -> None:
    arc = energy_arc(_sections(("intro", 1, 0.0), ("break", 1, 1.0), ("drop", 1, 0.0)))
    assert max(_steps(arc)) <= MAX_STEP + 1e-9


def test_section_energy_stays_nominal_while_the_arc_ramps() -> None:
    song = arrange("house_edm", FOUR_TRACKS, rng=random.Random(1))
    assert [s.energy for s in song.sections] == [0.25, 0.7, 0.9, 0.3, 0.7, 0.95, 0.2]


def test_moods_lower_or_lift_the_song_but_choruses_stay_on_top() -> None:
    calm = arrange("pop_rnb", FOUR_TRACKS, rng=random.Random(1), energy_bias=-0.15)
    hype = arrange("pop_rnb", FOUR_TRACKS, rng=random.Random(1), energy_bias=0.1)

    assert sum(calm.energy_arc) < sum(hype.energy_arc)
    for song in (calm, hype):
        top = max(s.energy for s in song.sections)
        assert {s.kind for s in song.sections if s.energy == top} == {"chorus"}


def test_mood_words_map_to_a_bounded_nudge() -> None:
    assert mood_energy_bias(["chill"]) < 0 < mood_energy_bias(["Energetic"])
    assert mood_energy_bias(["chill", "calm", "sleepy", "mellow"]) == -0.15
    assert mood_energy_bias(["Late-Night"]) == -0.05
    assert mood_energy_bias(["purple"]) == 0.0
