"""`PlayerProcess`: the player in a process of its own, so a busy UI thread cannot make it late.

In one process the player thread needs the GIL to wake up, and a main thread
busy rendering holds it for milliseconds at a time (bench/audition.py shows
p99 onset errors of 4–15 ms). In a child process the player has its own GIL.

The controls are `PlayerControls`'; commands are pickled to the child, whose
player publishes every status/transport change back. A listener thread here
stores them, so `playhead` is computed locally from the last transport (both
processes read the same system-wide monotonic clock) and never waits.

The port is opened in the child, so it is passed as an `opener`: a picklable
callable such as `functools.partial(open_output, "IAC")` or `open_virtual_output`.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
import itertools
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Any

from muse_tui.audition import commands as cmd
from muse_tui.audition import port_advice
from muse_tui.audition.board import Board, Changed, Status
from muse_tui.audition.clock import Transport
from muse_tui.audition.controls import PlayerControls
from muse_tui.audition.player import Player
from muse_tui.audition.ports import OutputPort, PortError
from muse_tui.audition.priority import keep_time_first

Opener = Callable[[], OutputPort | None]
#: What ends a player: Ctrl-C (the parent's to handle), a closed terminal, a kill
#: (Windows has no SIGHUP).
ENDING_SIGNALS = frozenset(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
#: Signals can be held back from a thread (and its children) only on POSIX.
_CAN_HOLD = hasattr(signal, "pthread_sigmask")
#: Every player process not yet closed, for `silence_every_player` (a signal handler).
_LIVE: weakref.WeakSet[PlayerProcess] = weakref.WeakSet()


def silence_every_player() -> None:
    """Tell every player process of ours to let every note go and end, at once.

    Safe in a signal handler: one `kill` per child, nothing that waits or takes a
    lock, so a signal that lands in the middle of a command to the child (or of
    closing it) still silences it; TERM is the child's own panic (see `_serve`).
    """
    for player in list(_LIVE):
        pid = player._process.pid
        if pid is not None:
            with contextlib.suppress(OSError):  # already gone: it let go as it ended
                os.kill(pid, signal.SIGTERM)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold INT, TERM and HUP back from this thread while it starts the child.

    The child inherits the mask across its exec, so a signal that reaches it
    while Python starts up and imports (a second or more on a loaded machine)
    waits until `_serve` has its handlers: no KeyboardInterrupt traceback from a
    half-started child, no TERM lost. Here they arrive as soon as it has started.
    """
    if not _CAN_HOLD:
        yield
        return
    # Starting multiprocessing's resource tracker unblocks INT and TERM on its way
    # out: have it running first, so that happens before they are held. (POSIX only,
    # so imported here, past the check.)
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    held = signal.pthread_sigmask(signal.SIG_BLOCK, ENDING_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


@contextlib.contextmanager
def _real_stdio() -> Iterator[None]:
    """Give multiprocessing streams with real file descriptors while it starts a process.

    Hosts that capture output replace sys.stdout/stderr with objects whose fileno()
    is -1 (Textual does, for the whole run); starting multiprocessing's resource
    tracker then fails with "bad value(s) in fds_to_keep". The process's own
    streams are put back at once.
    """
    swapped: dict[str, object] = {}
    for name in ("stdout", "stderr"):
        stream, original = getattr(sys, name), getattr(sys, f"__{name}__")
        if original is not None and stream is not original and not _has_fd(stream):
            swapped[name] = stream
            setattr(sys, name, original)
    try:
        yield
    finally:
        for name, stream in swapped.items():
            setattr(sys, name, stream)


def _has_fd(stream: object) -> bool:
    try:
        return stream.fileno() >= 0  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return False


class PlayerProcess(PlayerControls):
    """The same player as `Player`, running in a child process (spawned, not a daemon).

    Its player thread asks for real-time scheduling unless `realtime` is False.
    """

    def __init__(
        self,
        opener: Opener | None = None,
        *,
        on_change: Changed | None = None,
        realtime: bool = True,
    ) -> None:
        super().__init__(time.perf_counter)  # the child's clock: system-wide, so the same one
        self._board = Board(Transport(), Status(), on_change)
        context = mp.get_context("spawn")  # fork would copy this process's threads' locks
        child_commands, self._commands = context.Pipe(duplex=False)
        self._updates, child_updates = context.Pipe(duplex=False)
        self._send_lock = threading.Lock()
        self._synced: dict[int, threading.Event] = {}
        self._unanswered = 0  # commands the child has not yet carried out
        self._tokens = itertools.count()
        self._closed = False
        self._process = context.Process(
            target=_serve,
            args=(opener, child_commands, child_updates, realtime),
            name="muse-audition",
            daemon=False,  # a daemon is killed at exit, before it can let its notes go
        )
        _LIVE.add(self)  # before it starts: a signal handler may run as soon as it has
        with _real_stdio(), _signals_held():
            self._process.start()
        child_commands.close()
        child_updates.close()
        self._listener = threading.Thread(target=self._listen, name="muse-audition-listener")
        self._listener.daemon = True  # it only relays; the child ends on close or on EOF
        self._listener.start()
        self._at_exit = functools.partial(_close_at_exit, weakref.ref(self))
        atexit.register(self._at_exit)

    def wait_ready(self, timeout: float = 30.0) -> None:
        """Wait for the child to start and open its port; PortError (its sentence) if it failed."""
        if not self.sync(timeout):
            raise PortError("The audition process did not start in time: try playing again.")
        status = self._board.status
        if status.state == "error" and status.port_name is None and status.last_error:
            raise PortError(status.last_error)

    def use_port(self, opener: Opener | None) -> None:
        """Stop and send to another output, opened in the player process by `opener`."""
        self._post(("use_port", opener))

    def sync(self, timeout: float = 2.0) -> bool:
        if self._closed:
            return True
        token = next(self._tokens)
        done = self._synced[token] = threading.Event()
        self._post(("sync", token))
        try:
            return done.wait(timeout)
        finally:
            self._synced.pop(token, None)

    def close(self, timeout: float = 5.0) -> None:
        """Let every note go, close the port, end the child process and wait for it."""
        if not self._closed:
            self._post(("close", None))
            self._closed = True
            atexit.unregister(self._at_exit)
            _LIVE.discard(self)
        self._process.join(timeout)
        if self._process.is_alive():  # it stopped answering: do not hang the studio on it
            self._process.terminate()
            self._process.join(1.0)
        if self._process.is_alive():
            # It ignores TERM while it lets its notes go (see `_serve`): one stuck there (a
            # port that never closes) would hold the studio at exit, where Python joins its
            # child processes without a limit. A stuck player has let go of what it could.
            self._process.kill()
            self._process.join(1.0)
        self._listener.join(1.0)

    @property
    def pending(self) -> bool:
        """A command is on its way: the status may still show what was true before it."""
        return self._unanswered > 0

    def _deliver(self, command: cmd.Command) -> None:
        with self._send_lock:
            self._unanswered += 1
        self._post(("command", command))

    def _post(self, message: tuple[str, Any]) -> None:
        if self._closed:
            return
        with self._send_lock, contextlib.suppress(OSError):  # a dead child shows in `status`
            self._commands.send(message)

    def _listen(self) -> None:
        while True:
            try:
                kind, *payload = self._updates.recv()
            except (EOFError, OSError):
                break
            if kind == "board":
                self._board.publish(*payload)
            elif kind == "done":
                with self._send_lock:
                    self._unanswered = max(0, self._unanswered - 1)
            elif kind == "synced":
                event = self._synced.get(payload[0])
                if event is not None:
                    event.set()
        if not self._closed:
            died = "The audition process stopped unexpectedly: restart playback, and report it."
            self._board.publish(Status("error", died), Transport())
        else:
            self._board.publish(Status("closed", self._board.status.last_error), Transport())


def _close_at_exit(player: weakref.ref[PlayerProcess]) -> None:
    """Close before multiprocessing joins the child at exit, or exit would wait forever."""
    alive = player()
    if alive is not None:
        alive.close()


class _Ended(Exception):
    """SIGTERM or SIGHUP reached the player process: let every note go and end."""


def _end(signum: int, _frame: object) -> None:
    # Ignored before raising: a second signal (HUP to the group and TERM from the parent
    # come together) finds them ignored, and cannot cut the release in `_serve`'s finally.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    raise _Ended(signum)


def _serve(
    opener: Opener | None, commands: Connection, updates: Connection, realtime: bool
) -> None:
    """The child process: a `Player` fed from the pipe, publishing back through the other."""
    lock = threading.Lock()

    def tell(*message: Any) -> None:
        with lock, contextlib.suppress(OSError):
            updates.send(message)

    player: Player | None = None
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's, then close
        # A closed terminal (HUP, to the whole process group) or a kill (TERM) ends
        # playback like a close: every sounding note off, sustain off, All Notes Off.
        signal.signal(signal.SIGTERM, _end)
        signal.signal(signal.SIGHUP, _end)
        if _CAN_HOLD:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, ENDING_SIGNALS)  # held since the start
        if realtime:
            # Every thread of this process, not just the player's: one that holds the
            # GIL must not wait behind the rest of the machine while the player waits for it.
            keep_time_first()
            sys.setswitchinterval(0.0005)
        player = Player(None, on_change=lambda s, t: tell("board", s, t), realtime=realtime)
        player._send(_use(opener))
        player.sync()
        _out_of_the_collectors_way()
        while True:
            try:
                kind, payload = commands.recv()
            except (EOFError, OSError):
                break  # the studio went away (even killed): let every note go and end
            if kind == "command":
                player._send(payload)
                player.sync()  # carried out, and its status published, before it is answered
                if isinstance(payload, cmd.Load):
                    _out_of_the_collectors_way()
                tell("done")
            elif kind == "sync":
                player.sync()
                tell("synced", payload)
            elif kind == "use_port":
                player._send(_use(payload))
            elif kind == "close":
                break
    except _Ended:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second signal must not cut the release
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        if player is not None:
            player.close()  # its last word, "closed", reaches the studio through `tell`


def _out_of_the_collectors_way() -> None:
    """Keep what the process holds for good (modules, the port, the loaded song) out of the
    cyclic garbage collector's full passes.

    A full pass walks every tracked object and holds the GIL while it does: in this
    process, with the contracts and the song loaded, that was 25 ms on a loaded machine,
    and it ran on the player's thread, between two notes of a chord (the jam port test
    caught it). Frozen objects are still freed when nothing refers to them (a song
    replaced by the next Load goes as before); the collector then walks only what came
    after, such as a jam's new parts, which is little.
    """
    gc.collect()
    gc.freeze()


def _use(opener: Opener | None) -> cmd.UsePort:
    """Open the port here in the child; a failure becomes the player's `last_error`."""
    try:
        return cmd.UsePort(opener() if opener is not None else None)
    except PortError as exc:
        return cmd.UsePort(None, str(exc))
    except Exception as exc:  # the opener is the caller's code: report, don't die
        return cmd.UsePort(None, port_advice.could_not_open(exc))
