"""The main screen: the layout, the open song, and the keys; each area's work is a collaborator.

`session` (an `OpenSong`) is the one source of truth for what is open: the panes
watch it (`follow_open_song`). The collaborators sit beside the panes and show
nothing: `Composer` runs the pipeline, `Editor` changes the open session,
`Comparing` shows and plays alternatives (those three are mounted on first use,
so their handlers here go by Textual's names, `on_editor_edited`), `Listening`
drives the player and the transport. They report with typed messages; the
handlers here set `session`. A new pane is one widget that follows the open
song plus one line in `compose()`.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.geometry import Size
from textual.reactive import reactive
from textual.screen import Screen

from muse_tui.tui.widgets.footer import StudioFooter

from ..listening import Listening
from ..messages import PipelineEventMessage, SongLoaded
from ..session import OpenSong
from ..widgets.arrangement import ArrangementView
from ..widgets.piano_roll import PianoRoll
from ..widgets.prompt_keys import PromptBox
from ..widgets.stand_ins import NotesStandIn, PromptStandIn
from ..widgets.tracker import StageTracker
from ..widgets.transport import TransportBar

if TYPE_CHECKING:
    from muse_tui.contracts import (
        AlternativeElement,
        ComposerPipeline,
        HistoryEntry,
        SongState,
    )

    from ..app import StudioApp
    from ..comparing import Comparing
    from ..comparison import Comparison
    from ..composing import Composer
    from ..editing import Editor
    from ..widgets.compare import CompareView, ProposalView
    from ..widgets.history import HistoryPane
    from ..widgets.notes_log import NotesLog
    from ..widgets.prompt import PromptInput

LETTER_ACTIONS = {
    "toggle_play", "track_alone", "loop_section", "mute", "solo", "alternatives", "show_proposal",
    "resume",
}  # fmt: skip
EDIT_ACTIONS = {"undo", "redo", "alternatives"}
#: The prompt, and its stand-in in the first frame (see `mount_prompt_and_notes`).
PROMPT_BOXES = "#prompt, #prompt-stand-in"


class PaneColumn(Vertical):
    """A column of panes, which cover it whole: it has nothing of its own to draw.

    Textual draws every widget on screen in full, then what lies over it; `BLANK`
    spares it drawing a container nobody sees (~1 ms a column in the first frame).
    """

    BLANK = True


class PaneColumns(Horizontal):
    """The columns side by side, covering it whole (see `PaneColumn`)."""

    BLANK = True


class StudioScreen(Screen[None]):
    """Where the producer composes, watches, approves, changes and listens."""

    BLANK = True  # its panes, the transport and the footer cover it (see `PaneColumn`)

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
        Binding("j", "jam", "Jam", id="studio.jam",
                tooltip="Jam with the band on the prompt typed, else on the open song's prompt"),
        Binding("p", "show_proposal", "Proposal", id="studio.show_proposal",
                tooltip="Show the pending proposal beside the song: hear it, accept or discard"),
        Binding("enter", "accept_proposal", "Accept proposal", id="studio.accept_proposal",
                tooltip="With the proposal shown and the prompt empty: make it the song"),
        Binding("ctrl+z,u", "undo", "Undo", id="studio.undo",
                tooltip="Undo the latest change to the song (it stays in the history); "
                        "in the prompt u is typed and ctrl+z undoes typing"),
        Binding("ctrl+y", "redo", "Redo", id="studio.redo",
                tooltip="Redo the latest undone change"),
        Binding("r", "resume", "Resume", id="run.resume",
                tooltip="Resume the open session's run where it stopped (cancelled or failed)"),
        Binding("ctrl+x", "cancel_run", "Cancel", id="run.cancel",
                tooltip="Stop the running composition (its checkpoint is kept)"),
        Binding("slash", "focus_prompt", "Prompt", show=False, id="studio.focus_prompt",
                tooltip="Type a new prompt (in the prompt a slash is typed, except first)"),
        Binding("escape", "leave_prompt", "Leave prompt", show=False, id="studio.leave_prompt",
                tooltip="Leave the prompt so the studio keys work"),
    ]  # fmt: skip

    AUTO_FOCUS = PROMPT_BOXES
    _prompt_empty = True
    _resumed = False
    PROMPT_TITLE = "Prompt — enter composes, ctrl+n new line"
    EDIT_PROMPT_TITLE = "Prompt — say what to change (“bass simpler”), or a new song"

    app: StudioApp  # type: ignore[assignment]
    session: reactive[OpenSong | None] = reactive(None, init=False)

    def __init__(self) -> None:
        super().__init__(id="studio")
        self.listening = Listening(id="listening")
        self._composer: Composer | None = None
        self._editor: Editor | None = None
        self._comparing: Comparing | None = None
        #: Keys and pastes typed before the screen first showed (see `_forward_event`).
        self._typed_early: list[events.Event] = []

    def compose(self) -> ComposeResult:
        # The size's breakpoint classes before the panes are styled: the first resize
        # then finds them set, instead of styling every widget a second time.
        self.update_classes(self._breakpoint_classes(self.app.size), update=False)
        cfg = self.app.config
        # Stand-ins draw the prompt and the notes until the first frame is painted
        # (`mount_prompt_and_notes`).
        panes = {
            PromptStandIn(id="prompt-stand-in"): self.PROMPT_TITLE,
            ArrangementView(id="arrangement"): "Arrangement",
            PianoRoll(id="roll"): "Piano roll",
            StageTracker(id="tracker", monotonic=cfg.monotonic, animate=cfg.animate): "Stages",
            NotesStandIn(id="log-stand-in"): "Notes",
        }
        for pane, title in panes.items():
            pane.border_title = title
        left, right = list(panes)[:3], list(panes)[3:]
        with PaneColumns(id="studio-body"):
            yield PaneColumn(*left, id="left")
            yield PaneColumn(*right, id="right")
        yield TransportBar(id="transport")
        yield StudioFooter(compact=True)
        yield self.listening

    def _breakpoint_classes(self, size: Size) -> dict[str, bool]:
        """The classes Textual's resize handler sets: per axis, the last breakpoint reached."""
        classes: dict[str, bool] = {}
        for extent, breakpoints in (
            (size.width, self.app.HORIZONTAL_BREAKPOINTS or []),
            (size.height, self.app.VERTICAL_BREAKPOINTS or []),
        ):
            reached = [name for edge, name in sorted(breakpoints) if extent >= edge]
            classes.update(
                {name: name == reached[-1] if reached else False for _, name in breakpoints}
            )
        return classes

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        """The first resume lays the screen out and paints it without styling it again.

        Textual resumes a screen by styling every widget in it anew; the first time,
        each widget was styled as it mounted, moments before, by the same stylesheet,
        so that second pass changed nothing (`tests/ui/test_startup.py` checks) and
        cost the first frame ~9 ms. Later resumes (back from a dialog) restyle as usual.
        """
        if not self._resumed:
            self._resumed = True
            event.prevent_default()  # Textual's own handler runs once, here
            super()._on_screen_resume(events.ScreenResume(refresh_styles=False))
            early, self._typed_early = self._typed_early, []
            for typed in early:  # to the prompt's stand-in, which holds them for the prompt
                if self.focused is not None:
                    self.focused._forward_event(typed)
                else:
                    super()._forward_event(typed)

    def _forward_event(self, event: events.Event) -> None:
        """Keys typed as the studio starts wait for the prompt instead of being lost.

        The app hands a key to the screen when nothing has the focus, which is the
        case until the screen first shows and focuses the prompt: a producer who
        launches the studio and starts typing at once typed into nothing. Those keys
        (and pastes) are kept, then given to the prompt in order.
        """
        if not self._resumed and isinstance(event, events.Key | events.Paste):
            self._typed_early.append(event)
        else:
            super()._forward_event(event)

    def on_mount(self) -> None:
        with contextlib.suppress(NoMatches):  # ctrl+q pressed before the first frame
            self.listening.refresh_audition()

    async def mount_prompt_and_notes(self) -> None:
        """The prompt's text area and the notes' log in their stand-ins' places.

        `StudioApp.finish_starting` calls this once the first frame is painted. Each widget
        mounts hidden beside its stand-in (a frame drawn meanwhile is the first one
        again); then in one step, with no frame drawn and no key read in between, the
        widgets show, the stand-ins hide, and the prompt takes the focus and what was
        typed before it was there.
        """
        from ..widgets.notes_log import NotesLog
        from ..widgets.prompt import PromptInput

        prompt_stand_in = self.query_one(PromptStandIn)
        prompt = PromptInput(id="prompt")
        prompt.cursor_blink = self.app.config.animate
        swaps = ((prompt, prompt_stand_in), (NotesLog(id="log"), self.query_one(NotesStandIn)))
        for pane, stand_in in swaps:
            if not self.is_attached:
                return  # the studio is closing (ctrl+q before the first frame)
            pane.border_title = stand_in.border_title
            pane.display = False
            await stand_in.parent.mount(pane, before=stand_in)  # type: ignore[union-attr]
        for pane, stand_in in swaps:
            pane.display, stand_in.display = True, False
        if self.focused is prompt_stand_in:
            self.set_focus(prompt, scroll_visible=False)
        prompt_stand_in.hand_over(prompt)
        await self.query("PromptStandIn, NotesStandIn").remove()

    # ── what is open ────────────────────────────────────────────────────────

    @property
    def song(self) -> SongState | None:
        return self.session.song if self.session else None

    @property
    def pipeline(self) -> ComposerPipeline | None:
        return self.session.pipeline if self.session else None

    @property
    def session_dir(self) -> Path | None:
        return self.session.folder if self.session else None

    @property
    def editable(self) -> bool:
        return self.session is not None and self.session.editable

    @property
    def last_change(self) -> HistoryEntry | None:
        return self.session.last_change if self.session else None

    @property
    def next_redo(self) -> HistoryEntry | None:
        return self.session.next_redo if self.session else None

    @property
    def comparison(self) -> Comparison | None:
        return self._comparing.comparison if self._comparing else None

    @property
    def running(self) -> bool:
        return self._composer is not None and self._composer.running

    # ── the collaborators, mounted on first use: the first frame needs none of them ──

    @property
    def composer(self) -> Composer:
        if self._composer is None:
            from ..composing import Composer

            self._composer = Composer(id="composer")
            self.mount(self._composer)
        return self._composer

    @property
    def editor(self) -> Editor:
        if self._editor is None:
            from ..editing import Editor

            self._editor = Editor(id="editor")
            self.mount(self._editor)
        return self._editor

    @property
    def comparing(self) -> Comparing:
        if self._comparing is None:
            from ..comparing import Comparing

            self._comparing = Comparing(self.listening, id="comparing")
            self.mount(self._comparing)
        return self._comparing

    @property
    def run_session_id(self) -> str:
        return self.query_one(StageTracker).state.session_id

    @property
    def log_pane(self) -> NotesLog:
        from ..widgets.notes_log import NotesLog

        return self.query_one("#log", NotesLog)

    @property
    def prompt(self) -> PromptInput:
        """The prompt (a stand-in draws it until the first frame is painted)."""
        from ..widgets.prompt import PromptInput

        return self.query_one("#prompt", PromptInput)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # In the prompt these letters type; the footer should not promise otherwise.
        # Space is the exception while the prompt is empty (see PromptInput).
        if action in LETTER_ACTIONS and isinstance(self.focused, PromptBox):
            return action == "toggle_play" and not self.focused.text and self.session is not None
        if action == "cancel_run":
            return self.running
        if action == "resume":
            return self.session is not None and self.session.resumable and not self.running
        if action == "alternatives" and self.comparison is not None:
            return False  # one comparison at a time; n asks for a new batch
        if action == "accept_proposal":
            return bool(self.query("#proposal")) and self.editable
        if action == "show_proposal":
            pending = self._comparing.proposal if self._comparing else None
            return pending is not None and not self.query("#proposal")
        if action in EDIT_ACTIONS:
            return self.editable
        return True

    def watch_session(self, old: OpenSong | None, new: OpenSong | None) -> None:
        """What comes before the panes see the song: the player, the prompt, the keys."""
        if new is None:
            return
        audition = self.app.audition
        if new.edited:  # the same song, changed: same place, and it keeps playing
            if old is None or new.song is not old.song:
                audition.reload(new.song)
                self.listening.refresh_audition()
            return
        if self.comparison is not None:
            self.comparing.close()
        self.comparing.forget_proposal()
        if new.editable and not self.query("#history"):
            self._mount_history(new)
        audition.load(new.song)
        prompt = self.prompt
        prompt.border_title = self.EDIT_PROMPT_TITLE if new.editable else self.PROMPT_TITLE
        prompt.expect_changes(new.editable)
        pipeline = new.pipeline
        if new.editable and pipeline and prompt.text.strip() == pipeline.raw_prompt.strip():
            prompt.clear()  # ready for what to change; ↑ brings the prompt back
        if not new.opened and self.app.screen is self:
            prompt.focus()  # a song just composed: what the producer types next is for the prompt
        self.refresh_bindings()
        self.sub_title = new.folder.name if new.folder else ""
        if new.folder is not None:
            self.app.remember_session(new.folder)
        self.listening.update_transport()
        if new.editable and new.folder is not None:
            self._show_pending(new.folder, new.song)  # a proposal survives a restart
        if self.app.play_when_loaded:  # after the panes: play from the selected section
            self.app.play_when_loaded = False
            self.call_after_refresh(self.listening.act, "play")

    # ── what the collaborators report ───────────────────────────────────────

    @on(PipelineEventMessage)
    def _pipeline_event(self, message: PipelineEventMessage) -> None:
        self.query_one(StageTracker).show(message.event)
        self.log_pane.show_event(message.event)

    @on(SongLoaded)
    def _song_loaded(self, message: SongLoaded) -> None:
        self.session = OpenSong(
            message.song, message.session_dir, message.pipeline, opened=message.opened
        )

    def on_editor_edited(self, message: Editor.Edited) -> None:
        """Show what an edit did: the song, its history, the files, and what to hear."""
        result, session = message.result, self.session
        if session is None:
            return
        changed = result.song_state != (session.pipeline.song_state if session.pipeline else None)
        if self.comparison is not None:
            self.comparing.close(focus=False)  # a pick, or a change that makes the variants stale
        pending = self.comparing.proposal
        if changed and pending is not None:
            self.comparing.forget_proposal()  # accepted, or dropped by a change made meanwhile
            entry = getattr(result, "history_entry", None)
            if entry is None or entry.user_text != pending.proposal.request:
                self.log_pane.say(
                    f"The proposal “{pending.proposal.request}” was dropped: the song changed.",
                    "dim",
                )
        self.session = session.changed(result.pipeline, result.song_state if changed else None)
        summary = result.summary
        if result.status == "not_understood":
            summary += " For a new song instead, start with “new song:”."
        self.log_pane.say(summary, "bold" if changed else "")
        if result.updated_files:
            self.log_pane.say(f"Rewrote {_files(result.updated_files)}.", "dim")
        self.notify(summary, timeout=4)
        if result.status not in ("undone", "redone"):  # ctrl+z again, ctrl+y: keys stay put
            self._back_to_prompt()

    def _mount_history(self, session: OpenSong) -> None:
        """The history pane, once a composed session opens (where the edits it lists begin)."""
        # Not composed with the others: hidden until now, it cost the first frame ~5 ms
        # (its list widget's import, rules and styles).
        from ..widgets.history import HistoryPane

        self.query_one("#right").mount(HistoryPane(session.history, id="history"), before="#log")

    def _back_to_prompt(self) -> None:
        """After a change, a pick or a decided proposal, what is typed next is for the prompt."""
        if self.app.screen is self:
            self.prompt.focus()

    def _show_pending(self, folder: Path, song: SongState) -> None:
        from muse_tui.engine.proposals import load_pending

        pending = load_pending(folder)
        if pending is not None:
            self.comparing.open_proposal(pending, song)
            self.log_pane.say(f"A proposal is pending: “{pending.proposal.request}”.", "bold")
            self.refresh_bindings()

    def on_editor_proposed(self, message: Editor.Proposed) -> None:
        """Show "current | proposal"; the song, its files and its history are as they were."""
        if self.song is None:
            return
        self.comparing.open_proposal(message.pending, self.song)
        self.log_pane.say(message.result.summary, "bold")
        self.notify(message.result.summary, timeout=4)
        self.refresh_bindings()

    def on_editor_discarded(self, message: Editor.Discarded) -> None:
        self.comparing.forget_proposal()
        self.log_pane.say(message.result.summary)
        self.notify(message.result.summary, timeout=3)
        self.refresh_bindings()
        self._back_to_prompt()

    def on_proposal_view_hear(self, message: ProposalView.Hear) -> None:
        self.comparing.hear_proposal(message.proposed)

    def on_proposal_view_accept(self) -> None:
        self.editor.accept()

    def action_accept_proposal(self) -> None:
        self.editor.accept()

    def on_proposal_view_discard(self) -> None:
        self.editor.discard()

    def on_proposal_view_closed(self) -> None:
        self.comparing.close()  # the proposal stays pending: p shows it again
        self.refresh_bindings()

    def action_show_proposal(self) -> None:
        pending, song = self.comparing.proposal, self.song
        if pending is not None and song is not None:
            self.comparing.open_proposal(pending, song)
            self.query_one("#proposal").focus()
            self.refresh_bindings()

    def on_editor_comparison_made(self, message: Editor.ComparisonMade) -> None:
        if self.session is not None:
            self.session = self.session.changed(message.comparison.pipeline)
        self.comparing.open(message.comparison)

    def on_editor_compose_requested(self, message: Editor.ComposeRequested) -> None:
        if self.comparison is not None and not self.editor.editing:
            self.comparing.close()
        self.start_compose(message.text)

    @on(ArrangementView.Selected)
    def _selected(self, message: ArrangementView.Selected) -> None:
        roll, song = self.query_one(PianoRoll), self.song
        if song is None:
            return
        total = song.bar_beat(song.arrangement.total_bars) if song.arrangement else 0.0
        roll.set_track(
            message.track, beats_per_bar=song.beats_per_bar, total_beats=total,
            section=message.section, sections=song.arrangement.sections if song.arrangement else (),
            bar_beat=song.bar_beat,
        )  # fmt: skip
        track = message.track
        where = f" · {message.section.name}" if message.section else ""
        roll.border_title = f"Piano roll · {track.name if track else 'no track'}{where}"

    # ── what the producer asks for ──────────────────────────────────────────

    def on_prompt_input_submitted(self, message: PromptInput.Submitted) -> None:
        self.editor.take_prompt(message.text)

    def on_text_area_changed(self, message: PromptInput.Changed) -> None:
        # Named by Textual's handler name so the prompt's module need not be imported;
        # a text area other than the prompt's says nothing about what space does.
        if not isinstance(message.text_area, PromptBox):
            return
        empty = not message.text_area.text
        if empty != self._prompt_empty:  # space plays only while the prompt is empty
            self._prompt_empty = empty
            self.refresh_bindings()

    def took_prompt(self, text: str) -> None:
        """The prompt's line was taken as a change: clear it (↑ brings it back)."""
        prompt = self.prompt
        if prompt.text.strip() == text:
            prompt.clear()

    def start_compose(self, prompt: str) -> None:
        """Compose a new song from the prompt (one run at a time)."""
        if self.composer.start(prompt):
            # The prompt is on its way (↑ brings it back): keys typed while it composes start
            # the next line instead of lengthening a prompt already sent.
            self.took_prompt(prompt)
            self.query_one(ArrangementView).focus()  # so space, m, s… work while it composes

    def open_session(self, session_dir: Path, *, resume: bool = False) -> None:
        self.composer.open_session(session_dir, resume=resume)

    def compare(self, element: AlternativeElement) -> None:
        self.editor.compare(element)

    def action_cancel_run(self) -> None:
        self.composer.cancel()

    def action_resume(self) -> None:
        if self.session is not None and self.session.folder is not None:
            self.open_session(self.session.folder, resume=True)

    def action_undo(self) -> None:
        self.editor.undo(1)

    def action_redo(self) -> None:
        self.editor.redo(1)

    def on_history_pane_undo_requested(self, message: HistoryPane.UndoRequested) -> None:
        self.editor.undo(message.steps)

    def on_history_pane_redo_requested(self, message: HistoryPane.RedoRequested) -> None:
        self.editor.redo(message.steps)

    def action_alternatives(self) -> None:
        """Alternatives for the selected track's part (the progression if none is selected)."""
        from muse_tui.contracts import ProgressionElement, TrackElement

        track = self.query_one(ArrangementView).track
        if track is None:
            self.compare(ProgressionElement())
        else:
            self.compare(TrackElement(track_id=track.id, role=track.role))

    def action_jam(self) -> None:
        """The Jam screen, on the prompt typed (else the open song's); the song waits here."""
        from .jam import JamScreen

        typed = self._prompt_box().text.strip()
        opened = self.session.pipeline if self.session is not None else None
        prompt = typed or (opened.raw_prompt if opened is not None else "")
        if not prompt:
            self.notify("Type a prompt first (“dark trap, 140, key of Am”), then press j to jam.")
            return
        seed = self.session.song.seed if self.session is not None and not typed else 0
        self.app.push_screen(JamScreen(prompt, seed))

    def on_compare_view_audition(self, message: CompareView.Audition) -> None:
        self.comparing.hear(message.index)

    def on_compare_view_chosen(self, message: CompareView.Chosen) -> None:
        self.editor.choose(message.set_id, message.index)

    def on_compare_view_new_batch(self, message: CompareView.NewBatch) -> None:
        if self.comparison is not None:
            alt_set = self.comparison.alt_set
            self.editor.compare(alt_set.element, batch=alt_set.batch + 1)

    def on_compare_view_closed(self) -> None:
        self.comparing.close()

    def _prompt_box(self) -> PromptBox:
        """The prompt, or its stand-in if a key comes before the prompt is mounted."""
        return self.query_one(PROMPT_BOXES)  # type: ignore[return-value]

    # The focus moves at once (`set_focus`; `Widget.focus` waits a turn): the keys typed
    # behind these go where the focus went as soon as the binding has run (`key_order`).
    def action_focus_prompt(self) -> None:
        self.set_focus(self._prompt_box())

    def action_leave_prompt(self) -> None:
        if isinstance(self.focused, PromptBox):
            shown = self.query("#compare, #proposal")
            self.set_focus(shown.first() if shown else self.query_one(ArrangementView))

    def action_toggle_play(self) -> None:
        self.listening.act("play")

    def action_track_alone(self) -> None:
        self.listening.act("alone")

    def action_loop_section(self) -> None:
        self.listening.act("loop")

    def action_mute(self) -> None:
        self.listening.act("mute")

    def action_solo(self) -> None:
        self.listening.act("solo")


def _files(paths: list[str]) -> str:
    if len(paths) <= 3:
        return ", ".join(paths)
    return f"{', '.join(paths[:2])} and {len(paths) - 2} more files"
