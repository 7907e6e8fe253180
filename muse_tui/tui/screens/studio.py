"""The main screen: prompt, stage tracker, arrangement, piano roll, history, notes, transport.

Engine events, finished runs, edits and the playhead arrive as messages; only
the handlers here touch the panes. Composing lives in `run.py`, changing the
open song (modify, undo, alternatives) in `editing.py`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.timer import Timer
from textual.widgets import Footer

from muse_tui.contracts import ComposerPipeline, SongState

from ..auditioning import AuditionUnavailable
from ..editing import EditingScreen
from ..messages import AuditionChanged, PipelineEventMessage, PlayheadMoved, SongLoaded
from ..run_state import RunState
from ..widgets.arrangement import ArrangementView
from ..widgets.history import HistoryPane
from ..widgets.notes_log import NotesLog
from ..widgets.piano_roll import PianoRoll
from ..widgets.prompt import PromptInput
from ..widgets.tracker import StageTracker
from ..widgets.transport import TransportBar

if TYPE_CHECKING:
    from ..app import StudioApp

PLAYHEAD_HZ = 30
LETTER_ACTIONS = {"toggle_play", "track_alone", "loop_section", "mute", "solo", "alternatives"}
EDIT_ACTIONS = {"undo", "redo", "alternatives"}


class StudioScreen(EditingScreen):
    """Where the producer composes, watches, approves and listens."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_play", "Play", id="audition.play",
                tooltip="Play the song from the selected section, or stop"),
        Binding("t", "track_alone", "Alone", id="audition.track_alone",
                tooltip="Hear only the selected track (again: everyone)"),
        Binding("l", "loop_section", "Loop", id="audition.loop_section",
                tooltip="Loop the selected section (again: stop looping)"),
        Binding("m", "mute", "Mute", id="audition.mute",
                tooltip="Mute or unmute the selected track"),
        Binding("s", "solo", "Solo", id="audition.solo",
                tooltip="Solo or unsolo the selected track"),
        Binding("a", "alternatives", "Alternatives", id="studio.alternatives",
                tooltip="Compare variants of the selected track's part, hear them, pick one"),
        Binding("ctrl+z", "undo", "Undo", id="studio.undo",
                tooltip="Undo the latest change to the song (it stays in the history)"),
        Binding("ctrl+y", "redo", "Redo", id="studio.redo",
                tooltip="Redo the latest undone change"),
        Binding("ctrl+x", "cancel_run", "Cancel", id="run.cancel",
                tooltip="Stop the running composition (its checkpoint is kept)"),
        Binding("slash", "focus_prompt", "Prompt", show=False, id="studio.focus_prompt",
                tooltip="Type a new prompt"),
        Binding("escape", "leave_prompt", "Leave prompt", show=False, id="studio.leave_prompt",
                tooltip="Leave the prompt so the studio keys work"),
    ]  # fmt: skip

    app: StudioApp  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__(id="studio")
        self.song: SongState | None = None
        self.session_dir: Path | None = None
        self.pipeline: ComposerPipeline | None = None
        self._poll: Timer | None = None

    AUTO_FOCUS = "#prompt"
    PROMPT_TITLE = "Prompt — enter composes, ctrl+n new line"
    EDIT_PROMPT_TITLE = "Prompt — say what to change (“bass simpler”), or a new song"

    def compose(self) -> ComposeResult:
        cfg = self.app.config
        prompt = PromptInput(id="prompt")
        prompt.cursor_blink = cfg.animate
        panes = {
            prompt: self.PROMPT_TITLE,
            ArrangementView(id="arrangement"): "Arrangement",
            PianoRoll(id="roll"): "Piano roll",
            StageTracker(id="tracker", monotonic=cfg.monotonic, animate=cfg.animate): "Stages",
            HistoryPane(id="history"): "History",
            NotesLog(id="log"): "Notes",
        }
        for pane, title in panes.items():
            pane.border_title = title
        left, right = list(panes)[:3], list(panes)[3:]
        with Horizontal(id="studio-body"):
            yield Vertical(*left, id="left")
            yield Vertical(*right, id="right")
        yield TransportBar(id="transport")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(HistoryPane).display = False  # until a session is open
        with contextlib.suppress(NoMatches):  # ctrl+q pressed before the first frame
            self.refresh_audition()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # In the prompt these letters type; the footer should not promise otherwise.
        if action in LETTER_ACTIONS and isinstance(self.focused, PromptInput):
            return False
        if action == "cancel_run":
            return self.running
        if action == "alternatives" and self.comparison is not None:
            return False  # one comparison at a time; n asks for a new batch
        if action in EDIT_ACTIONS:
            return self.editable
        return True

    # ── panes ───────────────────────────────────────────────────────────────

    @property
    def log_pane(self) -> NotesLog:
        return self.query_one(NotesLog)

    @on(PipelineEventMessage)
    def _pipeline_event(self, message: PipelineEventMessage) -> None:
        self.query_one(StageTracker).show(message.event)
        self.log_pane.show_event(message.event)

    @on(SongLoaded)
    def _song_loaded(self, message: SongLoaded) -> None:
        self.show_song(message.song, message.session_dir, message.pipeline, opened=message.opened)

    def show_song(
        self,
        song: SongState,
        session_dir: Path | None,
        pipeline: ComposerPipeline | None,
        *,
        opened: bool = False,
    ) -> None:
        if self.comparison is not None:
            self.close_comparison()
        self.song, self.session_dir, self.pipeline = song, session_dir, pipeline
        self.app.audition.load(song)
        if opened and pipeline is not None and not self.running:
            self.query_one(StageTracker).show_state(RunState.from_pipeline(pipeline))
        self.query_one(ArrangementView).set_song(song)
        self._show_history()
        prompt = self.query_one(PromptInput)
        prompt.border_title = self.EDIT_PROMPT_TITLE if self.editable else self.PROMPT_TITLE
        prompt.expect_changes(self.editable)
        if self.editable and pipeline and prompt.text.strip() == pipeline.raw_prompt.strip():
            prompt.clear()  # ready for what to change; ↑ brings the prompt back
        self.refresh_bindings()
        self.sub_title = session_dir.name if session_dir else ""
        if opened and session_dir is not None and pipeline is not None:
            self.log_pane.say(f"Opened {session_dir.name}: {pipeline.raw_prompt}", "bold")
        notes = session_dir / "notes" / "producer-notes.md" if session_dir else None
        if notes is not None and notes.is_file():
            try:
                self.log_pane.show_notes(notes.read_text(encoding="utf-8"))
            except OSError as exc:
                self.log_pane.say(f"The producer notes could not be read ({exc}).", "warning")
        self._update_transport()
        if self.app.play_when_loaded:
            self.app.play_when_loaded = False
            self._audition("play")

    @on(ArrangementView.Selected)
    def _selected(self, message: ArrangementView.Selected) -> None:
        roll = self.query_one(PianoRoll)
        song = self.song
        if song is None:
            return
        total = song.arrangement.total_bars * song.beats_per_bar if song.arrangement else 0.0
        roll.set_track(
            message.track, beats_per_bar=song.beats_per_bar, total_beats=total,
            section=message.section,
        )  # fmt: skip
        track = message.track
        where = f" · {message.section.name}" if message.section else ""
        roll.border_title = f"Piano roll · {track.name if track else 'no track'}{where}"

    def show_edited(self, song: SongState) -> None:
        """The open song, changed: same place in the arrangement, and it keeps playing."""
        self.song = song
        self.app.audition.reload(song)
        view = self.query_one(ArrangementView)
        view.set_song(song, keep_place=True)
        self.refresh_audition()

    # ── focus ───────────────────────────────────────────────────────────────

    def action_focus_prompt(self) -> None:
        self.query_one(PromptInput).focus()

    def action_leave_prompt(self) -> None:
        if isinstance(self.focused, PromptInput):
            self.query_one(ArrangementView).focus()

    # ── audition ────────────────────────────────────────────────────────────

    def selected_bar(self) -> int:
        section = self.query_one(ArrangementView).section
        return section.start_bar if section else 0

    def _audition(self, act: str) -> None:
        view = self.query_one(ArrangementView)
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
            self.log_pane.say(exc.detail, "error")
            return False
        except ValueError as exc:
            self.app.notify(str(exc), severity="warning")
            return False
        self.post_message(AuditionChanged())
        return True

    def action_toggle_play(self) -> None:
        self._audition("play")

    def action_track_alone(self) -> None:
        self._audition("alone")

    def action_loop_section(self) -> None:
        self._audition("loop")

    def action_mute(self) -> None:
        self._audition("mute")

    def action_solo(self) -> None:
        self._audition("solo")

    @on(AuditionChanged)
    def refresh_audition(self) -> None:
        audition = self.app.audition
        marks = {tid: "M" for tid in audition.muted}
        marks.update({tid: "S" for tid in audition.soloed})
        if audition.alone:
            marks[audition.alone] = "▶"
        looped = audition.looped.name if audition.looped else None
        self.query_one(ArrangementView).set_marks(marks, looped)
        self._update_transport()
        if audition.playing or audition.player is not None:
            self._start_polling()

    def _start_polling(self) -> None:
        if self._poll is None:
            self._poll = self.set_interval(1 / PLAYHEAD_HZ, self._read_playhead)

    def _read_playhead(self) -> None:
        audition = self.app.audition
        playhead = audition.playhead()
        if playhead is None:
            return
        self.post_message(
            PlayheadMoved(playhead, audition.player.status if audition.player else "")
        )

    @on(PlayheadMoved)
    def _playhead_moved(self, message: PlayheadMoved) -> None:
        playhead = message.playhead
        showing = playhead.playing and not self.app.audition.previewing
        self.query_one(ArrangementView).set_playhead(
            playhead.song_beat / (self.song.beats_per_bar if self.song else 4) if showing else None
        )
        self.query_one(PianoRoll).set_playhead(playhead.song_beat if showing else None)
        self._update_transport(playhead)
        if message.status != "playing" and self._poll is not None:
            self._poll.stop()
            self._poll = None
            error = self.app.audition.player.last_error if self.app.audition.player else None
            if message.status == "error" and error:
                self.app.notify(error, title="Playback stopped", severity="error", timeout=10)

    def _update_transport(self, playhead: object | None = None) -> None:
        audition, song = self.app.audition, self.song
        changes: dict[str, object] = {
            "port": audition.port_label,
            "playing": audition.playing,
            "loop": audition.looped.name if audition.looped else None,
            "previewing": audition.previewing,
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
        self.query_one(TransportBar).update_state(**changes)
