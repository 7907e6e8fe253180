"""A form asked in words, and songs in whole-form choruses, as S3 lays them out."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import mido
import pytest

from muse_tui.compose.arrangement import arrange
from muse_tui.compose.arrangement.asked import Count, read_asked_form
from muse_tui.contracts import PipelineConfig
from muse_tui.contracts.intent import DurationRange
from muse_tui.contracts.song import EnrichedProgression
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages
from muse_tui.knowledge.arrangement import arrangement_table

BAND = ["drums", "bass", "chords", "pad", "lead"]


def kinds(template: str, *hints: str, **options: object) -> list[str]:
    made = arrange(template, BAND, rng=random.Random(1), structure_hints=hints, **options)
    return [s.kind for s in made.sections]


@pytest.mark.parametrize(
    ("hint", "sequence"),
    [
        ("form v-c-v-c-b-c", ("verse", "chorus", "verse", "chorus", "bridge", "chorus")),
        ("form verse chorus verse chorus bridge chorus", None),
        ("form intro, two verses, chorus", ("intro", "verse", "verse", "chorus")),
        ("form aaba", ("a", "a", "bridge", "a")),
        ("form abab", ("a", "peak", "a", "peak")),
    ],
)
def test_an_asked_form_is_read_in_order(hint: str, sequence: tuple[str, ...] | None) -> None:
    asked = read_asked_form([hint], arrangement_table().asked_form)
    expected = sequence or ("verse", "chorus", "verse", "chorus", "bridge", "chorus")
    assert asked.sequence == expected


V, P, C, B = "verse", "pre_chorus", "chorus", "bridge"


@pytest.mark.parametrize(
    ("hint", "sequence"),
    [
        ("form verse chorus bridge", (V, C, V, C, B, C)),
        ("form verse, chorus and bridge", (V, C, V, C, B, C)),
        ("form a verse, a chorus and a bridge", (V, C, V, C, B, C)),
        ("form verse, pre-chorus, chorus and bridge", (V, P, C, V, P, C, B, C)),
        ("form intro verse chorus outro", ("intro", V, C, V, C, "outro")),
        ("form verse hook bridge", (V, "hook", V, "hook", B, "hook")),
        ("form build drop breakdown", ("build", "drop") * 2 + ("breakdown", "build", "drop")),
        # Written in order: arrows, "then", a count or a repeat keep it as written.
        ("form intro -> verse -> chorus -> bridge", ("intro", V, C, B)),
        ("form verse then chorus then bridge", (V, C, B)),
        ("form one verse, one chorus, one bridge", (V, C, B)),
    ],
)  # fmt: skip
def test_kinds_listed_once_each_name_a_verse_chorus_song(
    hint: str, sequence: tuple[str, ...]
) -> None:
    assert read_asked_form([hint], arrangement_table().asked_form).sequence == sequence


def test_counts_and_key_changes_are_read() -> None:
    table = arrangement_table().asked_form
    asked = read_asked_form(
        ["sections two drops", "breakdown", "key change up a half step for the last chorus"],
        table,
    )
    assert asked.counts == (Count("drop", 2, exact=True), Count("breakdown", 1, exact=False))
    assert (asked.key_shift, asked.key_change_in) == (1, "chorus")
    assert read_asked_form(["sections a second drop"], table).counts == (Count("drop", 2, True),)
    assert read_asked_form(["key change"], table).key_shift == 2
    assert read_asked_form(["key change down a minor third"], table).key_shift == -3


def test_the_asked_sequence_wins_over_the_template_framed_by_its_intro_and_outro() -> None:
    assert kinds("pop_rnb", "form v-c-v-c-b-c") == [
        "intro", "verse", "chorus", "verse", "chorus", "bridge", "chorus", "outro",
    ]  # fmt: skip
    assert kinds("house_edm", "form i-v-c-o") == ["intro", "verse", "chorus", "outro"]


def test_abab_takes_the_genres_own_kinds() -> None:
    assert kinds("trap", "form abab")[1:5] == ["verse", "hook", "verse", "hook"]
    assert kinds("rock", "form abab")[1:5] == ["verse", "chorus", "verse", "chorus"]
    assert kinds("pop_rnb", "form aaba")[1:5] == ["verse", "verse", "bridge", "verse"]


def test_an_asked_form_keeps_its_sections_however_long_the_song() -> None:
    asked = kinds("pop_rnb", "form v-c-v-c-b-c", bars=120)
    assert asked[1:-1] == ["verse", "chorus", "verse", "chorus", "bridge", "chorus"]


def test_counts_add_and_remove_sections() -> None:
    pop = kinds("pop_rnb", "sections two drops", "breakdown")
    assert pop.count("drop") == 2 and pop.count("breakdown") == 1
    assert pop.index("drop") == pop.index("chorus") + 1  # a post-chorus drop
    assert pop.index("breakdown") < len(pop) - 1 - pop[::-1].index("chorus")
    assert kinds("house_edm", "sections one drop").count("drop") == 1
    long_edm = kinds("house_edm", "sections two drops", duration=DurationRange(min=200, max=240))
    assert long_edm.count("drop") == 2  # a longer song stretches, it does not add a third


def test_a_key_change_moves_the_last_asked_section_and_what_follows() -> None:
    made = arrange(
        "pop_rnb",
        BAND,
        rng=random.Random(1),
        structure_hints=["key change up a half step for the last chorus"],
    )
    last_chorus = max(i for i, s in enumerate(made.sections) if s.kind == "chorus")
    shifts = [s.key_shift for s in made.sections]
    assert shifts == [0] * last_chorus + [1] * (len(shifts) - last_chorus)


def test_whole_form_choruses_keep_the_forms_length(
    progression: Callable[..., EnrichedProgression],
) -> None:
    form = progression(count=32)  # one chord a bar: a 32-bar form
    for duration in (DurationRange(min=90, max=140), DurationRange(min=160, max=240)):
        made = arrange("jazz", BAND, rng=random.Random(2), duration=duration, progression=form)
        choruses = [s for s in made.sections if s.kind in ("head", "solo")]
        assert {s.bars for s in choruses} == {32}
        assert choruses[0].name == "Head" and choruses[-1].name == "Head Out"
        assert duration.min <= made.total_bars <= duration.max


def test_blues_choruses_take_the_length_of_the_form_picked(
    progression: Callable[..., EnrichedProgression],
) -> None:
    for bars in (8, 12, 16):
        made = arrange("blues", BAND, rng=random.Random(2), progression=progression(count=bars))
        choruses = [s for s in made.sections if s.kind in ("head", "solo")]
        assert {s.bars for s in choruses} == {bars}
        assert made.sections[0].chord_plan == "tail"  # the intro comes in from the V


def test_aaba_asked_of_jazz_is_its_head_already() -> None:
    assert kinds("jazz", "form aaba") == kinds("jazz")


def test_verse_chorus_bridge_in_a_prompt_is_a_song_with_those_sections_on_the_midi_file(
    tmp_path: Path,
) -> None:
    engine = Orchestrator(product_stages(), tmp_path)
    run = run_blocking(
        engine.run(
            "pop song in G major with piano, bass and drums, verse chorus bridge",
            seed=1,
            config=PipelineConfig(approval_gates=[]),
        )
    )
    assert run.status == "completed"
    midi = mido.MidiFile(tmp_path / run.session_id / "midi" / "full-arrangement.mid")
    markers = [m.text for m in midi.tracks[0] if m.type == "marker"]
    body = [re.sub(r"\s*\d+$", "", name) for name in markers if name not in ("Intro", "Outro")]

    assert body == ["Verse", "Chorus", "Verse", "Chorus", "Bridge", "Chorus"], markers
