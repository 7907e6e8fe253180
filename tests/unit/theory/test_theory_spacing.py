"""The low-interval limit and the test for two players doubling one chord."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from muse_tui.theory.pitch import name_to_midi
from muse_tui.theory.spacing import (
    LowLimit,
    clear_low_intervals,
    low_interval_faults,
    nested,
    upper_voice_motion,
)


def _notes(names: str) -> tuple[int, ...]:
    return tuple(name_to_midi(n) for n in names.split())


def test_seconds_are_muddy_under_e3_and_thirds_under_c3() -> None:
    limit = LowLimit()
    assert limit.muddy(50, 51)  # D3 + Eb3
    assert not limit.muddy(52, 53)  # E3 + F3 stands
    assert limit.muddy(43, 47)  # G2 + B2, a third under C3
    assert not limit.muddy(48, 52)  # C3 + E3 stands
    assert not limit.muddy(40, 47)  # a fifth may sit low
    assert LowLimit(second_floor=60, third_floor=40).muddy(57, 59)


def test_a_muddy_rhodes_chord_opens_upward_and_keeps_its_notes() -> None:
    # the audit's neo-soul Rhodes: D3 Eb3 G3 Bb3 (a semitone under E3)
    opened = clear_low_intervals(_notes("D3 Eb3 G3 Bb3"))
    assert opened == _notes("D3 G3 Bb3 Eb4")
    # a pad's G2 B2 D3: nothing under a fifth below C3
    assert clear_low_intervals(_notes("G2 B2 D3")) == _notes("G2 D3 B3")


def test_a_note_that_cannot_rise_is_left_out() -> None:
    assert clear_low_intervals((50, 51), high=60) == (50,)


@given(st.lists(st.integers(24, 96), min_size=1, max_size=6))
def test_an_opened_voicing_has_no_low_fault_and_no_new_pitch_class(notes: list[int]) -> None:
    opened = clear_low_intervals(notes)
    assert low_interval_faults(opened) == []
    assert {p % 12 for p in opened} <= {p % 12 for p in notes}
    assert min(opened) == min(notes)


def test_nested_sets_are_one_chord_doubled() -> None:
    assert nested((52, 55), (48, 52, 55))  # E-G inside C-E-G, whatever the octave
    assert nested((60, 64, 67), (64, 67, 72, 76))  # the same classes
    assert not nested((52, 55, 62), (48, 52, 55))  # the pad's 9th sets it apart
    assert not nested((), (48, 52))


def test_upper_voice_motion_leaves_the_bass_out() -> None:
    c = _notes("C3 E3 G3 C4")
    am = _notes("A2 E3 A3 C4")
    assert upper_voice_motion(c, am) == 2  # G3 to A3; E3 and C4 held
    assert upper_voice_motion(c, c) == 0
