"""Who plays where, and how sections hand over, genre by genre."""

from __future__ import annotations

import itertools
import random

import pytest

from muse_tui.compose.arrangement import PEAK_KINDS, arrange
from muse_tui.contracts.intent import ArrangementTemplateName

FOUR_TRACKS = ["drums", "bass", "chords", "lead"]
BIG_BAND = ["drums", "percussion", "bass", "sub_bass", "chords", "keys", "pad", "lead", "arp"]
TEMPLATES: list[str] = list(ArrangementTemplateName.__args__)  # type: ignore[attr-defined]


def test_a_song_without_a_lead_never_lists_one() -> None:
    song = arrange("pop_rnb", ["drums", "bass", "pad"], rng=random.Random(1))
    assert all("lead" not in s.active_roles for s in song.sections)


def test_intro_stays_at_two_tracks_even_with_a_big_band() -> None:
    song = arrange("pop_rnb", BIG_BAND, rng=random.Random(1))
    intro = song.sections[0]
    assert intro.active_roles == ["keys", "pad"]


def test_intro_asking_for_missing_roles_still_has_someone_playing() -> None:
    song = arrange("pop_rnb", ["drums", "bass"], rng=random.Random(1))
    assert len(song.sections[0].active_roles) == 1


def test_house_breakdown_takes_the_drums_out() -> None:
    song = arrange("house_edm", FOUR_TRACKS, rng=random.Random(1), bars=96)
    breakdown = next(s for s in song.sections if s.kind == "breakdown")
    drop = song.sections[song.sections.index(breakdown) - 1]
    assert "drums" not in breakdown.active_roles
    assert len(breakdown.active_roles) < len(drop.active_roles)


def test_outro_subtracts_from_the_last_chorus() -> None:
    song = arrange("pop_rnb", BIG_BAND, rng=random.Random(1))
    last_chorus = [s for s in song.sections if s.kind == "chorus"][-1]
    outro = song.sections[-1]
    assert set(outro.active_roles) < set(last_chorus.active_roles)


def test_verses_sit_between_the_intro_and_the_chorus() -> None:
    song = arrange("pop_rnb", FOUR_TRACKS, rng=random.Random(1))
    intro, verse = song.sections[0], song.sections[1]
    chorus = next(s for s in song.sections if s.kind == "chorus")
    assert len(intro.active_roles) < len(verse.active_roles) <= len(chorus.active_roles)
    assert set(verse.active_roles) <= set(chorus.active_roles)


@pytest.mark.parametrize("template", ["pop_rnb", "rock", "trap", "country"])
def test_every_verse_carries_the_topline(template: str) -> None:
    for band in (FOUR_TRACKS, ["drums", "bass", "pad", "arp"], BIG_BAND):
        song = arrange(template, band, rng=random.Random(2))
        verses = [s for s in song.sections if s.kind == "verse"]
        topline = "lead" if "lead" in band else "arp"
        assert verses and all(topline in s.active_roles for s in verses), template


def test_a_form_without_choruses_still_lets_everyone_play_once() -> None:
    song = arrange("ambient", BIG_BAND, rng=random.Random(1))
    assert any(set(s.active_roles) == set(BIG_BAND) for s in song.sections)


@pytest.mark.parametrize("template", ["house_edm", "dnb"])
def test_club_forms_build_then_drop(template: str) -> None:
    song = arrange(template, FOUR_TRACKS, rng=random.Random(3))
    for before, after in itertools.pairwise(song.sections):
        if after.kind == "drop":
            assert before.kind == "build" and before.transition == "drop"


@pytest.mark.parametrize("template", ["trap", "drill"])
def test_rap_forms_cut_before_the_hook(template: str) -> None:
    song = arrange(template, FOUR_TRACKS, rng=random.Random(3))
    for before, after in itertools.pairwise(song.sections):
        if after.kind == "hook":
            assert before.transition == "cut"


@pytest.mark.parametrize("seed", range(6))
def test_pop_sweeps_or_fades_into_choruses_and_fades_out(seed: int) -> None:
    song = arrange("pop_rnb", FOUR_TRACKS, rng=random.Random(seed))
    into_chorus = {
        before.transition
        for before, after in itertools.pairwise(song.sections)
        if after.kind == "chorus"
    }
    assert len(into_chorus) == 1 and into_chorus <= {"filter_sweep", "fade"}
    assert song.sections[-1].transition == "fade"


def test_jazz_moves_without_risers() -> None:
    song = arrange("jazz", FOUR_TRACKS, rng=random.Random(3))
    assert {s.transition for s in song.sections} <= {"none", "cut"}


@pytest.mark.parametrize("template", TEMPLATES)
def test_chord_plans_follow_the_section(template: str) -> None:
    song = arrange(template, FOUR_TRACKS, rng=random.Random(3))
    for section in song.sections:
        if section.kind in ("verse", "loop"):
            assert section.chord_plan == "loop"
        if section.kind in PEAK_KINDS:
            assert section.chord_plan == "vary"
        if section.kind in ("intro", "break", "breakdown"):
            # A blues band comes in "from the V": its intro plays the form's last bars.
            assert section.chord_plan == ("tail" if template == "blues" else "subset")


def test_different_seeds_vary_small_choices_only() -> None:
    songs = [arrange("pop_rnb", FOUR_TRACKS, rng=random.Random(seed)) for seed in range(12)]
    assert len({tuple((s.name, s.bars) for s in song.sections) for song in songs}) > 1
    assert len({tuple(s.name for s in song.sections) for song in songs}) == 1
