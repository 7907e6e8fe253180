"""Structure hints from the prompt reshape the form."""

from __future__ import annotations

import random

import pytest

from muse_tui.compose.arrangement import arrange, parse_structure_hints
from muse_tui.compose.arrangement.form import StructureHints

FOUR_TRACKS = ["drums", "bass", "chords", "lead"]


def _song(template: str, hints: list[str], seed: int = 11, **kwargs):
    return arrange(template, FOUR_TRACKS, rng=random.Random(seed), structure_hints=hints, **kwargs)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("no chorus", StructureHints(no_chorus=True)),
        ("Without a hook", StructureHints(no_chorus=True)),
        ("loop-based", StructureHints(loop_based=True)),
        ("just a loop", StructureHints(loop_based=True)),
        ("long intro", StructureHints(long_intro=True)),
        ("no_intro", StructureHints(no_intro=True)),
        ("hard ending", StructureHints(no_outro=True)),
        ("drop at bar 32", StructureHints(first_peak_bar=32, first_peak_kind="drop")),
        ("drop at bar 33", StructureHints(first_peak_bar=32, first_peak_kind="drop")),
        ("chorus by 16", StructureHints(first_peak_bar=16, first_peak_kind="chorus")),
        ("more cowbell", StructureHints()),
    ],
)
def test_hints_are_read_in_a_producers_words(text: str, expected: StructureHints) -> None:
    assert parse_structure_hints([text]) == expected


def test_no_chorus_keeps_the_length_with_hookless_b_sections() -> None:
    plain = _song("pop_rnb", [])
    song = _song("pop_rnb", ["no chorus"])

    assert song.total_bars == plain.total_bars
    assert not {"chorus", "pre_chorus"} & {s.kind for s in song.sections}
    b_sections = [s for s in song.sections if s.name.startswith("B Section")]
    assert b_sections and all(s.energy < 0.9 for s in b_sections)
    verse = next(s for s in song.sections if s.name == "Verse 1")
    assert verse.bars == 12  # the pre-chorus folded into the verse


def test_no_hook_in_trap_replaces_hooks_too() -> None:
    song = _song("trap", ["no hook"])
    assert "hook" not in {s.kind for s in song.sections}


def test_loop_based_is_one_idea_with_small_variations() -> None:
    song = _song("house_edm", ["loop-based"], bars=64)

    assert song.sections[0].kind == "intro" and song.sections[-1].kind == "outro"
    loops = song.sections[1:-1]
    assert loops and all(s.kind == "loop" and s.chord_plan == "loop" for s in loops)
    looks = {(tuple(s.active_roles), s.energy) for s in loops}
    assert len(looks) > 1
    assert max(s.energy for s in loops) - min(s.energy for s in loops) <= 0.1


@pytest.mark.parametrize(
    ("template", "intro", "outro"),
    [("house", ["drums"], ["drums"]), ("lo_fi", ["chords"], ["chords"])],
)
def test_a_loop_comes_in_and_goes_out_as_its_genre_does(
    template: str, intro: list[str], outro: list[str]
) -> None:
    """A techno loop starts and ends on the drums a DJ mixes over; a lo-fi loop on its keys."""
    song = _song(template, ["loop-based"], bars=32)
    assert (song.sections[0].kind, song.sections[-1].kind) == ("intro", "outro")
    assert song.sections[0].active_roles == intro
    assert song.sections[-1].active_roles == outro


def test_long_intro_is_at_least_twice_as_long_and_sixteen_bars() -> None:
    plain = _song("pop_rnb", [], seed=2)
    longer = _song("pop_rnb", ["long intro"], seed=2)
    assert longer.sections[0].kind == "intro"
    assert longer.sections[0].bars >= max(2 * plain.sections[0].bars, 16)


def test_no_intro_and_no_outro_start_and_end_on_the_music() -> None:
    song = _song("pop_rnb", ["no intro", "no outro"], bars=48)
    assert song.sections[0].kind != "intro" and song.sections[-1].kind != "outro"
    assert song.total_bars == 48


@pytest.mark.parametrize("hint", ["drop at bar 32", "drop at bar 33"])
def test_drop_lands_where_asked(hint: str) -> None:
    song = _song("house_edm", [hint], bars=128)

    first_drop = next(s for s in song.sections if s.kind == "drop")
    assert first_drop.start_bar == 32
    assert song.total_bars == 128


def test_drop_hint_without_a_length_keeps_the_rest_of_the_form() -> None:
    plain = _song("house_edm", [], seed=5)
    song = _song("house_edm", ["drop at bar 32"], seed=5)

    first_drop = next(i for i, s in enumerate(song.sections) if s.kind == "drop")
    assert song.sections[first_drop].start_bar == 32
    assert [s.bars for s in song.sections[first_drop:]] == [
        s.bars for s in plain.sections[first_drop:]
    ]


def test_chorus_at_bar_applies_to_the_first_chorus() -> None:
    song = _song("pop_rnb", ["chorus at bar 16"], bars=64)
    assert next(s for s in song.sections if s.kind == "chorus").start_bar == 16


def test_a_drop_hint_that_cannot_fit_is_ignored() -> None:
    song = _song("house_edm", ["drop at bar 60"], bars=64)
    assert song.total_bars == 64


def test_unknown_hints_change_nothing() -> None:
    assert _song("trap", ["make it slap"]) == _song("trap", [])
