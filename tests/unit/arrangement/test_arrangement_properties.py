"""Rules every arrangement keeps, whatever the form, length, roles, hints and seed."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from muse_tui.compose.arrangement import MAX_STEP, PEAK_KINDS, arrange, scale_bars
from muse_tui.contracts.intent import ArrangementTemplateName, DurationRange
from muse_tui.contracts.song import TRACK_ROLES, Arrangement

TEMPLATES: list[str] = list(ArrangementTemplateName.__args__)  # type: ignore[attr-defined]
HINTS = [
    "no chorus",
    "loop-based",
    "long intro",
    "short intro",
    "no intro",
    "no outro",
    "drop at bar 32",
    "chorus at bar 17",
    "make it weird",
]

templates = st.sampled_from(TEMPLATES)
role_sets = st.lists(st.sampled_from(TRACK_ROLES), min_size=1, max_size=10, unique=True)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
hint_sets = st.lists(st.sampled_from(HINTS), max_size=3, unique=True)


@settings(max_examples=400, deadline=None)
@given(
    template=templates,
    bars=st.integers(16, 256),
    roles=role_sets,
    seed=seeds,
    hints=hint_sets,
    bias=st.floats(-0.15, 0.1),
)
def test_every_requested_length_gives_a_playable_song(
    template: str, bars: int, roles: list[str], seed: int, hints: list[str], bias: float
) -> None:
    song = arrange(
        template,
        roles,
        rng=random.Random(seed),
        bars=bars,
        structure_hints=hints,
        energy_bias=bias,
    )

    assert song.total_bars == bars
    _assert_producer_rules(song, roles)


@settings(max_examples=150, deadline=None)
@given(
    template=templates,
    low=st.integers(8, 200),
    spread=st.integers(0, 64),
    roles=role_sets,
    seed=seeds,
)
def test_a_duration_range_is_always_met(
    template: str, low: int, spread: int, roles: list[str], seed: int
) -> None:
    duration = DurationRange(min=low, max=low + spread)
    song = arrange(template, roles, rng=random.Random(seed), duration=duration)

    assert duration.min <= song.total_bars <= duration.max
    _assert_producer_rules(song, roles)


@settings(max_examples=100, deadline=None)
@given(template=templates, roles=role_sets, seed=seeds, hints=hint_sets)
def test_the_same_seed_gives_the_same_arrangement(
    template: str, roles: list[str], seed: int, hints: list[str]
) -> None:
    first = arrange(template, roles, rng=random.Random(seed), structure_hints=hints)
    again = arrange(template, roles, rng=random.Random(seed), structure_hints=hints)

    assert first == again
    _assert_producer_rules(first, roles)


@settings(max_examples=200, deadline=None)
@given(
    lengths=st.lists(st.integers(4, 64), min_size=1, max_size=12),
    extra=st.integers(0, 300),
    grain=st.sampled_from([4, 8]),
)
def test_scaled_sections_sum_exactly_and_stay_on_the_grid(
    lengths: list[int], extra: int, grain: int
) -> None:
    target = grain * len(lengths) + extra
    scaled = scale_bars(lengths, target, grain)

    assert sum(scaled) == target
    assert all(b >= grain for b in scaled)
    assert sum(1 for b in scaled if b % grain) <= 1


def _assert_producer_rules(song: Arrangement, roles: list[str]) -> None:
    sections = song.sections
    assert sections[0].start_bar == 0
    for before, after in itertools.pairwise(sections):
        assert after.start_bar == before.end_bar
    assert all(s.bars >= 4 for s in sections)

    arc = song.energy_arc
    assert len(arc) == song.total_bars
    assert all(abs(b - a) <= MAX_STEP + 1e-9 for a, b in itertools.pairwise(arc))
    assert all(0 <= e <= 1 for e in arc)

    everyone = set(roles)
    assert all(s.active_roles and set(s.active_roles) <= everyone for s in sections)
    assert len(set(s.name for s in sections)) == len(sections)
    for index, section in enumerate(sections):
        earlier = sections[:index]
        if section.kind == "intro":
            assert len(section.active_roles) <= 2
        if section.kind in PEAK_KINDS:
            later = [s for s in sections[index + 1 :] if s.kind == section.kind]
            held_back = everyone - set(section.active_roles)
            assert not held_back if not later else len(held_back) <= 1
        if section.kind in ("break", "breakdown") and earlier and len(everyone) >= 2:
            previous = earlier[-1].active_roles
            assert len(section.active_roles) < len(previous) or len(previous) == 1
        if section.kind == "outro" and earlier and len(everyone) >= 2:
            busiest = max(len(s.active_roles) for s in earlier)
            assert len(section.active_roles) < busiest or busiest == 1
            last_peaks = [s for s in earlier if s.kind in PEAK_KINDS]
            if last_peaks:
                assert len(section.active_roles) < len(last_peaks[-1].active_roles)
    assert any(set(s.active_roles) == everyone for s in sections)


@settings(max_examples=300, deadline=None)
@given(
    lengths=st.lists(st.integers(1, 4).map(lambda n: n * 4), min_size=3, max_size=10),
    extra=st.integers(0, 120),
    grain=st.sampled_from([4, 8]),
)
def test_bars_left_over_go_to_the_body_then_the_outro_then_the_intro(
    lengths: list[int], extra: int, grain: int
) -> None:
    """A form stretched to a length its proportions do not fill: past its own length and its
    proportional share, the outro grows only when the body is full (16 bars a section), the
    intro only when the outro is full too."""
    kinds = ["intro", *["verse"] * (len(lengths) - 2), "outro"]
    target = grain * len(lengths) + extra
    scaled = scale_bars(lengths, target, grain, 16, kinds)
    units = target // grain
    share = [min(16 // grain, max(1, lengths[i] * units // sum(lengths))) * grain for i in (0, -1)]
    assert sum(scaled) == target
    whole = [b - (target % grain if b % grain else 0) for b in scaled]  # the remainder aside
    if whole[-1] > max(share[1], lengths[-1]):
        assert all(b >= 16 for b in whole[1:-1]), (lengths, target, scaled)
    if whole[0] > max(share[0], lengths[0]):
        assert all(b >= 16 for b in whole[1:]), (lengths, target, scaled)


def test_a_trip_hop_loop_form_stretched_to_64_bars_keeps_an_8_bar_intro() -> None:
    """Intro 8, three 16-bar loops, outro 4: the 4 bars no loop can hold went to the intro
    (12 bars, 34 s of pads before the beat at 85 BPM); they go to the outro now."""
    kinds = ["intro", "loop", "loop", "loop", "outro"]
    assert scale_bars([8, 16, 16, 16, 4], 64, 4, 16, kinds) == [8, 16, 16, 16, 8]
    assert scale_bars([8, 16, 16, 16, 4], 64, 4, 16) == [12, 16, 16, 16, 4]  # without kinds


def test_section_numbers_follow_the_order_played_and_names_without_numbers_keep_them() -> None:
    """A trim in the middle left "Chorus 1, Chorus 3" (metal at 16 bars) and a placed peak
    "Verse 2, Pre-Chorus 2" as the first pre-chorus; numbers now run 1, 2, 3 in the order
    played, and a name the form gave no number ("Loop A'", "Drift B") gains none."""
    metal = arrange("metal", ["drums", "bass", "chords", "lead"], rng=random.Random(0), bars=16)
    assert [s.name for s in metal.sections if s.kind == "chorus"] == ["Chorus 1", "Chorus 2"]
    placed = arrange(
        "pop_rnb", ["drums", "bass", "chords", "lead"], rng=random.Random(0), bars=64,
        structure_hints=["chorus at bar 16"],
    )  # fmt: skip
    assert [s.name for s in placed.sections if s.kind == "pre_chorus"] == ["Pre-Chorus 1"]
    loops = arrange("lo_fi", ["drums", "bass", "keys"], rng=random.Random(0), bars=96)
    assert not any(s.name.endswith(" 1") for s in loops.sections if s.name.startswith("Loop"))
