"""Changing the open session from the studio: modify, propose, undo, redo, and alternatives.

With a session open, each line typed in the prompt is routed
(`engine.routing.route`): a change request goes to `engine.proposals.preview`,
a new-song prompt is handed back as `ComposeRequested`. A change that
regenerates parts (`PROPOSE_FROM` and dearer), and any "what would it sound
like …?", is proposed: nothing on disk but the session's proposal moves until
the producer accepts or discards it. Smaller changes are made at once. Edits are
CPU work and file writes, so they run in thread workers, one at a time. The
workers' state handler only posts `Edited`, `Proposed`, `Discarded` or
`ComparisonMade`: the screen owns the open song.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from textual import on, work
from textual.message import Message
from textual.widget import Widget
from textual.worker import Worker, WorkerState

from .composing import BUSY_COMPOSING, PIPELINE
from .widgets.notes_log import shortened

if TYPE_CHECKING:
    from pathlib import Path

    from muse_tui.compose.requests import ChangeRequest
    from muse_tui.contracts import AlternativeElement, ComposerPipeline, Cost
    from muse_tui.contracts.editing import ModifySongResult, UndoResult
    from muse_tui.contracts.proposal import ProposalResult
    from muse_tui.engine.proposals import Pending

    from .app import StudioApp
    from .comparison import Comparison
    from .screens.studio import StudioScreen
    from .session import OpenSong

EDIT = "edit"
#: The least costly change the studio proposes instead of making (it regenerates a part).
PROPOSE_FROM: Cost = "moderate"


class Editor(Widget):
    """Runs changes to the open session in the background (shows nothing)."""

    DEFAULT_CSS = "Editor { display: none; }"

    app: StudioApp  # type: ignore[assignment]

    class ComposeRequested(Message):
        """The line typed asks for a new song, not a change to this one."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Edited(Message):
        """A change, undo, redo or pick is on disk: `result` says what it did."""

        def __init__(self, result: ModifySongResult | UndoResult) -> None:
            super().__init__()
            self.result = result

    class Proposed(Message):
        """A change is proposed: `pending` is kept in the session, the song is as it was."""

        def __init__(self, result: ProposalResult, pending: Pending) -> None:
            super().__init__()
            self.result = result
            self.pending = pending

    class Discarded(Message):
        """The proposal was dropped (or there was none): `result` says which."""

        def __init__(self, result: ProposalResult) -> None:
            super().__init__()
            self.result = result

    class ComparisonMade(Message):
        """Alternatives are ready to show and hear."""

        def __init__(self, comparison: Comparison) -> None:
            super().__init__()
            self.comparison = comparison

    @property
    def studio(self) -> StudioScreen:
        return self.screen  # type: ignore[return-value]

    @property
    def session(self) -> OpenSong | None:
        return self.studio.session

    @property
    def editable(self) -> bool:
        return self.session is not None and self.session.editable

    @property
    def editing(self) -> bool:
        return any(w.group == EDIT and not w.is_finished for w in self.workers)

    def busy(self) -> bool:
        """Say why nothing can start now, if so."""
        composing = any(w.group == PIPELINE and not w.is_finished for w in self.workers)
        if composing:
            self.notify(BUSY_COMPOSING, severity="warning")
        elif self.editing:
            self.notify("One change at a time: this one is nearly done.", severity="warning")
        return composing or self.editing

    # ── what the producer asks for ─────────────────────────────────────────

    def take_prompt(self, text: str) -> None:
        """A question is answered, a change made to the open song, anything else composes.

        A question never changes anything, with or without a song open.
        """
        from muse_tui.engine.routing import route  # routes the line; see the module docstring
        from muse_tui.knowledge.questions import question_table

        routed = route(text, session_open=self.editable)
        # "what would it sound like in D minor?" is proposed; "what preset should the bass use?"
        # is answered, though its words read as a change too.
        wondering = (
            self.editable
            and routed.request.kind == "change"
            and question_table().routing.wonders_at(text)
        )
        if routed.kind == "question" and not wondering:
            self.answer(text)
        elif routed.kind == "unclear" and not self.editable:  # "undo" with no song open
            self.notify("There is no song open to change; type a prompt to compose one.")
        elif routed.kind == "compose" or not self.editable:
            self.post_message(self.ComposeRequested(text))
        else:
            self.start_change(text, routed.request, wondering=wondering)

    def answer(self, text: str) -> None:
        """Answer in the notes log, from the open session (or theory, which needs none)."""
        from muse_tui.compose.answers import answer

        session = self.session
        pipeline = session.pipeline if session and self.editable else None
        said = answer(text, pipeline, session.folder if session else None)
        log = self.studio.log_pane
        log.say(f"? {shortened(text)}", "bold")
        for line in said.text.splitlines():
            log.say(line)
        self.studio.took_prompt(text)

    def start_change(
        self, text: str, request: ChangeRequest | None = None, *, wondering: bool = False
    ) -> None:
        """Make or propose the change; `wondering` ("what would it sound like…") always proposes."""
        if not self.editable:
            self.notify("Compose a song or open a session first.", severity="warning")
            return
        if self.busy():
            return
        self.studio.log_pane.say(f"» {shortened(text)}", "bold")
        self.studio.took_prompt(text)
        self.change_song(request or text, floor="cheap" if wondering else PROPOSE_FROM)

    def accept(self) -> None:
        """Make the pending proposal the song."""
        if self.editable and not self.busy():
            self.accept_proposal()

    def discard(self) -> None:
        """Drop the pending proposal; the song is as it was."""
        if self.editable and not self.busy():
            self.discard_proposal()

    def undo(self, steps: int) -> None:
        if self.session is None or not self.editable or self.session.last_change is None:
            self.notify("There is no change to undo.", timeout=3)
            return
        if not self.busy():
            self.replay(steps, undoing=True)

    def redo(self, steps: int) -> None:
        if self.session is None or not self.editable or self.session.next_redo is None:
            self.notify("There is nothing to redo.", timeout=3)
            return
        if not self.busy():
            self.replay(steps, undoing=False)

    def compare(self, element: AlternativeElement, batch: int = 0) -> None:
        if not self.editable:
            self.notify("Compose a song or open a session first.", severity="warning")
            return
        if not self.busy():
            self.make_comparison(element, batch)

    def choose(self, set_id: str, index: int) -> None:
        if not self.busy():
            self.choose_variant(set_id, index)

    # ── the workers ─────────────────────────────────────────────────────────

    def _session(self) -> tuple[ComposerPipeline, Path]:
        session = self.session
        assert session and session.pipeline and session.folder  # checked by editable
        return session.pipeline, session.folder

    def _writing(self) -> contextlib.AbstractContextManager[ComposerPipeline]:
        """The open session, held as its one writer from before the change reads it to its commit.

        A CLI changing the same session makes this raise `SessionBusy` at once; a
        CLI that changed it since the studio read it makes it raise
        `SessionChanged` before anything is worked out (`_edit_changed` reloads).
        """
        from muse_tui.session.changes import writing

        pipeline, folder = self._session()
        return writing(folder, pipeline)

    @property
    def _folder(self) -> Path:
        return self._session()[1]

    @work(thread=True, group=EDIT, exit_on_error=False)  # one at a time: busy()
    def change_song(
        self, said: str | ChangeRequest, floor: Cost = PROPOSE_FROM
    ) -> ModifySongResult | ProposalResult:
        """A change request is previewed (made at once below `floor`); anything else is modified.

        Undo, redo and "try something different" typed as words go to `modify`.
        """
        from muse_tui.session import changes

        from .gate import ThreadGate

        gate = ThreadGate(self.app)
        with self._writing() as pipeline:
            return changes.change(
                pipeline, self._folder, said, gate=gate, clock=self.app.config.clock, floor=floor
            )

    @work(thread=True, group=EDIT, exit_on_error=False)  # one at a time: busy()
    def accept_proposal(self) -> ModifySongResult:
        from muse_tui.session import changes

        with self._writing() as pipeline:
            return changes.accept(pipeline, self._folder)

    @work(thread=True, group=EDIT, exit_on_error=False)  # one at a time: busy()
    def discard_proposal(self) -> ProposalResult:
        from muse_tui.session import changes

        with self._writing() as pipeline:
            return changes.discard(pipeline, self._folder)

    @work(thread=True, group=EDIT, exit_on_error=False)  # one at a time: busy()
    def replay(self, steps: int, *, undoing: bool) -> UndoResult:
        from muse_tui.session import changes

        with self._writing() as pipeline:
            return changes.replay(pipeline, self._folder, steps, undoing=undoing)

    @work(thread=True, group=EDIT, exit_on_error=False)  # one at a time: busy()
    def choose_variant(self, set_id: str, index: int) -> ModifySongResult:
        from muse_tui.session import changes

        clock = self.app.config.clock
        with self._writing() as pipeline:
            return changes.choose(pipeline, self._folder, set_id, index, clock=clock)

    @work(thread=True, group=EDIT, exit_on_error=False)  # one at a time: busy()
    def make_comparison(self, element: AlternativeElement, batch: int = 0) -> Comparison:
        from muse_tui.session import changes

        from .comparison import comparison_of, element_role

        clock = self.app.config.clock
        with self._writing() as pipeline:
            made = changes.alternatives(
                pipeline, self._folder, element, 3, batch=batch, clock=clock
            )
        return comparison_of(made, element_role(pipeline.song_state, element))

    @on(Worker.StateChanged)
    def _edit_changed(self, event: Worker.StateChanged) -> None:
        from muse_tui.contracts.editing import ModifySongResult, UndoResult
        from muse_tui.contracts.proposal import ProposalResult
        from muse_tui.engine.proposals import Pending

        from .comparison import Comparison  # the comparisons' data loads with the first one

        worker = event.worker
        if worker.group != EDIT:
            return
        self.screen.refresh_bindings()
        if event.state == WorkerState.SUCCESS:
            result = worker.result
            if isinstance(result, Comparison):
                self.post_message(self.ComparisonMade(result))
            elif isinstance(result, ProposalResult):
                if result.status == "proposed" and result.proposal is not None:
                    pending = Pending(result.proposal, result.pipeline)  # as the session keeps it
                    self.post_message(self.Proposed(result, pending))
                else:
                    self.post_message(self.Discarded(result))
            elif isinstance(result, ModifySongResult | UndoResult):
                self.post_message(self.Edited(result))
        elif event.state == WorkerState.ERROR:
            self._failed(worker.error)

    def _failed(self, error: BaseException | None) -> None:
        """Say what went wrong; a session another muse-studio changed is shown as it now is."""
        from muse_tui.store.transaction import SessionChanged

        session = self.session
        if isinstance(error, SessionChanged) and session is not None and session.folder:
            self.studio.open_session(session.folder)
            self.notify(
                f"Session {session.folder.name} was changed outside the studio (by the CLI or "
                "another studio), so your change was not applied. The studio now shows it as "
                "it is on disk; send your change again.",
                title="Reloaded from disk",
                severity="warning",
                timeout=12,
            )
            return
        self.notify(edit_sentence(error), title="Nothing changed", severity="error", timeout=10)


def edit_sentence(error: BaseException | None) -> str:
    """A change that failed, as one sentence: nothing changed, and what to do.

    The words are the session layer's (`session.failures`), which the CLI prints too.
    """
    from muse_tui.session.failures import error_sentence, failure_of

    failure = failure_of(error)
    if failure is None:
        return error_sentence(error)
    text = failure.sentence
    text = f"{text[:1].upper()}{text[1:]}"
    if failure.kept:
        text = f"{text}; the song on screen is as it was."
    return f"{text} {failure.next_step}".rstrip()
