"""Playback in the terminal: the player process behind `play` and `compose --play`, and the
signals that end it with every note off."""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field

from rich.console import Console

from muse_tui.audition import PlayerProcess, PortError, choose_output, open_virtual_output
from muse_tui.audition.player_process import silence_every_player
from muse_tui.contracts import SongState
from muse_tui.engine.protocols import PlaybackUnavailable
from muse_tui.knowledge.midi_setup import midi_port_hint

from .common import fail

ENDING_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Ended(KeyboardInterrupt):
    """Ctrl-C, SIGTERM or SIGHUP arrived: playback stops and every note goes."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def exit_code(interrupt: KeyboardInterrupt) -> int:
    """The shell's code for the signal that ended us: 130 for Ctrl-C, 143 TERM, 129 HUP."""
    return 128 + (interrupt.signum if isinstance(interrupt, Ended) else signal.SIGINT)


def _raise_ended(signum: int, _frame: object) -> None:
    # The players are silenced here, in the handler, and not by the code the exception
    # unwinds to: it may land anywhere (half way through a command to the player, or
    # through closing it), and that code could then be skipped. Later signals are only
    # noted, so none cuts the way out short.
    silence_every_player()
    for heard in ENDING_SIGNALS:
        if signal.getsignal(heard) is _raise_ended:
            signal.signal(heard, _noted)
    raise Ended(signum)


def _noted(signum: int, _frame: object) -> None:
    """A signal after the first: the players are already letting go, and we are leaving."""


@contextlib.contextmanager
def ending_on_signals() -> Iterator[None]:
    """While playing, Ctrl-C, TERM and HUP (a closed terminal) silence every player, then
    raise `Ended` in the main thread."""
    # A signal ignored from the start stays ignored: `nohup` ignores HUP, and a
    # non-interactive shell's `&` ignores INT, so Ctrl-C in that terminal is not ours.
    heard = [s for s in ENDING_SIGNALS if signal.getsignal(s) is not signal.SIG_IGN]
    previous = {s: signal.signal(s, _raise_ended) for s in heard}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@dataclass(frozen=True)
class Started:
    """A player process with its port open, and what to tell the producer about the choice."""

    player: PlayerProcess
    notices: list[str]
    virtual: bool


def start_player(port_query: str | None = None) -> Started:
    """Choose the output (remembering `port_query`) and start the real-time player process on it.

    A process of its own, at real-time priority where allowed, keeps time on a
    busy machine; a thread beside the terminal's work does not (bench/audition.py).
    Raises PortError with the sentence to show when no output can be opened.
    """
    opener, notices = choose_output(port_query)
    player = PlayerProcess(opener)
    try:
        player.wait_ready()
    except BaseException:
        player.close()
        raise
    return Started(player, notices, opener is open_virtual_output)


def start_player_or_exit(port_query: str | None = None) -> Started:
    """`start_player` for a command: no output ends it with the sentence to show, and a
    signal while the port opens ends it with the signal's exit code."""
    try:
        return start_player(port_query)
    except PortError as exc:
        fail(str(exc))
    except KeyboardInterrupt as interrupt:
        sys.exit(exit_code(interrupt))


@dataclass
class TerminalPlayback:
    """Opens the configured MIDI output (or the virtual `muse-studio` port) when S8 asks to play."""

    console: Console
    port: str | None = None
    player: PlayerProcess | None = field(default=None, init=False)
    interrupted: KeyboardInterrupt | None = field(default=None, init=False)

    def start(self, song: SongState) -> None:
        try:
            started = start_player(self.port)
        except PortError as exc:
            raise PlaybackUnavailable(str(exc), midi_port_hint()) from None
        for notice in started.notices:
            self.console.print(f"[yellow]{notice}[/]")
        self.player = started.player
        self.player.load(song)
        self.player.play(from_bar=0)
        self.console.print(f"Playing through {self.player.port_name}; Ctrl-C stops.")

    def wait(self) -> None:
        """Block until the song ends, Ctrl-C, TERM or HUP; always lets every note go."""
        if self.player is None:
            return
        try:
            with ending_on_signals():
                self.player.wait_until_stopped()
            if self.player.last_error:
                self.console.print(f"[red]{self.player.last_error}[/]")
        except KeyboardInterrupt as interrupt:
            self.interrupted = interrupt
            self.player.stop()
            self.console.print("Stopped.")
        finally:
            self.player.close()


def open_playback(console: Console, port: str | None = None) -> TerminalPlayback:
    return TerminalPlayback(console, port)
