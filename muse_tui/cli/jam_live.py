"""`muse-studio jam --play`: the band live through a MIDI output, directions typed on stdin.

Each round is prepared halfway through the loop before it and lands on the
loop boundary (`session.jam_live.LiveJam`). Ctrl-C, TERM and HUP stop it with every
note off (exit 130/143/129); a port that goes away stops it with one sentence.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import click

from muse_tui.contracts.jam import JamRound
from muse_tui.engine.jam import Jam
from muse_tui.knowledge import SkillFileError
from muse_tui.session.jam_live import LiveJam
from muse_tui.store.atomic import WriteFailed, advice_sentence
from muse_tui.store.sessions import sessions_root

from .common import fail, fail_on
from .playback import ending_on_signals, exit_code, start_player_or_exit

#: How often the playhead is looked at (seconds): a round is prepared within this of mid-loop.
TICK_S = 0.005


def play_live(
    prompt: str,
    seed: int,
    rounds: int,
    said: dict[int, str],
    port_query: str | None,
    *,
    keep: bool = False,
) -> tuple[list[JamRound], Path | None]:
    """Play `rounds` passes of the loop live; the rounds heard and the kept session, if asked."""
    with ending_on_signals():
        try:
            band = Jam(prompt, seed)
        except SkillFileError as exc:
            fail_on(exc)
        started = start_player_or_exit(port_query)
        player = started.player
        live = LiveJam(band, player)
        kept: Path | None = None
        try:
            for notice in started.notices:
                click.echo(notice, err=True)
            if started.virtual:
                click.echo(f"Jamming through the virtual output {player.port_name!r}.")
            _listen_to_stdin(live)
            live.start()
            _say(live.heard[-1])
            _run(live, rounds, said)
            if keep:
                kept = live.keep(sessions_root())
        except KeyboardInterrupt as interrupt:
            player.stop()  # close() below lets every note go before the exit
            click.echo("\nStopped.")
            sys.exit(exit_code(interrupt))
        except (WriteFailed, OSError) as exc:
            player.stop()
            fail(f"Could not write the kept session: {exc}.", advice_sentence(exc))
        finally:
            player.close()
            band.close()
    if player.last_error:
        fail(player.last_error)
    return live.heard, kept


def _run(live: LiveJam, rounds: int, said: dict[int, str]) -> None:
    """Tick until `rounds` rounds were queued and the last one has played a whole pass."""
    given: set[int] = set()
    while True:
        upcoming = len(live.heard) + 1
        if upcoming in said and upcoming not in given:
            live.direct(said[upcoming])
            given.add(upcoming)
        if len(live.heard) < rounds:
            queued = live.tick()
            if queued is not None:
                _say(queued)
        else:
            live.tick(prepare=False)
            if live.passes >= rounds:
                break
        if live.player.status in ("error", "closed", "stopped") and not live.player.pending:
            break
        time.sleep(TICK_S)
    live.stop()


def _listen_to_stdin(live: LiveJam) -> None:
    """Each line typed (or piped) is a direction for the next round."""
    if sys.stdin is None or sys.stdin.closed:
        return

    def read() -> None:
        for line in sys.stdin:
            if line.strip():
                live.direct(line.strip())

    threading.Thread(target=read, name="jam-stdin", daemon=True).start()


def _say(round_: JamRound) -> None:
    click.echo(f"round {round_.number}: {round_.context.key} {round_.context.mode}")
    for note in round_.notes:
        click.echo(f"  {note}")
    for member in round_.members:
        if member.thought:
            click.echo(f"  {member.name}: {member.thought}")
