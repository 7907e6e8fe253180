"""The studio's hands on the player: play, solo, mute, loop, the playhead and the transport.

The `Audition` (app-wide) remembers the producer's listening choices; this
collaborator turns keys into those choices, reads the playhead at ~30 Hz while
the player is open and shows both on the lanes, the roll and the transport bar.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import on
from textual.timer import Timer
from textual.widget import Widget

from .auditioning import AuditionUnavailable
from .messages import AuditionChanged, PlayheadMoved
from .widgets.arrangement import ArrangementView
from .widgets.piano_roll import PianoRoll
from .widgets.transport import TransportBar

if TYPE_CHECKING:
    from .app import StudioApp
    from .screens.studio import StudioScreen

PLAYHEAD_HZ = 30


class Listening(Widget):
    """Plays what the arrangement has selected and shows what the player does (shows nothing)."""

    DEFAULT_CSS = "Listening { display: none; }"

    app: StudioApp  # type: ignore[assignment]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._poll: Timer | None = None

    @property
    def studio(self) -> StudioScreen:
        return self.screen  # type: ignore[return-value]

    def selected_bar(self) -> int:
        section = self.studio.query_one(ArrangementView).section
        return section.start_bar if section else 0

    def act(self, act: str) -> None:
        """play, alone, loop, mute or solo, for the selected section or track."""
        view = self.studio.query_one(ArrangementView)
        audition = self.app.audition
        section, track = view.section, view.track
        acts = {
            "play": lambda: audition.toggle(self.selected_bar()),
            "alone": lambda: track and audition.toggle_alone(track),
            "loop": lambda: section and audition.toggle_loop(section),
            "mute": lambda: track and audition.toggle_mute(track),
            "solo": lambda: track and audition.toggle_solo(track),
        }
        self.listen(acts[act])

    def listen(self, act: Callable[[], object]) -> bool:
        """Do something with the player; a missing port or song is said, never raised."""
        try:
            act()
        except AuditionUnavailable as exc:
            self.app.notify(str(exc), title="No MIDI output port", severity="error", timeout=10)
            self.studio.log_pane.say(exc.detail, "error")
            return False
        except ValueError as exc:
            self.app.notify(str(exc), severity="warning")
            return False
        self.post_message(AuditionChanged())
        return True

    @on(AuditionChanged)
    def refresh_audition(self) -> None:
        audition = self.app.audition
        marks = track_marks(audition.muted, audition.soloed, audition.alone)
        looped = audition.looped.name if audition.looped else None
        self.studio.query_one(ArrangementView).set_marks(marks, looped)
        self.update_transport()
        if audition.playing or audition.player is not None:
            self._start_polling()

    def _start_polling(self) -> None:
        if self._poll is None:
            self._poll = self.set_interval(1 / PLAYHEAD_HZ, self.read_playhead)

    def read_playhead(self) -> None:
        audition = self.app.audition
        playhead = audition.playhead()
        if playhead is None:
            return
        settling = audition.settling  # first: a player starting between the reads is read again
        status = audition.player.status if audition.player else ""
        self.post_message(PlayheadMoved(playhead, status, settling=settling))

    @on(PlayheadMoved)
    def _playhead_moved(self, message: PlayheadMoved) -> None:
        playhead, song = message.playhead, self.studio.song
        showing = playhead.playing and not self.app.audition.previewing
        self.studio.query_one(ArrangementView).set_playhead(
            playhead.song_beat / (song.beats_per_bar if song else 4) if showing else None
        )
        self.studio.query_one(PianoRoll).set_playhead(playhead.song_beat if showing else None)
        self.update_transport(playhead)
        # A player that has not yet carried out "play" still says "stopped" (the first
        # play starts its process and opens the port): keep reading until it answers.
        if message.status != "playing" and not message.settling and self._poll is not None:
            self._poll.stop()
            self._poll = None
            error = self.app.audition.player.last_error if self.app.audition.player else None
            if message.status == "error" and error:
                self.app.notify(error, title="Playback stopped", severity="error", timeout=10)

    def update_transport(self, playhead: object | None = None) -> None:
        audition, song = self.app.audition, self.studio.song
        changes: dict[str, object] = {
            "port": audition.port_label,
            "playing": audition.playing,
            "loop": audition.looped.name if audition.looped else None,
            "previewing": audition.previewing,
            "silent": audition.silence,
            "alone": next((t.name for t in song.tracks if t.id == audition.alone), None)
            if song and audition.alone
            else None,
        }
        if song is not None:
            changes.update(
                tempo=song.tempo, key=f"{song.key} {song.mode}", time_signature=song.time_signature
            )
        if playhead is not None:
            changes.update(bar=getattr(playhead, "bar", 0), beat=getattr(playhead, "beat", 0.0))
            changes["playing"] = getattr(playhead, "playing", False)
        self.studio.query_one(TransportBar).update_state(**changes)


def track_marks(muted: set[str], soloed: set[str], alone: str | None) -> dict[str, str]:
    """Each track's listening state, all of it: "M" muted, "S" soloed, "▶" alone; "MS" is both.

    A muted track keeps its "M" when it is also soloed or alone, so the lane
    says why nothing sounds.
    """
    marks = {tid: "M" for tid in muted}
    for tid in soloed:
        marks[tid] = marks.get(tid, "") + "S"
    if alone:
        marks[alone] = marks.get(alone, "") + "▶"
    return marks
