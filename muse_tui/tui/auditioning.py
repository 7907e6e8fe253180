"""The studio's side of auditioning: one player, opened on first play, and what it is doing.

The audition `Player` owns the port on its own thread and every call just
queues a command, so nothing here waits on MIDI. This module remembers what
the producer asked for (solo, mute, loop, a track alone) so the transport bar
and the lanes can show it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from textual.message_pump import MessagePump

from .messages import PlaybackRequested

if TYPE_CHECKING:  # loaded on first play: rtmidi and the skills tables are not needed to start
    from muse_tui.audition import Playhead
    from muse_tui.contracts import Section, SongState, Track


def midi_port_hint() -> str:
    from muse_tui.knowledge.midi_setup import midi_port_hint as hint

    return hint()


class PlayerLike(Protocol):
    """What the studio uses of `muse_tui.audition.Player` (tests pass a fake)."""

    def load(self, song: SongState) -> None: ...
    def play(self, from_bar: int | None = 0, to_bar: int | None = None) -> None: ...
    def stop(self) -> None: ...
    def loop(self, start_bar: int | None, end_bar: int | None = None) -> None: ...
    def mute(self, role_or_id: str, on: bool = True) -> None: ...
    def solo(self, role_or_id: str, on: bool = True) -> None: ...
    def play_only(self, role_or_id: str | None) -> None: ...
    def set_alternative(self, role_or_id: str, alternative: Track | None) -> None: ...
    def close(self, timeout: float = 5.0) -> None: ...

    @property
    def playhead(self) -> Playhead: ...
    @property
    def status(self) -> str: ...
    @property
    def pending(self) -> bool: ...
    @property
    def last_error(self) -> str | None: ...
    @property
    def port_name(self) -> str | None: ...


OpenPlayer = Callable[[str | None], PlayerLike]


class AuditionUnavailable(Exception):
    """Playback cannot start; `detail` is the port layer's own explanation."""

    def __init__(self, detail: str) -> None:
        super().__init__(midi_port_hint())
        self.detail = detail


def open_real_player(port_name: str | None) -> PlayerLike:
    """Start the player in its own process, on the chosen output or the virtual `muse-studio` port.

    A process of its own keeps its timing while the studio renders (bench/audition.py:
    p99 24 ms as a thread beside a busy UI, 0.7 ms as a real-time process).
    """
    from functools import partial

    from muse_tui.audition import PlayerProcess, PortError, open_output, open_virtual_output

    opener = partial(open_output, port_name) if port_name else open_virtual_output
    player = PlayerProcess(opener)
    try:
        player.wait_ready()
    except PortError as exc:
        player.close()
        raise AuditionUnavailable(str(exc)) from exc
    return player


