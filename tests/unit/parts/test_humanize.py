"""Humanising: MPC swing, groove nudges, and a MIDI file's rules for notes."""

from __future__ import annotations

import random

import pytest

from muse_tui.compose.humanize import (
    Draft,
    Feel,
    humanize,
    swing_position,
    tidy,
    unswing_position,
)
from muse_tui.contracts import Note
from muse_tui.knowledge import rhythm_table


def test_mpc_swing_moves_the_offbeat_and_nothing_on_the_beat() -> None:
    assert swing_position(1.0, 66, "16th") == 1.0
    assert swing_position(1.25, 50, "16th") == 1.25
    assert swing_position(1.25, 66, "16th") == pytest.approx(1.33)
    assert swing_position(0.5, 66, "8th") == pytest.approx(0.66)
    for beat in (0.0, 0.1, 0.25, 0.4, 0.5, 0.75, 0.9):
        for unit in ("8th", "16th"):
            swung = swing_position(beat, 62, unit)  # type: ignore[arg-type]
            assert unswing_position(swung, 62, unit) == pytest.approx(beat)  # type: ignore[arg-type]


def test_humanizing_is_repeatable_and_stays_close_to_the_grid() -> None:
    groove = rhythm_table().grooves["boom_bap_lazy"]
    feel = Feel("boom_bap_lazy", groove, 58, "16th", 90, groove.timing_ms, groove.velocity_range)
    drafts = [Draft(38, 96, beat / 2, 0.2, "snare") for beat in range(16)]
    once = humanize(drafts, feel, random.Random(1), channel=9)
    again = humanize(drafts, feel, random.Random(1), channel=9)
    assert once == again
    assert all(
        abs(n.start_beat - swing_position(d.start, 58, "16th")) < 0.08
        for n, d in zip(once, drafts, strict=True)
    )
    assert len({n.velocity for n in once}) > 3  # velocities breathe
    assert feel.config.swing == 58


def test_tidy_leaves_no_overlaps_no_double_hits_and_nothing_past_the_end() -> None:
    notes = [
        Note(pitch=60, velocity=80, start_beat=0, duration_beats=2),
        Note(pitch=60, velocity=90, start_beat=1, duration_beats=1),
        Note(pitch=60, velocity=100, start_beat=1, duration_beats=1),
        Note(pitch=62, velocity=90, start_beat=3, duration_beats=4),
        Note(pitch=64, velocity=90, start_beat=8, duration_beats=1),
    ]
    tidied = tidy(notes, length=4)
    assert [(n.pitch, n.start_beat, n.duration_beats, n.velocity) for n in tidied] == [
        (60, 0, 1, 80),
        (60, 1, 1, 100),
        (62, 3, 1, 90),
    ]
