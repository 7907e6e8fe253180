"""Changing the open session from the studio: modify, undo, redo, and A/B alternatives.

With a session open, each line typed in the prompt is routed
(`engine.routing.route`): a change request goes to `engine.editing.modify`, a
new-song prompt composes. Edits are CPU work and file writes, so they run in a
thread worker, one at a time; an expensive change asks its question through
`ThreadGate` on the app's loop. Only `_edit_changed` (the worker's state
handler) touches the song, the panes and the player.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.css.query import NoMatches
from textual.worker import Worker, WorkerState

from muse_tui.contracts import (
    AlternativeElement,
    AlternativeSet,
    ArrangementElement,
    ComposerPipeline,
    EffectChainElement,
    HistoryEntry,
    Note,
    PresetElement,
    ProgressionElement,
    SongState,
    Track,
    TrackElement,
)
from muse_tui.contracts.editing import AlternativesResult, ModifySongResult, UndoResult

from .gate import ThreadGate
from .run import ComposingScreen, error_sentence
from .widgets.compare import CompareView
from .widgets.history import HistoryPane
from .widgets.prompt import PromptInput

if TYPE_CHECKING:
    from muse_tui.compose.requests import ChangeRequest

    from .widgets.notes_log import NotesLog

EDIT = "edit"


@dataclass(frozen=True)
class Comparison:
    """A set of alternatives ready to show and hear: each variant's roll and its tracks."""

    pipeline: ComposerPipeline
    alt_set: AlternativeSet
    role: str
    notes: list[list[Note]]
    tracks: list[list[Track]]


def element_role(song: SongState, element: AlternativeElement) -> str:
    """The role an element belongs to ("bass"), or "" for the progression and arrangement."""
    if isinstance(element, TrackElement):
        return element.role
    if isinstance(element, PresetElement | EffectChainElement):
        track = next((t for t in song.tracks if t.id == element.track_id), None)
        return track.role if track else ""
    return ""


def elements_of(song: SongState) -> list[tuple[str, AlternativeElement]]:
    """Everything in the song that can be varied, named as a producer would."""
    found: list[tuple[str, AlternativeElement]] = []
    if song.progression:
        found.append(("the progression", ProgressionElement()))
    for track in song.tracks:
        role = track.role.replace("_", " ")
        found.append((f"the {role}", TrackElement(track_id=track.id, role=track.role)))
    for track in song.tracks:
        role = track.role.replace("_", " ")
        found.append((f"the {role}'s sound", PresetElement(track_id=track.id)))
        if track.effect_chain:
            found.append((f"the {role}'s effects", EffectChainElement(track_id=track.id)))
    if song.arrangement:
        found.append(("the arrangement", ArrangementElement()))
    return found