@dataclass
class Audition:
    """The player and the producer's listening choices for the loaded song."""

    open_player: OpenPlayer
    port_name: str | None = None
    player: PlayerLike | None = None
    song: SongState | None = None
    muted: set[str] = field(default_factory=set)
    soloed: set[str] = field(default_factory=set)
    alone: str | None = None
    looped: Section | None = None
    previewing: bool = False
    switched: set[str] = field(default_factory=set)  # tracks playing a variant, not their own

    @property
    def playing(self) -> bool:
        return self.player is not None and self.player.status == "playing"

    @property
    def settling(self) -> bool:
        """The player has not yet carried out what it was last told (it may be starting up)."""
        return self.player is not None and self.player.pending

    @property
    def port_label(self) -> str:
        if self.player is not None and self.player.port_name:
            return self.player.port_name
        return self.port_name or "muse-studio (virtual)"

    def playhead(self) -> Playhead | None:
        return self.player.playhead if self.player is not None else None

    def load(self, song: SongState | None) -> None:
        """Show and play this song from now on; listening choices start over.

        Loading the song already loaded changes nothing (stage 8 may have started it).
        """
        if song is not None and song == self.song and not self.previewing:
            return
        self.song, self.previewing = song, False
        self.muted.clear()
        self.soloed.clear()
        self.switched.clear()
        self.alone, self.looped = None, None
        if self.player is not None and song is not None:
            self.player.load(song)

    def reload(self, song: SongState) -> None:
        """The same song, changed (an edit, an undo, a variant picked).

        The listening choices stay, for the tracks and sections still there, and
        a song that was playing carries on from the bar it had reached.
        """
        if self.previewing:
            self.load(song)
            return
        was_playing = self.playing
        bar = self.player.playhead.bar if self.player is not None else 0
        ids = {t.id for t in song.tracks}
        sections = {s.name: s for s in song.arrangement.sections} if song.arrangement else {}
        self.song = song
        self.switched.clear()
        self.muted &= ids
        self.soloed &= ids
        self.alone = self.alone if self.alone in ids else None
        self.looped = sections.get(self.looped.name) if self.looped else None
        if self.player is None:
            return  # the choices are applied when the player opens
        self.player.load(song)
        self._restore(self.player)
        if was_playing:
            if self.looped and not self.looped.start_bar <= bar < self.looped.end_bar:
                bar = self.looped.start_bar
            self.player.play(from_bar=bar)

    def audition_variant(self, tracks: list[Track], from_bar: int = 0, *, start: bool) -> None:
        """Hear these tracks in place of the song's own from the next bar line.

        An empty list goes back to the song's own parts. The rest of the song
        keeps playing; with `start`, a song that is not playing starts from `from_bar`.
        """
        player = self._ready()
        for track_id in self.switched - {t.id for t in tracks}:
            player.set_alternative(track_id, None)
        for track in tracks:
            player.set_alternative(track.id, track)
        self.switched = {t.id for t in tracks}
        if start and not self.playing:
            self.play(from_bar)

    def end_variants(self) -> None:
        """Back to the song's own parts (the comparison closed)."""
        if self.player is not None and self.switched:
            for track_id in self.switched:
                self.player.set_alternative(track_id, None)
        self.switched.clear()

    def toggle(self, from_bar: int = 0) -> bool:
        """Play from a bar, or stop if playing; True when it is now playing."""
        if self.playing:
            self.stop()
            return False
        self.play(from_bar)
        return True

    def play(self, from_bar: int = 0) -> None:
        player = self._ready()
        if self.looped is not None:
            from_bar = self.looped.start_bar
        player.play(from_bar=from_bar)

    def stop(self) -> None:
        if self.player is not None:
            self.player.stop()
            if self.previewing:
                self.previewing = False
                if self.song is not None:
                    self.player.load(self.song)

    def preview(self, song: SongState) -> bool:
        """Audition a gate's output (not the studio's song); again to stop. True when playing."""
        if self.previewing and self.playing:
            self.stop()
            return False
        player = self._open(song)
        player.load(song)
        self.previewing = True
        player.play(from_bar=0)
        return True

    def end_preview(self) -> None:
        """The gate closed: back to the studio's song."""
        if self.previewing:
            self.stop()

    def toggle_alone(self, track: Track) -> bool:
        """Hear only this track (again: everyone); replaces solos."""
        player = self._ready()
        self.alone = None if self.alone == track.id else track.id
        self.soloed.clear()
        player.play_only(self.alone)
        return self.alone is not None

    @property
    def silence(self) -> str | None:
        """Why the song is silent though it plays: what is soloed (or alone) is also muted."""
        if self.alone is not None and self.alone in self.muted:
            return "the track alone is muted"
        if self.soloed and self.soloed <= self.muted:
            many = len(self.soloed) > 1
            return "the soloed tracks are muted" if many else "the soloed track is muted"
        return None

    def toggle_mute(self, track: Track) -> bool:
        player = self._ready()
        on = track.id not in self.muted
        (self.muted.add if on else self.muted.discard)(track.id)
        player.mute(track.id, on)
        return on

    def toggle_solo(self, track: Track) -> bool:
        player = self._ready()
        on = track.id not in self.soloed
        (self.soloed.add if on else self.soloed.discard)(track.id)
        self.alone = None
        player.solo(track.id, on)
        return on

    def toggle_loop(self, section: Section) -> bool:
        """Loop a section (again, or another section's loop: stop looping it)."""
        player = self._ready()
        if self.looped is not None and self.looped.name == section.name:
            self.looped = None
            player.loop(None)
            return False
        self.looped = section
        player.loop(section.start_bar, section.end_bar)
        return True

    def choose_port(self, name: str | None) -> None:
        """Use another output from the next play on (the old player lets its notes go)."""
        self.port_name = name
        self.close()

    def close(self) -> None:
        """Stop cleanly: every sounding note released, the port closed, the thread joined."""
        if self.player is not None:
            player, self.player = self.player, None
            player.stop()
            player.close()

    def _ready(self) -> PlayerLike:
        if self.song is None:
            raise ValueError("There is no song to play yet: compose one or open a session.")
        return self._open(self.song)

    def _open(self, song: SongState) -> PlayerLike:
        """The player, opened (or reopened after an error) with `song` loaded."""
        if self.player is None or self.player.status == "error":
            self.close()
            self.player = self.open_player(self.port_name)
            self.player.load(song)
            if song is self.song:  # not a gate's preview: the producer's choices apply
                self._restore(self.player)
        return self.player

    def _restore(self, player: PlayerLike) -> None:
        """Give a freshly loaded player the producer's mutes, solos, track alone and loop."""
        for track_id in self.muted:
            player.mute(track_id, True)
        for track_id in self.soloed:
            player.solo(track_id, True)
        if self.alone:
            player.play_only(self.alone)
        if self.looped:
            player.loop(self.looped.start_bar, self.looped.end_bar)


class EnginePlayback:
    """The engine's `Playback`: stage 8 asks the studio to audition the finished song.

    Called from a stage thread, so it only posts a message. Without an open
    player the studio does not auto-play, and stage 8 hears why.
    """

    def __init__(self, audition: Audition, target: MessagePump) -> None:
        self._audition = audition
        self._target = target

    def start(self, song: SongState) -> None:
        from muse_tui.engine.protocols import PlaybackUnavailable

        if self._audition.player is None:
            raise PlaybackUnavailable("no MIDI output is open in the studio", midi_port_hint())
        self._target.post_message(PlaybackRequested(song))
