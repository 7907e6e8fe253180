"""The player thread's body: it owns the port, walks the schedule and keeps the ledger.

Every wake-up is aimed at an absolute clock time computed from the transport
(never "sleep the gap since the last event"): block on the command queue until
`SPIN` before the next event, then spin to it. Everything it publishes for the
UI thread (`Board`) is an immutable value swapped in whole, so reading the
playhead never waits on this thread.
"""

from __future__ import annotations

import heapq
import math
import queue
import threading
import time
from collections.abc import Callable, Iterable

from muse_tui.audition import commands as cmd
from muse_tui.audition import port_advice
from muse_tui.audition.board import Board, State, Status
from muse_tui.audition.clock import Transport
from muse_tui.audition.ledger import Message, SoundingNotes
from muse_tui.audition.ports import OutputPort
from muse_tui.audition.priority import keep_time_first
from muse_tui.audition.schedule import (
    BEND,
    CC_ALL_SOUND_OFF,
    NOTE_OFF,
    NOTE_ON,
    PRESSURE,
    Part,
    message,
    song_end_beat,
)

SPIN = 0.0015  # wake this early, then spin: the OS oversleeps by up to a millisecond or so
CHECK_EVERY = 0.25  # seconds between "is the port still there / is Python exiting" checks
ALL_CHANNELS = range(16)


