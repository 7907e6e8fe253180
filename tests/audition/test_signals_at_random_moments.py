"""Signals at any moment: no note left sounding at a real port, no traceback.

The player process holds INT, TERM and HUP back until its handlers are in
place; the command's handler silences every player itself, so whatever the
code it interrupts was doing, the release happens.
"""

from __future__ import annotations

import functools
import os
import random
import signal
from pathlib import Path

import pytest

from muse_tui.audition import PlayerProcess, open_output
from muse_tui.cli.playback import Ended, ending_on_signals
from tests.audition.signal_trials import (
    SIGNALS,
    play_command,
    run_trial,
    still_sounding,
    write_playable_session,
)
from tests.audition.songs import groove
from tests.midi_ports import Loopback


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_while_the_player_process_starts_up_waits_for_its_handlers(
    signum: int, capfd: pytest.CaptureFixture[str]
) -> None:
    player = PlayerProcess(None, realtime=False)
    os.kill(player._process.pid, signum)  # it is still importing: Python has no handler yet
    if signum == signal.SIGINT:  # the command's to handle: the player keeps going
        player.wait_ready()
        assert player._process.is_alive()
    else:  # its own handler ends it, as after a release
        player._process.join(30)
    player.close()
    assert player._process.exitcode == 0, "ended by its own handler, not by the signal"
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.ports
def test_the_signal_handler_silences_the_player_whatever_it_interrupted(
    loopback: Loopback,
) -> None:
    player = PlayerProcess(functools.partial(open_output, loopback.port_name))
    player.wait_ready()
    player.load(groove(bars=8, tempo=240))
    player.loop(0, 8)
    player.play(0)
    loopback.wait_for(30, timeout=15)
    with pytest.raises(Ended), ending_on_signals():
        signal.raise_signal(signal.SIGTERM)
    # Nothing here stops or closes the player, as when the signal cuts a close short.
    player._process.join(10)
    received = [tuple(r.message.bytes()) for r in loopback.wait_quiet(quiet_for=0.3)]
    assert player._process.exitcode == 0
    assert still_sounding(received) == {}
    player.close()


@pytest.mark.slow
@pytest.mark.ports
def test_signals_at_random_moments_leave_nothing_sounding(
    tmp_path: Path, loopback: Loopback
) -> None:
    folder = write_playable_session(tmp_path)
    env = {**os.environ, "MUSE_CONFIG_DIR": str(tmp_path / "config")}
    rng = random.Random(34)
    trials = [
        run_trial(
            play_command(folder, loopback),
            loopback,
            name,
            rng.uniform(0.1, 1.5),  # not before Python itself has started
            env,
            after_first_note=number % 3 != 0,  # a third of them while it starts up
        )
        for number, name in enumerate(list(SIGNALS) * 3)
    ]
    failed = [t for t in trials if t.failed]
    assert not failed, "\n".join(map(str, failed))
    assert sum(t.notes_on > 0 for t in trials) >= 4, "most signals came while notes sounded"
