"""The player against real MIDI ports (JACK loopback): what arrives is what a producer hears."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator

import pytest

from muse_tui.audition import Player, open_output
from tests.audition.fakes import StampedPort, note_balance, wait_until
from tests.audition.songs import KICK, expected_events, groove, other_bass
from tests.midi_ports import Loopback

pytestmark = pytest.mark.ports

FAST = 960.0  # BPM: 8 bars in two seconds


@pytest.fixture
def stamped(loopback: Loopback) -> StampedPort:
    return StampedPort(open_output(loopback.port_name))


@pytest.fixture
def player(stamped: StampedPort) -> Iterator[Player]:
    player = Player(stamped, realtime=True)  # as the CLI and the player process run it
    yield player
    player.close()
    assert not player._thread.is_alive()


def _bytes(received: list) -> list[tuple[int, ...]]:  # type: ignore[type-arg]
    return [tuple(r.message.bytes()) for r in received]


def _is_setup(m: tuple[int, ...]) -> bool:
    """Program, volume and pan sent before the first note."""
    return m[0] & 0xF0 == 0xC0 or (m[0] & 0xF0 == 0xB0 and m[1] in (7, 10))


def test_an_eight_bar_song_arrives_complete_in_order_and_balanced(
    player: Player, loopback: Loopback
) -> None:
    song = groove(bars=8)
    player.load(song)
    player.set_tempo(FAST)
    player.play()
    assert player.wait_until_stopped(timeout=10)
    assert player.status == "stopped" and player.last_error is None
    received = _bytes(loopback.wait_quiet(quiet_for=0.2))

    channels = sorted({t.channel for t in song.tracks})
    setup = [
        *[(0xB0 | 9, 7, 100), (0xB0 | 9, 10, 64)],
        *[
            m
            for ch, program in ((1, 38), (2, 4), (3, 81))
            for m in [(0xC0 | ch, program), (0xB0 | ch, 7, 100), (0xB0 | ch, 10, 64)]
        ],
    ]
    tail = [(0xB0 | ch, 64, 0) for ch in channels] + [(0xB0 | ch, 123, 0) for ch in channels]
    song_part = received[len(setup) : len(received) - len(tail)]
    assert received[: len(setup)] == setup
    assert song_part == [m for _, m in expected_events(song)]
    assert received[len(received) - len(tail) :] == tail
    assert note_balance(received) == ({}, [])


def test_a_thousand_random_moves_leave_no_stuck_or_orphan_notes(
    player: Player, loopback: Loopback
) -> None:
    rng = random.Random(20261122)
    song = groove(bars=8)
    player.load(song, alternatives={"bass": [other_bass(8)]})
    player.set_tempo(FAST)
    roles = [t.role for t in song.tracks]
    moves = [
        lambda: player.play(from_bar=rng.randrange(8)),
        lambda: player.play(from_bar=None),
        player.stop,
        lambda: player.loop(a := rng.randrange(7), rng.randrange(a + 1, 9)),
        lambda: player.loop(None),
        lambda: player.loop_section(rng.choice(["intro", "hook"])),
        lambda: player.mute(rng.choice(roles), rng.random() < 0.5),
        lambda: player.solo(rng.choice(roles), rng.random() < 0.5),
        lambda: player.play_only(rng.choice([*roles, None])),
        lambda: player.set_alternative("bass", rng.choice([0, None])),
        lambda: player.set_tempo(rng.uniform(300, 999)),
    ]
    player.play()
    for _ in range(1000):
        rng.choice(moves)()
        time.sleep(rng.uniform(0, 0.004))  # let the song move between moves
    player.stop()
    assert player.sync()
    received = _bytes(loopback.wait_quiet(quiet_for=0.2))

    sounding, orphans = note_balance(received)
    assert orphans == []
    assert sounding == {}
    assert sum(m[0] & 0xF0 == 0x90 for m in received) > 100, "the moves should leave time to play"
    assert player.last_error is None


def test_an_ab_switch_lands_on_the_bar_line_and_the_band_plays_on(
    player: Player, stamped: StampedPort, loopback: Loopback
) -> None:
    song = groove(bars=8)
    tempo = 480.0  # half a second a bar
    player.load(song, alternatives={"bass": [other_bass(8)]})
    player.set_tempo(tempo)
    player.play()
    assert wait_until(lambda: player.playhead.song_beat >= 1.0)
    player.set_alternative("bass", 0)
    assert wait_until(lambda: player.playhead.bar >= 2, timeout=3)
    player.stop()
    assert player.sync()
    received = _bytes(loopback.wait_quiet(quiet_for=0.2))

    assert received == [m for _, m in stamped.sent], "everything sent arrived, in order"
    seconds_per_beat = 60 / tempo
    kicks = [t for t, m in stamped.sent if m == (0x99, KICK, 110)]
    origin = statistics.median(t - i * seconds_per_beat for i, t in enumerate(kicks))
    bar_line = origin + 4 * seconds_per_beat
    b_notes = [(t, m[1]) for t, m in stamped.sent if m[0] == 0x91 and m[1] in (40, 45, 47, 44)]
    assert b_notes, "the alternative bass played"
    first_b_at, first_b_pitch = b_notes[0]
    assert first_b_pitch == 45  # the B line's root for bar 1
    assert abs(first_b_at - bar_line) < 0.002
    a_notes = [t for t, m in stamped.sent if m[0] == 0x91 and m[1] in (36, 41, 43, 39)]
    assert all(t < bar_line for t in a_notes), "no A note after the bar line"

    # The drums, chords and lead play on: before bar 2 they sent exactly their own
    # part, with no early note-off and no All Notes Off.
    band = (9, 2, 3)
    before_bar_2 = origin + 7.9 * seconds_per_beat
    played = [m for t, m in stamped.sent if t < before_bar_2 and not _is_setup(m)]
    heard = [m for m in played if m[0] & 0x0F in band]
    written = [m for beat, m in expected_events(song) if beat < 7.9 and m[0] & 0x0F in band]
    assert heard == written


def test_a_port_vanishing_mid_song_stops_with_a_clear_message(
    player: Player, loopback: Loopback
) -> None:
    player.load(groove(bars=8))
    player.set_tempo(240)  # eight seconds: long enough to pull the plug mid-song
    player.play()
    loopback.wait_for(40, timeout=5)
    loopback.close()

    assert player.wait_until_stopped(timeout=3)
    assert player.status == "error"
    assert loopback.port_name in (player.last_error or "")
    assert "went away" in (player.last_error or "")
    assert not player.playhead.playing
    started = time.monotonic()
    player.close()
    assert time.monotonic() - started < 1.0
    assert not player._thread.is_alive()
