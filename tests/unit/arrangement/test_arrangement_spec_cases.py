"""The seven cases of the P6-T3 spec, as a producer would check them."""

from __future__ import annotations

import itertools
import random

import pytest

from muse_tui.compose.arrangement import (
    MAX_STEP,
    PEAK_KINDS,
    arrange,
    arrange_for_intent,
    chord_indices,
)
from muse_tui.contracts.intent import ArrangementTemplateName, DurationRange, PipelineIntent
from muse_tui.contracts.song import Section
from muse_tui.knowledge.arrangement import arrangement_table

FOUR_TRACKS = ["drums", "bass", "chords", "lead"]
TEMPLATES: list[str] = list(ArrangementTemplateName.__args__)  # type: ignore[attr-defined]


def test_pop_song_of_64_bars_has_the_verse_chorus_form() -> None:
    song = arrange("pop", FOUR_TRACKS, rng=random.Random(1), bars=64)

    kinds = [s.kind for s in song.sections]
    assert len(song.sections) >= 4
    assert {"intro", "verse", "chorus", "outro"} <= set(kinds)
    assert song.total_bars == 64
    chorus_energy = min(s.energy for s in song.sections if s.kind == "chorus")
    assert all(s.energy < chorus_energy for s in song.sections if s.kind != "chorus")
    heard = {role for s in song.sections for role in s.active_roles}
    assert heard == set(FOUR_TRACKS)


def test_house_song_builds_into_drops_after_a_long_intro() -> None:
    song = arrange("house", FOUR_TRACKS, rng=random.Random(2))

    builds = [s for s in song.sections if s.kind == "build"]
    drops = [s for s in song.sections if s.kind == "drop"]
    assert builds and drops
    assert min(d.energy for d in drops) > max(b.energy for b in builds)
    assert song.sections[0].kind == "intro" and song.sections[0].bars >= 8


@pytest.mark.parametrize("template", TEMPLATES)
def test_energy_moves_smoothly_and_peaks_where_the_song_peaks(template: str) -> None:
    song = arrange(template, FOUR_TRACKS, rng=random.Random(3))
    arc = song.energy_arc

    assert len(arc) == song.total_bars
    assert all(abs(b - a) <= MAX_STEP + 1e-9 for a, b in itertools.pairwise(arc))
    if any(s.kind in PEAK_KINDS for s in song.sections):
        assert _section_at(song.sections, arc.index(max(arc))).kind in PEAK_KINDS
    quietest = _section_at(song.sections, arc.index(min(arc)))
    if any(s.kind in ("intro", "outro", "break", "breakdown") for s in song.sections):
        assert quietest.kind in ("intro", "outro", "break", "breakdown")


def test_four_chord_progression_loops_four_times_over_a_16_bar_verse(progression) -> None:
    chords = progression(4, beats=4)
    song = arrange("trap", FOUR_TRACKS, rng=random.Random(4), bars=64)
    verse = next(s for s in song.sections if s.kind == "verse")
    assert verse.bars == 16 and verse.chord_plan == "loop"

    assert chord_indices(verse, chords) == [0, 1, 2, 3] * 4
    for section in song.sections:
        assert all(0 <= i < len(chords.chords) for i in chord_indices(section, chords))


def test_intro_is_sparse_chorus_is_full_and_something_is_thinner() -> None:
    song = arrange("pop_rnb", FOUR_TRACKS, rng=random.Random(5), bars=64)

    intro = song.sections[0]
    choruses = [s for s in song.sections if s.kind == "chorus"]
    assert intro.kind == "intro" and len(intro.active_roles) <= 2
    assert all(sorted(c.active_roles) == sorted(FOUR_TRACKS) for c in choruses)
    assert any(len(s.active_roles) < len(FOUR_TRACKS) for s in song.sections)


def test_a_24_to_32_bar_request_scales_the_form_into_range() -> None:
    intent = PipelineIntent(
        genre=["pop"], raw_prompt="short pop tune", duration=DurationRange(min=24, max=32)
    )
    song = arrange_for_intent(intent, FOUR_TRACKS, random.Random(6))

    assert 24 <= song.total_bars <= 32
    assert all(s.bars >= 4 for s in song.sections)
    natural = {s.name: s.bars for s in arrangement_table().templates["pop_rnb"].sections}
    kept = [(natural[s.name], s.bars) for s in song.sections]
    # Proportional: a section written longer than another never ends up shorter.
    assert all(b1 >= b2 for n1, b1 in kept for n2, b2 in kept if n1 > n2)


def test_no_chorus_and_loop_based_give_a_lofi_like_loop() -> None:
    intent = PipelineIntent(
        genre=["pop"], raw_prompt="a chill loop", structure_hints=["no chorus", "loop-based"]
    )
    song = arrange_for_intent(intent, FOUR_TRACKS, random.Random(7))

    assert not any("chorus" in s.name.lower() or s.kind == "chorus" for s in song.sections)
    assert {s.kind for s in song.sections} <= {"intro", "loop", "outro"}
    loops = [s for s in song.sections if s.kind == "loop"]
    assert len(loops) >= 2 and all(s.chord_plan == "loop" for s in loops)


def _section_at(sections: list[Section], bar: int) -> Section:
    return next(s for s in sections if s.start_bar <= bar < s.end_bar)
