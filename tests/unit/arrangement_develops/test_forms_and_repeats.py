"""The pure pieces: forms that grow by sections, repeats that know their place, fills that turn."""

from __future__ import annotations

import itertools
import random

import pytest

from muse_tui.compose.arrangement import arrange
from muse_tui.compose.arrangement.repeats import repeat_of
from muse_tui.compose.transitions import turned
from muse_tui.contracts.intent import ArrangementTemplateName, DurationRange
from muse_tui.knowledge.arrangement import arrangement_table
from muse_tui.knowledge.genres import genre_table

TEMPLATES: list[str] = list(ArrangementTemplateName.__args__)  # type: ignore[attr-defined]
BAND = ["drums", "bass", "chords", "pad", "lead"]


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("bars", [64, 96, 136, 200])
def test_long_songs_get_more_sections_never_longer_ones(template: str, bars: int) -> None:
    song = arrange(template, BAND, rng=random.Random(bars), bars=bars)
    # A chorus of a whole form (a jazz head, a blues chorus) is as long as the form.
    whole = {s.kind for s in arrangement_table().templates[template].sections if s.whole_form}

    assert song.total_bars == bars
    assert all(
        s.bars % 4 == 0 and 4 <= s.bars <= (32 if s.kind in whole else 16) for s in song.sections
    )
    assert len({s.name for s in song.sections}) == len(song.sections)


def test_a_longer_trap_song_repeats_verse_and_hook_in_order() -> None:
    song = arrange("trap", BAND, rng=random.Random(1), duration=DurationRange(min=88, max=140))

    assert [s.name for s in song.sections] == [
        "Intro",
        "Hook 1",
        "Verse 1",
        "Hook 2",
        "Verse 2",
        "Hook 3",
        "Verse 3",
        "Hook 4",
        "Outro",
    ]


def test_the_trap_form_opens_on_the_hook() -> None:
    song = arrange("trap", BAND, rng=random.Random(2))

    assert [s.kind for s in song.sections] == [
        "intro",
        "hook",
        "verse",
        "hook",
        "verse",
        "hook",
        "outro",
    ]


def test_an_earlier_hook_holds_back_a_colour_the_section_before_lacked() -> None:
    song = arrange("trap", [*BAND, "keys"], rng=random.Random(3))
    hooks = [s for s in song.sections if s.kind == "hook"]

    assert song.sections[0].kind == "intro" and "keys" not in song.sections[0].active_roles
    assert "keys" not in hooks[0].active_roles  # saved: the intro before it had no keys
    assert set(hooks[-1].active_roles) == {*BAND, "keys"}
    assert all("lead" in h.active_roles for h in hooks)


@pytest.mark.parametrize("template", TEMPLATES)
def test_a_peak_never_drops_a_part_the_section_before_it_had(template: str) -> None:
    """A chorus that lost the verse's strings would land thinner than the verse, not lift."""
    for seed in range(4):
        sections = arrange(template, [*BAND, "keys"], rng=random.Random(seed)).sections
        for before, peak in itertools.pairwise(sections):
            if peak.kind in ("chorus", "hook", "drop"):
                lost = set(before.active_roles) - set(peak.active_roles)
                assert not lost, f"{template} seed {seed}: {peak.name} drops {lost}"


def test_only_the_last_chorus_drops_out_before_its_last_phrase_and_the_lead_carries_it() -> None:
    song = arrange("pop_rnb", BAND, rng=random.Random(3))
    choruses = [s for s in song.sections if s.kind == "chorus"]
    repeats = [repeat_of(c, song.sections) for c in choruses]

    assert [r.ordinal for r in repeats] == list(range(1, len(choruses) + 1))
    assert [r.dropout_bar for r in repeats[:-1]] == [None] * (len(choruses) - 1)
    assert repeats[-1].dropout_bar == choruses[-1].bars - 5
    assert repeats[-1].soloist == "lead"
    assert repeats[-1].drops_out("drums") and not repeats[-1].drops_out("lead")


def test_a_repeat_the_drums_sit_out_stops_for_a_bar() -> None:
    song = arrange("house_edm", BAND, rng=random.Random(4), bars=136)
    breakdowns = [s for s in song.sections if s.kind == "breakdown"]

    assert len(breakdowns) >= 2 and "drums" not in breakdowns[1].active_roles
    assert repeat_of(breakdowns[1], song.sections).dropout_bar is not None
    assert repeat_of(breakdowns[0], song.sections).dropout_bar is None


@pytest.mark.parametrize("size", [2, 3, 4])
def test_a_repeat_never_turns_back_onto_the_first_fill(size: int) -> None:
    options = list(range(size))
    for index in options:
        first = turned(options, index, 0)
        assert all(turned(options, index, turn) != first for turn in range(1, 9))


def test_forms_that_should_not_crash_say_so() -> None:
    table = arrangement_table()

    quiet = {"jazz", "lo_fi", "ambient", "bluegrass", "reel", "classical"}  # no crash cymbal
    assert {n for n, t in table.templates.items() if not t.crashes} == quiet
    assert table.templates["house"].phrase_fills.kick_drop
    assert table.templates["rock"].phrase_fills.beats == 2


def test_a_part_alone_in_a_repeat_rests_through_its_last_bar() -> None:
    song = arrange("house_edm", ["drums", "pad"], rng=random.Random(4), bars=136)
    breakdowns = [s for s in song.sections if s.kind == "breakdown"]
    second = repeat_of(breakdowns[1], song.sections)

    assert breakdowns[1].active_roles == ["pad"]
    assert second.dropout_bar == breakdowns[1].bars - 1 and second.drops_out("pad")


def test_a_drumless_repeat_gains_a_part_its_first_time_lacked() -> None:
    roles = ["drums", "bass", "texture"]
    song = arrange("house_edm", roles, rng=random.Random(4), bars=136)
    breakdowns = [s for s in song.sections if s.kind == "breakdown"]

    assert breakdowns[0].active_roles == ["texture"]
    assert breakdowns[1].active_roles == ["bass", "texture"]


@pytest.mark.parametrize("genre", ["soul", "funk", "disco", "gospel"])
def test_a_live_band_never_stops_its_groove_for_a_pre_chorus(genre: str) -> None:
    """Motown, Stax, James Brown: the drums play every section; the bridge breaks down to the
    rhythm section and the horns, it does not drop the groove (pop's drumless pre-chorus)."""
    template = genre_table().get(genre).arrangement_template
    assert template == "soul_funk"
    song = arrange(template, [*BAND, "keys"], rng=random.Random(5))
    for section in song.sections:
        assert "drums" in section.active_roles, f"{genre}: {section.name} has no drums"
    (bridge,) = [s for s in song.sections if s.kind == "bridge"]
    assert {"drums", "bass", "lead"} <= set(bridge.active_roles)
    assert not {"chords", "keys", "pad"} & set(bridge.active_roles)
