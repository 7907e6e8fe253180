"""Every track gets a sound a producer can load and audition, with reasons and alternatives."""

from __future__ import annotations

import random

import pytest

from muse_tui.compose.sounds import SoundPlan, apply_sounds, assign_sounds
from muse_tui.contracts.song import TRACK_ROLES, PresetReference
from tests.unit.sounds.songs import band, genre_roles, intent_for

GENRES = genre_roles()


def plan_for(genre: str, roles=("drums", "bass", "chords", "lead", "pad"), **intent) -> SoundPlan:
    song = band(roles, genre=genre)
    return assign_sounds(song, intent_for(genre, **intent), random.Random(11))


def preset_of(plan: SoundPlan, song_role: str, roles) -> PresetReference:
    index = list(roles).index(song_role)
    return plan.presets[index].preset


@pytest.mark.parametrize("genre", sorted(GENRES))
def test_every_role_of_every_genre_gets_a_sound_to_audition(genre: str) -> None:
    roles = GENRES[genre]
    song = band(roles, genre=genre)
    plan = assign_sounds(song, intent_for(genre), random.Random(1))

    assert [a.track_id for a in plan.presets] == [t.id for t in song.tracks]
    for track, assignment in zip(song.tracks, plan.presets, strict=True):
        preset = assignment.preset
        if track.role in ("drums", "percussion"):
            assert preset.gm_drum_kit is not None, (genre, track.role)
        else:
            assert preset.gm_program is not None, (genre, track.role)
        assert preset.engine and preset.category and preset.source
        assert assignment.reasoning.strip().endswith(".")
        assert assignment.reasoning.count(". ") == 0, "reasoning is one sentence"
        assert 0 < assignment.confidence <= 1


def test_every_track_role_has_a_sound_even_for_an_unknown_genre() -> None:
    plan = plan_for("polka", roles=TRACK_ROLES, with_dna=False)

    assert len(plan.presets) == len(TRACK_ROLES)
    assert all(a.reasoning and a.alternatives for a in plan.presets)


@pytest.mark.parametrize("genre", ["trap", "jazz", "lo_fi", "house", "rock", "afrobeats"])
def test_alternatives_are_distinct_and_ranked_by_score(genre: str) -> None:
    plan = plan_for(genre, roles=TRACK_ROLES)

    for assignment in plan.presets:
        ids = [assignment.preset.id, *(p.id for p in assignment.alternatives)]
        assert len(ids) == len(set(ids)), ids
        assert 1 <= len(assignment.alternatives) <= 3
        scores = plan.scores[assignment.track_id]
        assert len(scores) == len(ids)
        assert scores[1:] == sorted(scores[1:], reverse=True)
        assert assignment.confidence == pytest.approx(min(1.0, scores[0]), abs=0.006)


def test_the_genre_decides_the_sound() -> None:
    roles = ("drums", "bass", "chords", "lead")
    trap, jazz, rock = (plan_for(g, roles=roles) for g in ("trap", "jazz", "rock"))

    assert "808" in preset_of(trap, "bass", roles).category
    assert preset_of(jazz, "bass", roles).gm_program == 32  # acoustic (upright) bass
    assert preset_of(jazz, "drums", roles).gm_drum_kit in (32, 40)  # jazz or brush kit
    assert preset_of(rock, "lead", roles).gm_program in (29, 30)  # overdriven / distortion guitar


def test_a_requested_instrument_is_chosen_and_named_in_the_reasoning() -> None:
    roles = ("drums", "bass", "chords")
    plan = plan_for("rock", roles=roles, requests=["rhodes"])

    chords = plan.presets[2]
    assert chords.preset.category == "electric piano"
    assert "rhodes" in chords.reasoning


def test_the_mood_colours_the_choice() -> None:
    chill = plan_for("ambient", roles=("lead",), moods=["chill"])
    dreamy = plan_for("ambient", roles=("lead",), moods=["dreamy"])

    assert "soft" in chill.presets[0].preset.name
    assert "vocal-like" in dreamy.presets[0].preset.name
    assert "dreamy mood" in dreamy.presets[0].reasoning


def test_two_tracks_with_the_same_role_get_different_sounds() -> None:
    plan = plan_for("lo_fi", roles=("keys", "keys"))

    assert plan.presets[0].preset.id != plan.presets[1].preset.id


def test_the_same_seed_gives_the_same_plan() -> None:
    song = band(TRACK_ROLES, genre="house")
    intent = intent_for("house")

    first = assign_sounds(song, intent, random.Random(3))
    again = assign_sounds(song, intent, random.Random(3))

    assert first == again


def test_applying_the_plan_sets_sound_chain_and_bus_without_touching_the_input() -> None:
    song = band(("drums", "bass", "chords", "lead", "pad"), genre="pop")
    plan = assign_sounds(song, intent_for("pop"), random.Random(2))

    mixed = apply_sounds(song, plan)

    assert all(t.preset is None and t.effect_chain is None for t in song.tracks)
    assert song.buses == []
    for track, assignment in zip(mixed.tracks, plan.presets, strict=True):
        assert track.preset == assignment.preset
        assert track.effect_chain is not None and track.effect_chain.target_id == track.id
        if track.is_drums:
            assert track.drum_kit == assignment.preset.gm_drum_kit
        else:
            assert track.program == assignment.preset.gm_program
    assert [b.id for b in mixed.buses] == ["bus-reverb"]
    assert type(mixed).model_validate(mixed.model_dump()) == mixed


def test_a_frozen_track_keeps_its_sound_and_chain() -> None:
    song = band(("drums", "chords"), genre="pop")
    plan = assign_sounds(song, intent_for("pop"), random.Random(2))
    mixed = apply_sounds(song, plan)
    kept = mixed.tracks[1].model_copy(update={"frozen": True})
    frozen_song = mixed.model_copy(update={"tracks": [mixed.tracks[0], kept]})

    replan = assign_sounds(frozen_song, intent_for("trap"), random.Random(9))

    assert replan.presets[1].preset == kept.preset
    assert replan.presets[1].confidence == 1.0
    assert replan.effect_chains[1] == kept.effect_chain
