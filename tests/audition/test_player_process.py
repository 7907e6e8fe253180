"""The player in its own process: same controls, same behaviour, and it ends with the studio."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from muse_tui.audition import PlayerProcess, PortError, open_output
from tests.audition.fakes import note_balance, reporting_port, wait_until
from tests.audition.songs import expected_events, groove
from tests.midi_ports import Loopback

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.ports
def test_a_song_played_from_the_process_arrives_complete(loopback: Loopback) -> None:
    song = groove(bars=4)
    with PlayerProcess(functools.partial(open_output, loopback.port_name)) as player:
        player.load(song)
        player.set_tempo(960)
        player.play()
        assert player.wait_until_stopped(timeout=15)
        assert player.status == "stopped" and player.last_error is None
        assert player.playhead.bar == 4
        received = [tuple(r.message.bytes()) for r in loopback.wait_quiet(quiet_for=0.2)]
    notes = [m for m in received if m[0] & 0xF0 in (0x80, 0x90)]
    assert notes == [m for _, m in expected_events(song) if m[0] & 0xF0 in (0x80, 0x90)]
    assert note_balance(received) == ({}, [])
    assert player.status == "closed"


@pytest.mark.ports
def test_the_process_reports_a_vanished_port(loopback: Loopback) -> None:
    with PlayerProcess(functools.partial(open_output, loopback.port_name)) as player:
        player.load(groove(bars=8))
        player.set_tempo(240)
        player.play()
        loopback.wait_for(30, timeout=15)
        loopback.close()
        assert player.wait_until_stopped(timeout=3)
        assert player.status == "error" and "went away" in (player.last_error or "")


def test_a_port_that_will_not_open_is_the_error_to_show() -> None:
    opener = functools.partial(open_output, "no-such-output-anywhere")
    with PlayerProcess(opener) as player:
        with pytest.raises(PortError, match="No MIDI output matches 'no-such-output"):
            player.wait_ready()
        player.load(groove(bars=2))
        player.play()
        assert player.wait_until_stopped(timeout=15)
        assert player.status == "error"
        assert (player.last_error or "").startswith("No MIDI output matches 'no-such-output")


def test_the_playhead_is_read_here_while_the_child_plays() -> None:
    with PlayerProcess(reporting_port) as player:
        player.wait_ready()
        player.load(groove(bars=8))
        player.set_tempo(240)
        player.loop_section("hook")
        player.play()
        assert wait_until(lambda: player.playhead.playing, timeout=15)
        first = player.playhead.song_beat
        assert wait_until(lambda: player.playhead.song_beat > first + 1)
        assert 16 <= player.playhead.song_beat < 32 and player.playhead.looping


def test_python_exiting_without_close_lets_every_note_go() -> None:
    script = textwrap.dedent(
        """
        from muse_tui.audition import PlayerProcess
        from tests.audition.fakes import reporting_port, wait_until
        from tests.audition.songs import groove

        if __name__ == "__main__":
            player = PlayerProcess(reporting_port)
            player.load(groove(8))
            player.set_tempo(120)
            player.play()
            assert wait_until(lambda: player.playhead.song_beat > 0.5, timeout=15)
            print("leaving mid-song", flush=True)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "leaving mid-song"
    assert lines[1].startswith("closed: ") and lines[1].endswith("sounding {}, orphans []")


def test_a_player_process_stuck_in_its_port_does_not_keep_the_studio_from_exiting() -> None:
    """The child ignores TERM while it lets its notes go; if its port never closes, the
    studio must still end (Python joins its child processes at exit, without a limit)."""
    script = textwrap.dedent(
        """
        from muse_tui.audition import PlayerProcess
        from tests.audition.fakes import stuck_port

        if __name__ == "__main__":
            player = PlayerProcess(stuck_port)
            player.wait_ready()
            player.close(timeout=0.5)
            print("closed", flush=True)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["closed"]


def test_it_starts_under_a_host_that_captures_stdout_and_stderr() -> None:
    """Textual replaces sys.stdout/stderr with objects whose fileno() is -1 for the whole run."""
    script = textwrap.dedent(
        """
        import sys

        class Captured:
            def write(self, text): return len(text)
            def flush(self): pass
            def fileno(self): return -1

        if __name__ == "__main__":
            from muse_tui.audition import PlayerProcess
            from tests.audition.fakes import reporting_port

            sys.stdout, sys.stderr = Captured(), Captured()
            with PlayerProcess(reporting_port) as player:
                player.wait_ready()
                captured = isinstance(sys.stderr, Captured)
            sys.__stdout__.write(f"ready {captured}\\n")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "ready True"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
def test_a_signal_to_the_player_process_lets_every_note_go(
    signum: int, capfd: pytest.CaptureFixture[str]
) -> None:
    player = PlayerProcess(reporting_port)
    try:
        player.wait_ready()
        player.load(groove(8))
        player.set_tempo(120)
        player.play()
        assert wait_until(lambda: player.playhead.song_beat > 0.5, timeout=15)
        os.kill(player._process.pid, signum)
        player._process.join(10)
        assert player._process.exitcode == 0, "it ended on its own terms, not killed mid-note"
    finally:
        player.close()
    closed = [line for line in capfd.readouterr().out.splitlines() if line.startswith("closed: ")]
    assert len(closed) == 1 and closed[0].endswith("sounding {}, orphans []"), closed
    assert int(closed[0].split()[1]) > 4, "it played before the signal"


def test_a_command_is_pending_until_the_child_has_carried_it_out() -> None:
    """The studio keeps reading the playhead while `pending`: "stopped" may be from before."""
    with PlayerProcess(reporting_port) as player:
        player.load(groove(bars=8))
        player.set_tempo(240)
        player.play()  # right after the process started: the child is still importing
        assert player.pending
        assert wait_until(lambda: not player.pending, timeout=30)
        assert player.status == "playing"  # the answer comes after the status it caused
        player.stop()
        assert wait_until(lambda: not player.pending, timeout=15)
        assert player.status == "stopped"
