"""The player thread with an in-memory port: stops, mutes, loops and failures, no stuck notes."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from muse_tui.audition import Player
from tests.audition.fakes import RecordingPort, note_balance, wait_until
from tests.audition.songs import groove, other_bass, waltz

ROOT = Path(__file__).resolve().parents[2]
ALL_NOTES_OFF = 123


@pytest.fixture
def port() -> RecordingPort:
    return RecordingPort()


@pytest.fixture
def player(port: RecordingPort) -> Iterator[Player]:
    player = Player(port)
    yield player
    player.close()


@pytest.fixture
def timed_player(port: RecordingPort) -> Iterator[Player]:
    """A player whose thread is scheduled first, as the studio's player process asks for:
    its notes' times are checked to 5 ms, which an ordinary thread beside two busy loops
    (CI's load) cannot keep."""
    player = Player(port, realtime=True)
    yield player
    player.close()


def _controls(messages: list[tuple[int, ...]], controller: int) -> list[int]:
    """Channels that got this controller."""
    return [m[0] & 0x0F for m in messages if m[0] & 0xF0 == 0xB0 and m[1] == controller]


def test_stop_lets_every_sounding_note_go(player: Player, port: RecordingPort) -> None:
    player.load(groove(8))
    player.set_tempo(120)
    player.play()
    assert wait_until(lambda: player.playhead.song_beat >= 0.1)
    player.stop()
    assert player.wait_until_stopped(2)
    sent = port.messages()
    assert note_balance(sent) == ({}, [])
    tail = sent[-8:]
    assert tail == [(0xB0 | ch, 64, 0) for ch in (1, 2, 3, 9)] + [
        (0xB0 | ch, ALL_NOTES_OFF, 0) for ch in (1, 2, 3, 9)
    ]
    assert player.status == "stopped" and not player.playhead.playing


def test_muting_a_track_silences_it_and_nothing_else(player: Player, port: RecordingPort) -> None:
    player.load(groove(8))
    player.set_tempo(240)
    player.play()
    assert wait_until(lambda: player.playhead.song_beat >= 0.1)  # chords and bass held
    player.mute("chords")
    assert player.sync()
    muted_at = len(port.messages())
    assert wait_until(lambda: player.playhead.song_beat >= 4.2)
    player.stop()
    player.sync()
    sent = port.messages()
    after_mute = sent[muted_at:]
    assert not any(m[0] == 0x92 for m in after_mute), "no chord note after the mute"
    assert _controls(sent[:muted_at], ALL_NOTES_OFF) == [2], "only the chords channel was cut"
    assert (0x82, 60, 0) in sent[:muted_at]
    assert note_balance(sent) == ({}, [])


def test_play_only_and_solo_pick_who_is_heard(player: Player, port: RecordingPort) -> None:
    player.load(groove(8))
    player.set_tempo(960)
    player.play_only("bass")
    player.play(0, to_bar=2)
    assert player.wait_until_stopped(3)
    channels = {m[0] & 0x0F for m in port.messages() if m[0] & 0xF0 == 0x90}
    assert channels == {1}
    port.clear()
    player.play_only(None)
    player.solo("drums")
    player.solo("lead")
    player.play(0, to_bar=1)
    assert player.wait_until_stopped(3)
    assert {m[0] & 0x0F for m in port.messages() if m[0] & 0xF0 == 0x90} == {3, 9}


def test_a_loop_wraps_at_the_bar_line_and_releases(player: Player, port: RecordingPort) -> None:
    player.load(groove(8))
    player.set_tempo(960)
    player.loop(2, 3)
    player.play()
    # Twice round the one-bar loop: four kicks a pass (a wrap lets notes go, no All Notes Off).
    assert wait_until(lambda: port.messages().count((0x99, 36, 110)) >= 8, timeout=3)
    head = player.playhead
    assert head.looping and 2 <= head.bar < 3
    player.stop()
    player.sync()
    sent = port.messages()
    kicks = [m for m in sent if m == (0x99, 36, 110)]
    assert len(kicks) >= 8  # four per pass, at least twice round
    assert note_balance(sent) == ({}, [])


def test_a_switch_while_stopped_takes_effect_at_once(player: Player, port: RecordingPort) -> None:
    player.load(groove(8), alternatives={"bass": [other_bass(8)]})
    player.set_tempo(960)
    player.set_alternative("bass", 0)
    player.play_only("bass")
    player.play(0, to_bar=1)
    assert player.wait_until_stopped(3)
    assert [m[1] for m in port.messages() if m[0] == 0x91] == [40, 40]


def test_a_tempo_change_for_the_loop_end_lands_where_the_loop_wraps(
    timed_player: Player, port: RecordingPort
) -> None:
    """A jam's next round at a new tempo: this pass keeps its tempo, the next one has it."""
    timed_player.load(groove(8))
    timed_player.set_tempo(240)
    timed_player.play_only("drums")
    timed_player.loop(0, 1)  # one bar, beats 0–4
    timed_player.play(0)
    assert wait_until(lambda: timed_player.playhead.song_beat >= 1.3)
    timed_player.set_tempo(480, at_loop_end=True)
    assert wait_until(lambda: port.messages().count((0x99, 36, 110)) >= 7)
    timed_player.stop()
    timed_player.sync()
    kicks = [t for t, m in port.sent if m == (0x99, 36, 110)]
    beats = [kicks[i] - kicks[0] for i in range(7)]
    expected = [0.0, 0.25, 0.5, 0.75, 1.0, 1.125, 1.25]  # the wrap at 1.0 s; faster from there
    assert beats == pytest.approx(expected, abs=0.005)


def test_a_tempo_change_lands_on_the_next_beat_without_a_jump(
    timed_player: Player, port: RecordingPort
) -> None:
    timed_player.load(groove(8))
    timed_player.set_tempo(240)
    timed_player.play_only("drums")
    timed_player.play()
    assert wait_until(lambda: timed_player.playhead.song_beat >= 1.3)
    timed_player.set_tempo(480)
    assert wait_until(lambda: timed_player.playhead.song_beat >= 4.5)
    timed_player.stop()
    timed_player.sync()
    kicks = [t for t, m in port.sent if m == (0x99, 36, 110)]
    beats = [kicks[i] - kicks[0] for i in range(5)]
    expected = [0.0, 0.25, 0.5, 0.625, 0.75]  # beat 2 keeps its time; faster from there
    assert beats == pytest.approx(expected, abs=0.005)  # a jump would be 60 ms or more


def test_a_waltz_counts_three_beats_a_bar(player: Player, port: RecordingPort) -> None:
    player.load(waltz(bars=4, tempo=240))
    player.loop(1, 2)
    player.play()
    assert wait_until(lambda: player.playhead.song_beat >= 5.2)
    head = player.playhead
    assert head.bar == 1 and 2.0 <= head.beat < 3.0
    player.stop()
    player.sync()
    notes = [m[1] for m in port.messages() if m[0] & 0xF0 == 0x90]
    assert notes[:3] == [40, 64, 64]


def test_the_song_ends_by_itself_at_its_last_bar(player: Player, port: RecordingPort) -> None:
    player.load(groove(4))
    player.set_tempo(960)
    player.play()
    assert player.wait_until_stopped(3)
    head = player.playhead
    assert (head.bar, head.beat, head.playing) == (4, 0.0, False)
    assert player.status == "stopped" and player.last_error is None


def test_reading_the_playhead_never_waits_for_the_player(player: Player) -> None:
    player.load(groove(8))
    player.set_tempo(60)
    player.play()
    assert wait_until(lambda: player.playhead.playing)
    started = time.perf_counter()
    heads = [player.playhead for _ in range(10_000)]
    per_read = (time.perf_counter() - started) / len(heads)
    assert per_read < 50e-6
    assert heads[-1].song_beat >= heads[0].song_beat


def test_without_a_port_play_says_what_to_do() -> None:
    with Player(None) as player:
        player.load(groove(4))
        player.play()
        assert player.wait_until_stopped(2)
        assert player.status == "error"
        assert player.last_error is not None and "muse-studio ports" in player.last_error
        with pytest.raises(ValueError, match="No track 'kazoo'"):
            player.mute("kazoo")


def test_playing_before_loading_is_refused_clearly() -> None:
    with Player(RecordingPort()) as player, pytest.raises(ValueError, match="no song to play"):
        player.play()


def test_a_port_that_fails_mid_song_stops_playback_and_the_player_recovers(
    player: Player, port: RecordingPort
) -> None:
    port.fail_after = 40
    player.load(groove(8))
    player.set_tempo(960)
    player.play()
    assert player.wait_until_stopped(3)
    assert player.status == "error"
    assert "device unplugged" in (player.last_error or "") and port.closed
    fresh = RecordingPort(name="fresh")
    player.use_port(fresh)
    player.play(0, to_bar=1)
    assert player.wait_until_stopped(3)
    assert player.status == "stopped" and player.last_error is None
    assert note_balance(fresh.messages()) == ({}, [])


def test_a_port_that_disappears_is_noticed_within_a_quarter_second(
    player: Player, port: RecordingPort
) -> None:
    player.load(groove(8))
    player.set_tempo(120)
    player.play()
    assert wait_until(lambda: player.playhead.song_beat > 0.2)
    port.present = False
    started = time.monotonic()
    assert player.wait_until_stopped(2)
    assert time.monotonic() - started < 0.5
    assert "'recorder' went away" in (player.last_error or "")


def test_close_joins_the_thread_and_releases(port: RecordingPort) -> None:
    player = Player(port)
    player.load(groove(8))
    player.set_tempo(120)
    player.play()
    assert wait_until(lambda: player.playhead.song_beat > 0.2)
    player.close()
    assert not player._thread.is_alive() and port.closed
    assert note_balance(port.messages()) == ({}, [])
    assert player.status == "closed"
    player.play_only(None)  # calls after close are ignored, not errors


def test_the_player_thread_is_not_a_daemon(player: Player) -> None:
    threads = [t for t in threading.enumerate() if t.name == "muse-audition"]
    assert threads and not any(t.daemon for t in threads)


def test_python_exiting_mid_song_releases_every_note_and_does_not_hang() -> None:
    script = textwrap.dedent(
        """
        from muse_tui.audition import Player
        from tests.audition.fakes import RecordingPort, note_balance, wait_until
        from tests.audition.songs import groove

        class Port(RecordingPort):
            def close(self):
                print("balance", dict(note_balance(self.messages())[0]), flush=True)

        player = Player(Port())
        player.load(groove(8))
        player.set_tempo(120)
        player.play()
        assert wait_until(lambda: player.playhead.song_beat > 0.2)
        print("leaving mid-song", flush=True)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=20
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["leaving mid-song", "balance {}"]