class Performer:
    """Runs in the player thread; nothing else touches the port, the ledger or the schedule."""

    def __init__(
        self,
        port: OutputPort | None,
        commands: queue.SimpleQueue[cmd.Command],
        board: Board,
        clock: Callable[[], float] = time.perf_counter,
        realtime: bool = False,
    ) -> None:
        self.realtime = realtime
        self.port = port
        self.commands = commands
        self.board = board
        self.clock = clock
        self.ledger = SoundingNotes()
        self.transport = board.transport
        self.parts: dict[str, Part] = {}
        self.originals: dict[str, Part] = {}
        self.order: dict[str, int] = {}
        self.muted: set[str] = set()
        self.soloed: set[str] = set()
        self.pending: dict[str, tuple[float, Part]] = {}  # switches waiting for their bar line
        self.heap: list[tuple[float, int, int, int, str]] = []  # (beat, kind, order, index, id)
        self.song_end = 0.0
        self.error: str | None = None
        self.closing = False
        self.checked_at = 0.0

    # ── the loop ────────────────────────────────────────────────────────────

    def run(self) -> None:
        if self.realtime:
            keep_time_first()
        try:
            while not self.closing:
                try:
                    self._step() if self.transport.playing else self._wait_for_command()
                except Exception as error:  # a bug must not leave notes stuck or kill the thread
                    self._fail(
                        f"The player hit an internal error ({error!r}) and stopped: "
                        "press play to try again, and report it if it repeats."
                    )
        finally:
            self._shut_down()

    def _wait_for_command(self) -> None:
        try:
            command = self.commands.get(timeout=CHECK_EVERY)
        except queue.Empty:
            if not threading.main_thread().is_alive():
                self.closing = True  # Python is exiting: let the interpreter's join return
            return
        self._handle(command)

    def _step(self) -> None:
        if not self.commands.empty():
            self._handle(self.commands.get_nowait())
            return
        beat, action = self._next_due()
        due = self.transport.time_at(beat)
        now = self.clock()
        slack = due - now
        if slack > SPIN:
            if now - self.checked_at >= CHECK_EVERY and slack > 2 * SPIN:
                self._check_surroundings(now)
                return
            try:
                command = self.commands.get(timeout=min(slack - SPIN, CHECK_EVERY))
            except queue.Empty:
                return
            self._handle(command)
            return
        clock = self.clock
        while clock() < due:
            pass
        action()

    def _check_surroundings(self, now: float) -> None:
        self.checked_at = now
        if not threading.main_thread().is_alive():
            self.closing = True
        elif self.port is not None and not self.port.is_present():
            self._fail(port_advice.port_lost(self.port.name), drop_port=True)

    def _next_due(self) -> tuple[float, Callable[[], None]]:
        event = self.heap[0][0] if self.heap else math.inf
        switch = min((b for b, _ in self.pending.values()), default=math.inf)
        loop = self.transport.loop
        boundary = loop[1] if loop is not None else self.transport.end_beat
        if boundary <= event and boundary <= switch:
            return boundary, self._wrap if loop is not None else self._reach_the_end
        if switch <= event:
            return switch, self._switch_due
        return event, self._play_next_event

    # ── timed actions ───────────────────────────────────────────────────────

    def _play_next_event(self) -> None:
        _, kind, order, index, track_id = heapq.heappop(self.heap)
        part = self.parts[track_id]
        if index + 1 < len(part.events):
            after = part.events[index + 1]
            heapq.heappush(self.heap, (after[0], after[1], order, index + 1, track_id))
        event = part.events[index]
        if kind == NOTE_OFF:
            if not self.ledger.note_off(track_id, part.channel, event[2]):
                return  # its note-on never went out, or a mute/switch already let it go
        elif not self._audible(track_id):
            return
        elif kind == NOTE_ON:
            self.ledger.note_on(track_id, part.channel, event[2])
        elif kind == BEND:
            self.ledger.bent(part.channel, event[2])
        elif kind == PRESSURE:
            self.ledger.pressed(part.channel, event[2])
        self._send([message(event, part.channel)])

    def _switch_due(self) -> None:
        beat = min(b for b, _ in self.pending.values())
        for track_id in [t for t, (b, _) in self.pending.items() if b <= beat]:
            self._swap_part(track_id, beat)

    def _wrap(self) -> None:
        start, end = self.transport.loop  # type: ignore[misc]
        at = self.transport.time_at(end)
        # The loop starts over: let the sounding notes go and reset only channels left bent
        # or pressed. Sustain off and All Notes Off on every channel at every wrap would cut
        # the tails and put a burst of messages just where the next pass (and a jam's new
        # parts) must start on time; a part switched here is reset on its own channel.
        self._release(channels=self.ledger.shaped())
        for track_id in list(self.pending):
            self._swap_part(track_id, start)
        self._set_transport(self.transport.rebased(start, at))
        self._seek(start)

    def _reach_the_end(self) -> None:
        self._release()
        self._halt(at_beat=self.transport.end_beat)

    # ── commands ────────────────────────────────────────────────────────────

    def _handle(self, command: cmd.Command) -> None:
        now = self.clock()
        match command:
            case cmd.Load(song, parts):
                self._stop()
                self.parts = {p.track_id: p for p in parts}
                self.originals = dict(self.parts)
                self.order = {p.track_id: i for i, p in enumerate(parts)}
                self.muted = {t.id for t in song.tracks if t.mute}
                self.soloed = {t.id for t in song.tracks if t.solo}
                self.pending.clear()
                self.song_end = song_end_beat(song, parts)
                self._set_transport(Transport.stopped_at(0.0, song.tempo, song.beats_per_bar))
            case cmd.Play(from_beat, until_beat):
                self._start(from_beat, until_beat)
            case cmd.Stop():
                self._stop()
            case cmd.Loop(beats):
                self._set_loop(beats, now)
            case cmd.Mute(track_id, on):
                self._change_audible(
                    lambda: (self.muted.add if on else self.muted.discard)(track_id)
                )
            case cmd.Solo(track_id, on):
                self._change_audible(
                    lambda: (self.soloed.add if on else self.soloed.discard)(track_id)
                )
            case cmd.PlayOnly(track_id):
                self._change_audible(lambda: self._solo_only(track_id))
            case cmd.Switch(track_id, part, at_loop_end):
                self._schedule_switch(
                    track_id, part or self.originals[track_id], now, at_loop_end=at_loop_end
                )
            case cmd.SetTempo(bpm, at_loop_end):
                loop = self.transport.loop
                from_beat = loop[1] if at_loop_end and loop is not None else None
                self._set_transport(self.transport.with_tempo(bpm, now, from_beat))
            case cmd.Panic():
                self._release(channels=ALL_CHANNELS)
                self._halt()
            case cmd.UsePort(port, error):
                self._stop()
                if self.port is not None:
                    self.port.close()
                self.port, self.error = port, error
                self._publish()
            case cmd.Sync(done):
                done.set()
            case cmd.Close():
                self.closing = True
            case cmd.Together(commands):
                for each in commands:
                    self._handle(each)

    def _start(self, from_beat: float | None, until_beat: float | None) -> None:
        if self.transport.playing:
            self._stop()
        if not self.parts:
            return self._fail(port_advice.nothing_loaded())
        if self.port is None:  # keep the reason it went (it says what to do) if there is one
            return self._fail(self.error or port_advice.no_port_open())
        if not self.port.is_present():
            return self._fail(port_advice.port_lost(self.port.name), drop_port=True)
        end = self.song_end if until_beat is None else min(until_beat, self.song_end)
        beat = self.transport.position(self.clock()) if from_beat is None else from_beat
        loop = self.transport.loop
        if loop is not None and not loop[0] <= beat < loop[1]:
            beat = loop[0]
        elif loop is None and beat >= end:
            beat = 0.0  # pressing play at the end starts over
        self.error = None
        if not self._send([s for p in self.parts.values() for s in p.setup]):
            return
        now = self.clock()
        self.checked_at = now
        self._set_transport(self.transport.started(beat, now, end))
        self._seek(beat)

    def _stop(self) -> None:
        if self.transport.playing:
            self._release()
            self._halt()

    def _halt(self, at_beat: float | None = None) -> None:
        """Stand still (where we are, or at `at_beat`); queued switches take effect now."""
        for track_id in list(self.pending):
            self._swap_part(track_id, 0.0)
        stopped = self.transport.stopped(self.clock())
        if at_beat is not None:
            stopped = Transport.stopped_at(
                at_beat, stopped.tempo, stopped.beats_per_bar, stopped.loop
            )
        self.heap.clear()
        self._set_transport(stopped)

    def _set_loop(self, beats: tuple[float, float] | None, now: float) -> None:
        self._set_transport(self.transport.with_loop(beats))
        if beats is None or not self.transport.playing:
            return
        if not beats[0] <= self.transport.beat_at(now) < beats[1]:
            self._release()
            self._set_transport(self.transport.rebased(beats[0], now))
            self._seek(beats[0])

    def _solo_only(self, track_id: str | None) -> None:
        self.soloed = set() if track_id is None else {track_id}

    def _change_audible(self, change: Callable[[], None]) -> None:
        before = {t for t in self.parts if self._audible(t)}
        change()
        silenced = [t for t in before if not self._audible(t)]
        if silenced:
            self._release(silenced, self._own_channels(silenced))

    def _schedule_switch(
        self, track_id: str, part: Part, now: float, *, at_loop_end: bool = False
    ) -> None:
        if not self.transport.playing:
            self.pending.pop(track_id, None)
            self.parts[track_id] = part
            return
        beat = self.transport.next_bar_line(now)
        loop = self.transport.loop
        if loop is not None and (at_loop_end or beat >= loop[1]):
            beat = loop[1]  # the wrap is the next bar line (or the one asked for)
        self.pending[track_id] = (beat, part)

    # ── helpers ─────────────────────────────────────────────────────────────

    def _swap_part(self, track_id: str, beat: float) -> None:
        _, part = self.pending.pop(track_id)
        self._release([track_id], self._own_channels([track_id]))
        self.parts[track_id] = part
        self.heap = [e for e in self.heap if e[4] != track_id]
        index = part.first_at_or_after(beat)
        if self.transport.playing and index < len(part.events):
            first = part.events[index]
            self.heap.append((first[0], first[1], self.order[track_id], index, track_id))
        heapq.heapify(self.heap)

    def _seek(self, beat: float) -> None:
        self.heap = []
        for track_id, part in self.parts.items():
            index = part.first_at_or_after(beat)
            if index < len(part.events):
                first = part.events[index]
                self.heap.append((first[0], first[1], self.order[track_id], index, track_id))
        heapq.heapify(self.heap)

    def _audible(self, track_id: str) -> bool:
        return track_id not in self.muted and (not self.soloed or track_id in self.soloed)

    def _own_channels(self, track_ids: Iterable[str]) -> set[int]:
        """Channels of these tracks that no other audible track plays on (safe to reset)."""
        chosen = set(track_ids)
        shared = {p.channel for t, p in self.parts.items() if t not in chosen and self._audible(t)}
        return {self.parts[t].channel for t in chosen} - shared

    def _release(
        self, track_ids: Iterable[str] | None = None, channels: Iterable[int] | None = None
    ) -> None:
        if channels is None:
            channels = {p.channel for p in self.parts.values()}
        if track_ids is None:
            track_ids = list(self.parts)  # song order, so a release always reads the same
        self._send(self.ledger.release(track_ids, channels), best_effort=True)

    def _send(self, messages: list[Message], *, best_effort: bool = False) -> bool:
        if self.port is None:
            return False
        for data in messages:
            try:
                self.port.send(data)
            except Exception as error:
                if not best_effort:
                    self._fail(port_advice.send_failed(self.port.name, error), drop_port=True)
                return False
        return True

    def _fail(self, sentence: str, *, drop_port: bool = False) -> None:
        """Stop cleanly and say what happened; the thread lives on for the next command."""
        self.error = sentence  # before anything is published: waiters must see the reason
        self._release()
        if self.transport.playing:
            self._halt()
        if drop_port and self.port is not None:
            self.port.close()
            self.port = None
        self._publish()

    def _set_transport(self, transport: Transport) -> None:
        self.transport = transport
        self._publish()

    def _publish(self) -> None:
        playing = self.transport.playing
        state: State = "playing" if playing else "error" if self.error else "stopped"
        if self.closing:
            state = "closed"
        self.board.publish(
            Status(state, self.error, self.port.name if self.port else None), self.transport
        )

    def _shut_down(self) -> None:
        self.closing = True
        try:
            self._release()
            # The player is going away (closed, a signal, its parent gone): All Sound Off
            # too, for a synth that holds its voices past All Notes Off (a sustained pad).
            channels = sorted({p.channel for p in self.parts.values()})
            self._send([(0xB0 | ch, CC_ALL_SOUND_OFF, 0) for ch in channels], best_effort=True)
            self.heap.clear()
            self.transport = self.transport.stopped(self.clock())
        finally:
            if self.port is not None:
                self.port.close()
            self._publish()
