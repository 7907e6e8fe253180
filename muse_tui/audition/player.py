"""`Player`: the audition player on a dedicated thread of this process.

`PlayerProcess` (player_process.py) is the same player in a process of its own,
for when the main thread is too busy for a thread to keep time; both have the
controls of `PlayerControls`.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable

from muse_tui.audition import commands as cmd
from muse_tui.audition.board import Board, Changed, Status
from muse_tui.audition.clock import Transport
from muse_tui.audition.controls import PlayerControls
from muse_tui.audition.performer import Performer
from muse_tui.audition.ports import OutputPort


class Player(PlayerControls):
    """Plays a song through one MIDI output from its own (non-daemon) thread.

    `port` is handed over: the player thread sends on it and closes it.
    `on_change(status, transport)` is called from the player thread whenever
    either changes (start, stop, error, tempo, loop wrap): post, don't work.
    `realtime` asks the OS to schedule the thread first (priority.py); it cannot
    help against this process's own busy threads, which hold the GIL.
    """

    def __init__(
        self,
        port: OutputPort | None = None,
        *,
        on_change: Changed | None = None,
        realtime: bool = False,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(clock)
        self._commands: queue.SimpleQueue[cmd.Command] = queue.SimpleQueue()
        self._board = Board(Transport(), Status(port_name=port.name if port else None), on_change)
        self._closed = False
        performer = Performer(port, self._commands, self._board, clock, realtime)
        self._thread = threading.Thread(target=performer.run, name="muse-audition", daemon=False)
        self._thread.start()

    def use_port(self, port: OutputPort | None) -> None:
        """Stop and send to another output from now on (the old one is closed)."""
        self._send(cmd.UsePort(port))

    def sync(self, timeout: float = 2.0) -> bool:
        if self._closed:
            return True
        done = threading.Event()
        self._send(cmd.Sync(done))
        return done.wait(timeout)

    def close(self, timeout: float = 5.0) -> None:
        """Let every note go, close the port and join the thread."""
        if not self._closed:
            self._send(cmd.Close())
            self._closed = True
        self._thread.join(timeout)

    def _deliver(self, command: cmd.Command) -> None:
        if not self._closed:
            self._commands.put(command)
