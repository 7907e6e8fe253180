"""Arranging straight from S1's intent."""

from __future__ import annotations

import random

from muse_tui.compose.arrangement import arrange, arrange_for_intent
from muse_tui.contracts.intent import DurationRange, PipelineIntent

FOUR_TRACKS = ["drums", "bass", "chords", "lead"]


def _intent(**fields) -> PipelineIntent:
    return PipelineIntent(raw_prompt="test prompt", **{"genre": ["house"], **fields})


def test_the_genre_dna_picks_the_form(genre_dna) -> None:
    song = arrange_for_intent(_intent(genre_dna=genre_dna("trap")), FOUR_TRACKS, random.Random(1))
    assert song.template == "trap" and not song.is_fallback


def test_without_dna_the_genre_word_picks_the_form() -> None:
    song = arrange_for_intent(_intent(genre=["Lo-Fi"]), FOUR_TRACKS, random.Random(1))
    assert song.template == "lo_fi"


def test_an_unknown_genre_is_arranged_on_the_marked_fallback() -> None:
    song = arrange_for_intent(_intent(genre=["zydeco"]), FOUR_TRACKS, random.Random(1))
    assert song.is_fallback and song.template == "generic_fallback"


def test_the_intent_s_length_hints_and_moods_are_used(genre_dna) -> None:
    intent = _intent(
        genre_dna=genre_dna("house_edm"),
        duration=DurationRange(min=60, max=70),
        structure_hints=["drop at bar 16"],
        mood=["chill"],
    )
    song = arrange_for_intent(intent, FOUR_TRACKS, random.Random(1))
    plain = arrange("house_edm", FOUR_TRACKS, rng=random.Random(1), bars=song.total_bars)

    assert 60 <= song.total_bars <= 70
    assert next(s for s in song.sections if s.kind == "drop").start_bar == 16
    assert max(s.energy for s in song.sections) < max(s.energy for s in plain.sections)


def test_explicit_bars_override_the_intent_duration(genre_dna) -> None:
    intent = _intent(genre_dna=genre_dna("pop_rnb"), duration=DurationRange(min=24, max=32))
    song = arrange_for_intent(intent, FOUR_TRACKS, random.Random(1), bars=96)
    assert song.total_bars == 96


def test_roles_default_to_the_intent_then_the_dna(genre_dna) -> None:
    dna = genre_dna("pop_rnb")
    from_dna = arrange_for_intent(_intent(genre_dna=dna), [], random.Random(1))
    from_intent = arrange_for_intent(
        _intent(genre_dna=dna, roles=["pad", "sub_bass"]), [], random.Random(1)
    )

    assert {r for s in from_dna.sections for r in s.active_roles} == set(dna.roles)
    assert {r for s in from_intent.sections for r in s.active_roles} == {"pad", "sub_bass"}


def test_the_fallback_takes_its_energy_from_the_genre_dna(genre_dna) -> None:
    calm = arrange_for_intent(
        _intent(genre_dna=genre_dna("generic_fallback", energy=0.2)), FOUR_TRACKS, random.Random(1)
    )
    loud = arrange_for_intent(
        _intent(genre_dna=genre_dna("generic_fallback", energy=0.95)), FOUR_TRACKS, random.Random(1)
    )
    assert calm.is_fallback and loud.is_fallback
    assert sum(calm.energy_arc) < sum(loud.energy_arc)


def test_an_eight_bar_progression_keeps_stretched_sections_in_whole_passes(progression) -> None:
    eight_bars = progression(4, beats=8)
    song = arrange_for_intent(
        _intent(genre=["trap"]), FOUR_TRACKS, random.Random(1), bars=96, progression=eight_bars
    )
    assert all(s.bars % 8 == 0 for s in song.sections)
