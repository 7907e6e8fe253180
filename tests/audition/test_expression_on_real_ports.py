"""Expression against real MIDI ports: whatever is held when playback ends is let go.

A Rhodes with its sustain pedal, pressure and a scoop plays through JACK; on
stop mid-chord and at the song's end the channel must come back to rest: pedal
up, channel pressure 0, pitch bend centred, then All Notes Off, in that order.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from muse_tui.audition import Player, open_output
from muse_tui.compose.assembly import arrange_for_playback
from muse_tui.contracts.song import ExpressionRequest, PitchBend, SongState
from tests.audition.fakes import StampedPort, note_balance, wait_until
from tests.audition.songs import region, track
from tests.midi_ports import Loopback

pytestmark = pytest.mark.ports

CHANNEL = 2
CHORDS = [(60, 64, 67), (57, 60, 64), (53, 57, 60), (55, 59, 62)]


@pytest.fixture
def player(loopback: Loopback) -> Iterator[Player]:
    player = Player(StampedPort(open_output(loopback.port_name)), realtime=True)
    yield player
    player.close()


def _rhodes_song(bars: int) -> SongState:
    """Whole-bar chords on a Rhodes, pedalled and pressed by the expression planner."""
    notes = [(bar * 4, 4.0, p, 80) for bar in range(bars) for p in CHORDS[bar % len(CHORDS)]]
    clip = region(0, bars * 4, notes)
    clip = clip.model_copy(update={"pitch_bends": [PitchBend(beat=bars * 2, value=1500)]})
    keys = track("keys", CHANNEL, [clip], program=4, instrument="rhodes")
    song = SongState(tempo=120, tracks=[keys])
    requests = [ExpressionRequest(kind="sustain", role="keys")]
    requests.append(ExpressionRequest(kind="pressure", role="keys"))
    return arrange_for_playback(song.model_copy(update={"expression": requests}))


def _on_channel(loopback: Loopback) -> list[tuple[int, ...]]:
    received = [tuple(r.message.bytes()) for r in loopback.wait_quiet(quiet_for=0.2)]
    return [m for m in received if m[0] & 0x0F == CHANNEL]


def _at_rest(messages: list[tuple[int, ...]]) -> None:
    """Pedal up, pressure 0, bend centre, All Notes Off: the last word on each controller."""
    pedal = [m[2] for m in messages if m[0] == 0xB0 | CHANNEL and m[1] == 64]
    pressure = [m[1] for m in messages if m[0] == 0xD0 | CHANNEL]
    bends = [(m[1], m[2]) for m in messages if m[0] == 0xE0 | CHANNEL]
    assert 127 in pedal and pedal[-1] == 0
    assert max(pressure) > 0 and pressure[-1] == 0
    assert bends[-1] == (0x00, 0x40), "bend back at centre (8192)"
    assert messages[-1] == (0xB0 | CHANNEL, 123, 0)
    assert note_balance(messages) == ({}, [])


def test_stopping_mid_chord_lifts_the_pedal_and_releases_pressure_and_bend(
    player: Player, loopback: Loopback
) -> None:
    player.load(_rhodes_song(bars=8))
    player.set_tempo(240)
    player.play()
    assert wait_until(lambda: player.playhead.song_beat > 17.5, timeout=10)  # pedal down, bent
    player.stop()
    assert player.wait_until_stopped(timeout=5)
    messages = _on_channel(loopback)
    tail = messages[-4:]
    assert tail[0] == (0xB0 | CHANNEL, 64, 0)
    assert tail[1] == (0xD0 | CHANNEL, 0)
    assert tail[2][0] == 0xE0 | CHANNEL and tail[3] == (0xB0 | CHANNEL, 123, 0)
    _at_rest(messages)


def test_the_song_ends_with_the_pedal_up_and_pressure_reset(
    player: Player, loopback: Loopback
) -> None:
    player.load(_rhodes_song(bars=4))
    player.set_tempo(480)
    player.play()
    assert player.wait_until_stopped(timeout=10)
    assert player.last_error is None
    _at_rest(_on_channel(loopback))
