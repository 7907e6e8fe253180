"""The controls every player shares: argument checks, commands, and reading what it published.

Every method only checks its arguments and hands a command to the player, so
none of them waits on playback. Reads (`playhead`, `status`, `last_error`) take
an immutable snapshot the player published.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Self

from muse_tui.audition import commands as cmd
from muse_tui.audition import port_advice
from muse_tui.audition.board import Board, State
from muse_tui.audition.clock import Playhead
from muse_tui.audition.schedule import Part, bar_range, part_for, section_range
from muse_tui.contracts import Note, SongState, Track

Alternative = Track | Sequence[Note]


class PlayerControls:
    """What `Player` and `PlayerProcess` have in common; they differ in where the player runs."""

    _board: Board
    _clock: Callable[[], float]

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._song: SongState | None = None
        self._alternatives: dict[str, tuple[Part, ...]] = {}
        self._gathered: list[cmd.Command] | None = None

    def _send(self, command: cmd.Command) -> None:
        if self._gathered is not None:
            self._gathered.append(command)
        else:
            self._deliver(command)

    def _deliver(self, command: cmd.Command) -> None:
        """Hand a command to the player, wherever it runs."""
        raise NotImplementedError

    @contextlib.contextmanager
    def together(self) -> Iterator[None]:
        """The commands given inside reach the player as one, when the block ends.

        The player carries them out with no event played in between: changes queued
        for the loop's end all land on the same boundary, however late they arrive.
        """
        if self._gathered is not None:  # already inside one: it joins the outer batch
            yield
            return
        self._gathered = gathered = []
        try:
            yield
        finally:
            self._gathered = None
        if gathered:
            self._deliver(cmd.Together(tuple(gathered)))

    def sync(self, timeout: float = 2.0) -> bool:
        """Wait until the player has taken every command sent so far."""
        raise NotImplementedError

    def close(self, timeout: float = 5.0) -> None:
        """Let every note go, close the port, and end the player."""
        raise NotImplementedError

    # ── what to play ────────────────────────────────────────────────────────

    def load(
        self, song: SongState, alternatives: Mapping[str, Sequence[Alternative]] | None = None
    ) -> None:
        """Load a song (stops playback) and the alternatives each track can switch to.

        `alternatives` maps a track id or role to its variants: Tracks (their
        regions are used) or notes already placed in song beats.
        """
        parts = tuple(part_for(t) for t in song.tracks)
        variants: dict[str, tuple[Part, ...]] = {}
        for key, options in (alternatives or {}).items():
            track = _find_track(song, key)
            variants[track.id] = tuple(part_for(track, option) for option in options)
        self._song, self._alternatives = song, variants
        self._send(cmd.Load(song, parts))

    def set_alternative(
        self,
        role_or_id: str,
        alternative: int | Alternative | None,
        *,
        at_loop_end: bool = False,
    ) -> None:
        """Play an alternative in place of a track from the next bar line.

        `alternative` is an index into the variants given to `load`, a Track or
        placed notes, or None to go back to the song's own part. With
        `at_loop_end` it comes in where the loop wraps (a jam's next round).
        """
        track = _find_track(self._loaded(), role_or_id)
        if alternative is None:
            part = None
        elif isinstance(alternative, int):
            options = self._alternatives.get(track.id, ())
            if not 0 <= alternative < len(options):
                raise ValueError(
                    f"{track.name} has {len(options)} loaded alternatives, no number {alternative}."
                )
            part = options[alternative]
        else:
            part = part_for(track, alternative)
        self._send(cmd.Switch(track.id, part, at_loop_end))

    # ── transport ───────────────────────────────────────────────────────────

    def play(self, from_bar: int | None = 0, to_bar: int | None = None) -> None:
        """Play from a bar (None: from where it stopped), up to `to_bar` or the end of the song."""
        song = self._loaded()
        if to_bar is not None and from_bar is not None and to_bar <= from_bar:
            raise ValueError(f"to_bar ({to_bar}) must come after from_bar ({from_bar}).")
        self._send(
            cmd.Play(
                None if from_bar is None else song.bar_beat(max(from_bar, 0)),
                None if to_bar is None else song.bar_beat(to_bar),
            )
        )

    def stop(self) -> None:
        """Stop and let every sounding note go."""
        self._send(cmd.Stop())

    def loop(self, start_bar: int | None, end_bar: int | None = None) -> None:
        """Loop bars [start_bar, end_bar); `loop(None)` ends the loop."""
        if start_bar is None:
            self._send(cmd.Loop(None))
            return
        if end_bar is None:
            raise ValueError("loop() needs an end_bar (the loop stops before it).")
        self._send(cmd.Loop(bar_range(self._loaded(), start_bar, end_bar)))

    def loop_section(self, name: str) -> None:
        """Loop an arrangement section, by name ("hook 1") or kind ("chorus")."""
        self._send(cmd.Loop(section_range(self._loaded(), name)))

    def set_tempo(self, bpm: float, *, at_loop_end: bool = False) -> None:
        """Change tempo from the next beat, with no jump in the playhead.

        With `at_loop_end` it changes where the loop wraps (a jam's next round).
        """
        if not 1 <= bpm <= 999:
            raise ValueError(f"a tempo of {bpm} BPM is out of range (1–999).")
        self._send(cmd.SetTempo(float(bpm), at_loop_end))

    def panic(self) -> None:
        """Stop, and silence every channel whatever the ledger thinks is sounding."""
        self._send(cmd.Panic())

    # ── who plays ───────────────────────────────────────────────────────────

    def mute(self, role_or_id: str, on: bool = True) -> None:
        self._send(cmd.Mute(_find_track(self._loaded(), role_or_id).id, on))

    def solo(self, role_or_id: str, on: bool = True) -> None:
        self._send(cmd.Solo(_find_track(self._loaded(), role_or_id).id, on))

    def play_only(self, role_or_id: str | None) -> None:
        """Hear just this track (None: everyone again); replaces any solos."""
        track_id = None if role_or_id is None else _find_track(self._loaded(), role_or_id).id
        self._send(cmd.PlayOnly(track_id))

    # ── reading ─────────────────────────────────────────────────────────────

    @property
    def playhead(self) -> Playhead:
        """Bar, beat and seconds right now; never waits on the player thread."""
        return self._board.transport.playhead(self._clock())

    @property
    def status(self) -> State:
        return self._board.status.state

    @property
    def pending(self) -> bool:
        """A command sent has not been carried out yet (a player in another process lags)."""
        return False

    @property
    def last_error(self) -> str | None:
        """Why playback last stopped on its own, and what to do; None after a clean play."""
        return self._board.status.last_error

    @property
    def port_name(self) -> str | None:
        return self._board.status.port_name

    def wait_until_stopped(self, timeout: float | None = None) -> bool:
        """Block until playback ends (the song finished, a stop, an error); False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        if not self.sync(
            30.0 if timeout is None else timeout
        ):  # a new process may still be starting
            return False
        remaining = None if deadline is None else max(deadline - time.monotonic(), 0.0)
        return self._board.idle.wait(remaining)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _loaded(self) -> SongState:
        if self._song is None:
            raise ValueError(port_advice.nothing_loaded())
        return self._song


def _find_track(song: SongState, role_or_id: str) -> Track:
    track = song.track(role_or_id)
    if track is None:
        names = ", ".join(f"{t.role} ({t.name})" for t in song.tracks) or "none"
        raise ValueError(f"No track {role_or_id!r} in this song (tracks: {names}).")
    return track
