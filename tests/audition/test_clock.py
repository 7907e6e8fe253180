"""The transport clock: beats to seconds from a fixed origin, tempo changes on the beat."""

from __future__ import annotations

import pytest

from muse_tui.audition.clock import Transport


def rolling(
    bpm: float = 120.0, at: float = 100.0, beat: float = 0.0, bar: float = 4.0
) -> Transport:
    return Transport.stopped_at(0.0, bpm, bar).started(beat, at)


def test_beats_map_to_absolute_times_from_the_origin() -> None:
    transport = rolling(bpm=120, at=100.0)
    assert transport.time_at(0) == 100.0
    assert transport.time_at(8) == pytest.approx(104.0)
    assert transport.time_at(1000) == pytest.approx(600.0)  # no drift however far out
    assert transport.beat_at(101.25) == pytest.approx(2.5)


def test_a_tempo_change_waits_for_the_next_beat_and_does_not_jump() -> None:
    before = rolling(bpm=120, at=100.0)
    now = 100.0 + 2.3 * 0.5  # beat 2.3
    after = before.with_tempo(60, now)

    assert after.beat_at(now) == pytest.approx(2.3)  # the playhead does not move
    assert after.time_at(3) == pytest.approx(before.time_at(3))  # beat 3 keeps its time
    assert after.time_at(4) - after.time_at(3) == pytest.approx(1.0)  # one beat at 60 BPM
    assert after.time_at(2.5) == pytest.approx(before.time_at(2.5))  # the rest of beat 2: old tempo
    assert after.tempo == 60


def test_tempo_changes_in_a_row_each_land_on_a_beat() -> None:
    transport = rolling(bpm=120, at=0.0)
    transport = transport.with_tempo(240, 0.2)  # beat 0.4 → from beat 1
    transport = transport.with_tempo(60, 0.5 + 0.1)  # beat 1.4 → from beat 2
    assert transport.time_at(1) == pytest.approx(0.5)
    assert transport.time_at(2) == pytest.approx(0.75)
    assert transport.time_at(3) == pytest.approx(1.75)
    assert transport.beat_at(1.0) == pytest.approx(2.25)


def test_a_second_change_before_the_beat_replaces_the_first() -> None:
    transport = rolling(bpm=120, at=0.0).with_tempo(240, 0.1).with_tempo(60, 0.2)
    assert transport.time_at(2) - transport.time_at(1) == pytest.approx(1.0)
    assert transport.tempo == 60


def test_a_tempo_change_while_stopped_applies_at_once() -> None:
    transport = Transport.stopped_at(8.0, 120, 4).with_tempo(90, 5.0)
    assert transport.tempo == 90
    assert transport.started(8.0, 10.0).time_at(9) == pytest.approx(10 + 60 / 90)


def test_the_playhead_counts_bars_and_beats_in_the_time_signature() -> None:
    waltz = rolling(bpm=60, at=0.0, bar=3.0)
    head = waltz.playhead(7.5)
    assert (head.bar, head.beat) == (2, pytest.approx(1.5))
    assert head.seconds == pytest.approx(7.5)
    assert head.playing

    six_eight = rolling(bpm=60, at=0.0, bar=3.0).playhead(3.0)
    assert (six_eight.bar, six_eight.beat) == (1, 0.0)


def test_the_playhead_folds_into_the_loop_and_stops_at_the_end() -> None:
    looping = rolling(bpm=60, at=0.0).with_loop((4.0, 8.0))
    assert looping.playhead(9.0).song_beat == pytest.approx(5.0)
    ending = Transport.stopped_at(0.0, 60, 4).started(0.0, 0.0, end_beat=16.0)
    assert ending.playhead(20.0).song_beat == 16.0


def test_stopping_keeps_the_position() -> None:
    stopped = rolling(bpm=120, at=0.0).stopped(3.0)
    assert not stopped.playing
    assert stopped.playhead(99.0).song_beat == pytest.approx(6.0)


def test_the_next_bar_line() -> None:
    transport = rolling(bpm=60, at=0.0)
    assert transport.next_bar_line(1.0) == 4.0
    assert transport.next_bar_line(4.0) == 4.0  # on the line: now
    assert transport.next_bar_line(4.001) == 8.0


def test_a_loop_wrap_rebases_without_losing_time() -> None:
    transport = rolling(bpm=60, at=0.0).with_loop((0.0, 4.0))
    wrapped = transport.rebased(0.0, transport.time_at(4.0))
    assert wrapped.time_at(1.0) == pytest.approx(5.0)


def test_a_tempo_change_for_the_loop_end_waits_for_the_wrap() -> None:
    transport = rolling(bpm=120, at=0.0).with_loop((0.0, 8.0))
    now = 1.0  # beat 2: the change waits for beat 8, where the loop wraps
    after = transport.with_tempo(60, now, from_beat=8.0)
    assert after.beat_at(now) == pytest.approx(2.0)
    assert after.time_at(8) == pytest.approx(transport.time_at(8))  # the pass keeps its tempo
    wrapped = after.rebased(0.0, after.time_at(8))
    assert wrapped.time_at(1) - wrapped.time_at(0) == pytest.approx(1.0)  # the next pass: 60 BPM
    # A beat already behind the next one changes from the next beat, as without it.
    assert transport.with_tempo(60, now, from_beat=1.0) == transport.with_tempo(60, now)
