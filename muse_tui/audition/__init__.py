"""Audition: play a song, one track, a section loop or an A/B alternative through a MIDI port.

Ports (`ports.py`)::

    list_output_ports() -> [PortInfo(name, backend, api)]   # every usable backend
    SCANNER.ports(rescan=True)                               # the same, at most once a second
    open_output("IAC")        -> RtMidiOutput   # exact name or unique substring, else PortError
    open_virtual_output()     -> RtMidiOutput   # "muse-studio" (not on Windows: loopMIDI)
    remember_port(name) / configured_port()     # the choice, kept in the user settings

Players: `Player` runs on one non-daemon thread of this process; `PlayerProcess`
runs the same player in a child process, out of reach of a busy UI thread's
GIL (the studio's choice; see bench/audition.py). Both take the same controls,
and every control just queues a command and returns::

    player = Player(port)                 # port may be None, then use_port(port) later
    player = PlayerProcess(partial(open_output, "IAC"))   # the port opens in the child
    player.wait_ready()                   # PlayerProcess: PortError if the port did not open
    player.load(song, alternatives={"bass": [track_b, track_c]})
    player.play(from_bar=0, to_bar=None)  # from_bar=None resumes where it stopped
    player.stop(); player.panic()
    player.loop(4, 8); player.loop_section("hook"); player.loop(None)
    player.mute("drums", True); player.solo("bass", True); player.play_only("bass")
    player.set_alternative("bass", 1)     # on the next bar line; None = the song's own part
    player.set_tempo(92)                  # from the next beat, no jump
    player.playhead -> Playhead(bar, beat, seconds, playing, tempo, song_beat, looping)
    player.status -> "stopped" | "playing" | "error" | "closed"
    player.last_error -> one sentence with what to do, or None
    player.wait_until_stopped(timeout); player.sync(); player.close()  # close joins
    Player(port, on_change=callback)      # (status, transport) on every change, for the UI
    Player(port, realtime=True)           # ask for SCHED_FIFO (PlayerProcess does by default)

A port that vanishes or fails, a missing song or port: playback stops, every
sounding note is released, `status` is "error" and `last_error` says what to
do. Nothing raises out of the thread; only bad arguments raise ValueError in
the caller.
"""

from muse_tui.audition.board import Status
from muse_tui.audition.clock import Playhead
from muse_tui.audition.controls import PlayerControls
from muse_tui.audition.player import Player
from muse_tui.audition.player_process import PlayerProcess
from muse_tui.audition.port_choice import (
    choose_output,
    configured_port,
    open_configured_output,
    remember_port,
)
from muse_tui.audition.ports import (
    SCANNER,
    VIRTUAL_PORT_NAME,
    OutputPort,
    PortError,
    PortInfo,
    PortScanner,
    RtMidiOutput,
    list_output_ports,
    match_port,
    open_output,
    open_virtual_output,
)

__all__ = [
    "SCANNER",
    "VIRTUAL_PORT_NAME",
    "OutputPort",
    "Player",
    "PlayerControls",
    "PlayerProcess",
    "Playhead",
    "PortError",
    "PortInfo",
    "PortScanner",
    "RtMidiOutput",
    "Status",
    "choose_output",
    "configured_port",
    "list_output_ports",
    "match_port",
    "open_configured_output",
    "open_output",
    "open_virtual_output",
    "remember_port",
]
