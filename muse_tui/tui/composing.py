"""Composing from the studio: the pipeline as an asyncio worker, and how runs end.

The engine runs on the app's loop (its stage work goes to threads), so the
keyboard stays live; gates and questions are modals the worker awaits. Every
way a run can end is handled in one `Worker.StateChanged` handler, which posts
`SongLoaded` for the screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.widget import Widget
from textual.worker import Worker, WorkerState

from .messages import SongLoaded
from .session import FINISHED

if TYPE_CHECKING:
    from muse_tui.contracts import ComposerPipeline

    from .app import StudioApp

PIPELINE = "pipeline"
BUSY_COMPOSING = "A song is being composed: wait for it, or cancel it with ctrl+x."


class Composer(Widget):
    """Starts, cancels and resumes runs, and opens sessions from disk (shows nothing)."""

    DEFAULT_CSS = "Composer { display: none; }"

    app: StudioApp  # type: ignore[assignment]
    run_root: Path = Path()

    @property
    def running(self) -> bool:
        return any(w.group == PIPELINE and not w.is_finished for w in self.workers)

    def start(self, prompt: str) -> bool:
        """Compose a new song from the prompt (one run at a time); False if one is running."""
        if self.running:
            self.notify(BUSY_COMPOSING, severity="warning")
            return False
        self.compose_song(prompt)
        return True

    def cancel(self) -> None:
        if not self.running:
            self.notify("Nothing is being composed.", timeout=2)
            return
        self.workers.cancel_group(self, PIPELINE)

    @work(exclusive=True, group=PIPELINE, exit_on_error=False)
    async def compose_song(self, prompt: str) -> ComposerPipeline:
        from muse_tui.session.composing import compose

        self.run_root = self.app.sessions_root()
        return await compose(
            self.app.orchestrator(self.run_root),
            prompt,
            seed=self.app.next_seed(),
            config=self.app.pipeline_config(),
            default_bars=self.app.settings.default_bars,  # a length in the prompt wins
            session_id=self.app.config.session_ids() if self.app.config.session_ids else None,
        )

    @work(exclusive=True, group=PIPELINE, exit_on_error=False)
    async def resume_song(self, session_dir: Path) -> ComposerPipeline:
        from muse_tui.session.composing import resume

        self.run_root = session_dir.parent
        gates = list(self.app.settings.approval_gates)  # the studio's, not the run's own
        return await resume(self.app.orchestrator(self.run_root), session_dir, approval_gates=gates)

    @on(Worker.StateChanged)
    def _run_changed(self, event: Worker.StateChanged) -> None:
        from muse_tui.contracts import ComposerPipeline
        from muse_tui.session.failures import error_sentence

        worker = event.worker
        if worker.group != PIPELINE:
            return
        self.screen.refresh_bindings()  # "Cancel run" comes and goes with the run
        if event.state == WorkerState.SUCCESS and isinstance(worker.result, ComposerPipeline):
            pipeline = worker.result
            song = pipeline.song_state
            folder = self.run_root / pipeline.session_id
            if song.tracks or song.arrangement:
                self.post_message(SongLoaded(song, folder if folder.is_dir() else None, pipeline))
            elif pipeline.status not in FINISHED and folder.is_dir():
                # Stopped before there was a song (cancelled at a question or the harmony
                # gate): shown as it opens from disk, so the studio says r resumes it and
                # reopens it next time.
                self.open_session(folder)
            if pipeline.status == "failed":
                failed = [r for r in pipeline.stages.values() if r.status == "failed"]
                error = failed[-1].error if failed else None
                self.notify(
                    error.sentence
                    if error and error.recovery_hint
                    else "Check the Notes pane for why; resume it from Sessions (ctrl+o).",
                    title="The run failed",
                    severity="error",
                    timeout=10,
                )
        elif event.state == WorkerState.ERROR:
            self.notify(
                error_sentence(worker.error),
                title="Could not compose",
                severity="error",
                timeout=10,
            )
        elif event.state == WorkerState.CANCELLED:
            self.notify("Run cancelled; its checkpoint is kept in Sessions.", timeout=4)

    def open_session(self, session_dir: Path, *, resume: bool = False) -> None:
        """Show a session from disk; with `resume`, continue its run."""
        from muse_tui.session.composing import open_song
        from muse_tui.store.checkpoint import CheckpointError

        if self.running:
            self.notify("Finish or cancel the current run (ctrl+x) first.", severity="warning")
            return
        if resume:
            self.resume_song(session_dir)
            return
        try:
            pipeline, song = open_song(session_dir)
        except CheckpointError as exc:
            self.notify(str(exc), title="Cannot open the session", severity="error", timeout=10)
            return
        self.post_message(SongLoaded(song, session_dir, pipeline, opened=True))