class EditingScreen(ComposingScreen):
    """The iteration half of the studio screen: change, undo, redo, compare and pick."""

    song: SongState | None = None
    session_dir: Path | None = None
    pipeline: ComposerPipeline | None = None  # the open session's record; edits are made on it
    comparison: Comparison | None = None

    if TYPE_CHECKING:

        @property
        def log_pane(self) -> NotesLog: ...

        def show_edited(self, song: SongState) -> None: ...

        def selected_bar(self) -> int: ...

        def listen(self, act: object) -> bool: ...

    # ── what can be done now ────────────────────────────────────────────────

    @property
    def editable(self) -> bool:
        """A composed session is open: changes, undo and alternatives apply to it."""
        p = self.pipeline
        return bool(p and self.session_dir and p.intent is not None and p.song_state.tracks)

    @property
    def editing(self) -> bool:
        return any(w.group == EDIT and not w.is_finished for w in self.workers)

    def _busy(self) -> bool:
        """Say why nothing can start now, if so."""
        if self.running:
            self.notify("A song is being composed: wait for it, or cancel it with ctrl+x.",
                        severity="warning")  # fmt: skip
        elif self.editing:
            self.notify("One change at a time: this one is nearly done.", severity="warning")
        return self.running or self.editing

    @property
    def last_change(self) -> HistoryEntry | None:
        history = self.pipeline.song_state.history if self.pipeline else []
        return next((e for e in reversed(history) if not e.undone), None)

    @property
    def next_redo(self) -> HistoryEntry | None:
        history = self.pipeline.song_state.history if self.pipeline else []
        return history[-1] if history and history[-1].undone else None

    # ── the prompt ──────────────────────────────────────────────────────────

    @on(PromptInput.Submitted)
    def _prompt_submitted(self, message: PromptInput.Submitted) -> None:
        self.take_prompt(message.text)

    def take_prompt(self, text: str) -> None:
        """A new song, or, with a session open, a change to it (or an answer to a question)."""
        if not self.editable:
            self.start_compose(text)
            return
        from muse_tui.engine.routing import route

        routed = route(text, session_open=True)
        if routed.kind == "compose":
            if not self.editing:
                self.close_comparison()
            self.start_compose(text)
        else:
            self.start_change(text, routed.request)

    def start_change(self, text: str, request: ChangeRequest | None = None) -> None:
        if not self.editable:
            self.notify("Compose a song or open a session first.", severity="warning")
            return
        if self._busy():
            return
        self.log_pane.say(f"» {text}", "bold")
        prompt = self.query_one(PromptInput)
        if prompt.text.strip() == text:
            prompt.clear()  # taken; ↑ brings it back
        self.change_song(request or text)

    # ── undo and redo ───────────────────────────────────────────────────────

    def action_undo(self) -> None:
        self.undo_changes(1)

    def action_redo(self) -> None:
        self.redo_changes(1)

    @on(HistoryPane.UndoRequested)
    def _undo_requested(self, message: HistoryPane.UndoRequested) -> None:
        self.undo_changes(message.steps)

    @on(HistoryPane.RedoRequested)
    def _redo_requested(self, message: HistoryPane.RedoRequested) -> None:
        self.redo_changes(message.steps)

    def undo_changes(self, steps: int) -> None:
        if not self.editable or self.last_change is None:
            self.notify("There is no change to undo.", timeout=3)
            return
        if not self._busy():
            self.replay(steps, undoing=True)

    def redo_changes(self, steps: int) -> None:
        if not self.editable or self.next_redo is None:
            self.notify("There is nothing to redo.", timeout=3)
            return
        if not self._busy():
            self.replay(steps, undoing=False)

    # ── alternatives ────────────────────────────────────────────────────────

    def action_alternatives(self) -> None:
        """Alternatives for the selected track's part (the progression if none is selected)."""
        from .widgets.arrangement import ArrangementView

        track = self.query_one(ArrangementView).track
        if track is None:
            self.compare(ProgressionElement())
        else:
            self.compare(TrackElement(track_id=track.id, role=track.role))

    def compare(self, element: AlternativeElement) -> None:
        if not self.editable:
            self.notify("Compose a song or open a session first.", severity="warning")
            return
        if not self._busy():
            self.make_comparison(element)

    @on(CompareView.Audition)
    def _audition_variant(self, message: CompareView.Audition) -> None:
        comparison = self.comparison
        if comparison is None:
            return
        audition, index = self.app.audition, message.index
        tracks = [] if index is None else comparison.tracks[index]

        def hear() -> None:  # a variant plays at once; the variant in use is the song as it is
            audition.audition_variant(tracks, self.selected_bar(), start=index is not None)

        if self.listen(hear):
            label = comparison.alt_set.variants[index].label if index is not None else ""
            if index is None:
                said = "The song's own part, from the next bar."
            elif tracks:
                said = f"Option {label} from the next bar."
            else:
                said = f"Option {label} is what the song plays now."
            self.notify(said, timeout=2)

    @on(CompareView.Chosen)
    def _variant_chosen(self, message: CompareView.Chosen) -> None:
        if not self._busy():
            self.choose_variant(message.set_id, message.index)

    @on(CompareView.NewBatch)
    def _new_batch(self, message: CompareView.NewBatch) -> None:
        if self.comparison is not None and not self._busy():
            alt_set = self.comparison.alt_set
            self.make_comparison(alt_set.element, batch=alt_set.batch + 1)

    @on(CompareView.Closed)
    def _comparison_closed(self) -> None:
        self.close_comparison()

    def open_comparison(self, comparison: Comparison) -> None:
        """Show the variants where the piano roll was (a new batch replaces the cards)."""
        self.comparison = comparison
        song = comparison.pipeline.song_state
        total = song.arrangement.total_bars * song.beats_per_bar if song.arrangement else 0.0
        try:
            view = self.query_one(CompareView)
        except NoMatches:
            view = CompareView(
                comparison.alt_set, comparison.notes, role=comparison.role, total_beats=total,
                id="compare",
            )  # fmt: skip
            self.query_one("#roll").display = False
            left = self.query_one("#left")
            left.add_class("-comparing")  # a short terminal gives it the arrangement's rows too
            left.mount(view)
        else:
            view.role = comparison.role
            view.show(comparison.alt_set, comparison.notes)
        view.focus()

    def close_comparison(self) -> None:
        """Back to the piano roll; the song plays its own parts again."""
        self.comparison = None
        self.app.audition.end_variants()
        for view in self.query(CompareView):
            view.remove()
        self.query_one("#left").remove_class("-comparing")
        self.query_one("#roll").display = True
        self.query_one("#arrangement").focus()

    # ── the workers ─────────────────────────────────────────────────────────

    def _session(self) -> tuple[ComposerPipeline, Path]:
        assert self.pipeline is not None and self.session_dir is not None  # checked by editable
        return self.pipeline, self.session_dir

    @work(thread=True, group=EDIT, exit_on_error=False)  # one at a time: _busy()
    def change_song(self, said: str | ChangeRequest) -> ModifySongResult:
        from muse_tui.engine.editing import modify
        from muse_tui.engine.orchestrator import run_blocking

        pipeline, folder = self._session()
        gate = ThreadGate(self.app)
        clock = self.app.config.clock
        return run_blocking(modify(pipeline, said, session_dir=folder, gate=gate, clock=clock))

    @work(thread=True, group=EDIT, exit_on_error=False)  # one at a time: _busy()
    def replay(self, steps: int, *, undoing: bool) -> UndoResult:
        from muse_tui.engine.editing import redo, undo

        pipeline, folder = self._session()
        return (undo if undoing else redo)(pipeline, steps, session_dir=folder)

    @work(thread=True, group=EDIT, exit_on_error=False)  # one at a time: _busy()
    def choose_variant(self, set_id: str, index: int) -> ModifySongResult:
        from muse_tui.engine.alternatives import select_alternative

        pipeline, folder = self._session()
        clock = self.app.config.clock
        return select_alternative(pipeline, set_id, index, session_dir=folder, clock=clock)

    @work(thread=True, group=EDIT, exit_on_error=False)  # one at a time: _busy()
    def make_comparison(self, element: AlternativeElement, batch: int = 0) -> Comparison:
        from muse_tui.engine.alternatives import generate_alternatives

        pipeline, folder = self._session()
        made = generate_alternatives(
            pipeline, element, 3, batch=batch, session_dir=folder, clock=self.app.config.clock
        )
        return comparison_of(made, element_role(pipeline.song_state, element))

    @on(Worker.StateChanged)
    def _edit_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group != EDIT:
            return
        self.refresh_bindings()
        if event.state == WorkerState.SUCCESS:
            result = worker.result
            if isinstance(result, Comparison):
                self.pipeline = result.pipeline
                self.open_comparison(result)
            elif isinstance(result, ModifySongResult | UndoResult):
                self.apply(result)
        elif event.state == WorkerState.ERROR:
            self.notify(
                _edit_sentence(worker.error), title="Nothing changed", severity="error", timeout=10
            )

    def apply(self, result: ModifySongResult | UndoResult) -> None:
        """Show what an edit did: the song, its history, the files, and what to hear."""
        changed = result.song_state != (self.pipeline.song_state if self.pipeline else None)
        self.pipeline = result.pipeline
        if self.comparison is not None:
            self.close_comparison()  # a pick, or a change that makes the variants stale
        if changed:
            self.show_edited(result.song_state)
        self._show_history()
        summary = result.summary
        if result.status == "not_understood":
            summary += " For a new song instead, start with “new song:”."
        self.log_pane.say(summary, "bold" if changed else "")
        if result.updated_files:
            self.log_pane.say(f"Rewrote {_files(result.updated_files)}.", "dim")
        self.notify(summary, timeout=4)

    def _show_history(self) -> None:
        pane = self.query_one(HistoryPane)
        pane.display = self.editable
        pane.show(self.pipeline.song_state.history if self.pipeline else [])


def comparison_of(made: AlternativesResult, role: str) -> Comparison:
    """Each variant's mini-roll notes and the tracks to hear in its place (made in the worker)."""
    from muse_tui.engine.alternatives import variant_notes, variant_tracks

    pipeline, alt_set = made.pipeline, made.alternative_set
    count = range(len(alt_set.variants))
    return Comparison(
        pipeline=pipeline,
        alt_set=alt_set,
        role=role,
        notes=[variant_notes(pipeline, alt_set, i) for i in count],
        tracks=[variant_tracks(pipeline, alt_set, i) for i in count],
    )


def _files(paths: list[str]) -> str:
    if len(paths) <= 3:
        return ", ".join(paths)
    return f"{', '.join(paths[:2])} and {len(paths) - 2} more files"


def _edit_sentence(error: BaseException | None) -> str:
    from muse_tui.engine.alternatives import AlternativesError
    from muse_tui.store.atomic import WriteFailed

    if isinstance(error, WriteFailed):
        return (
            f"{error}; the song on screen is as it was. Free some space or check the "
            "sessions folder, then try again."
        )
    if isinstance(error, AlternativesError):
        text = str(error)
        return text[0].upper() + text[1:]
    return error_sentence(error)
