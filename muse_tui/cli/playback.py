"""Playback for headless runs: the audition player behind the engine's Playback protocol."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import Console

from muse_tui.audition import Player, PortError, open_configured_output
from muse_tui.contracts import SongState
from muse_tui.engine.protocols import PlaybackUnavailable
from muse_tui.knowledge.midi_setup import midi_port_hint


@dataclass
class TerminalPlayback:
    """Opens the configured MIDI output (or the virtual `muse-studio` port) when S8 asks to play."""

    console: Console
    port: str | None = None
    player: Player | None = field(default=None, init=False)

    def start(self, song: SongState) -> None:
        try:
            output, notices = open_configured_output(self.port)
        except PortError as exc:
            raise PlaybackUnavailable(str(exc), midi_port_hint()) from None
        for notice in notices:
            self.console.print(f"[yellow]{notice}[/]")
        self.player = Player(output)
        self.player.load(song)
        self.player.play(from_bar=0)
        self.console.print(f"Playing through {output.name}; Ctrl-C stops.")

    def wait(self) -> None:
        """Block until the song ends or Ctrl-C; always releases every note and the port."""
        if self.player is None:
            return
        try:
            self.player.wait_until_stopped()
            if self.player.last_error:
                self.console.print(f"[red]{self.player.last_error}[/]")
        except KeyboardInterrupt:
            self.console.print("Stopped.")
        finally:
            self.player.close()


def open_playback(console: Console, port: str | None = None) -> TerminalPlayback:
    return TerminalPlayback(console, port)
