"""The notes/log pane: what the run did, what went wrong, and the producer notes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import RichLog

from ..session import OpenSong, follow_open_song
from .line_style import StyledOncePerRepaint
from .tracker import duration_text

if TYPE_CHECKING:
    from muse_tui.contracts import PipelineEvent, StageFailed

STATUS_TONES = {"completed": "success", "completed_partial": "warning"}
#: The most of a prompt the pane echoes: a pasted page shows by its start, its end and its length.
ECHO_LIMIT = 200


def shortened(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text` as the pane echoes it: whole when short, else "start … end (10,000 characters)"."""
    if len(text) <= limit:
        return text
    head, tail = text[: limit * 3 // 4].rstrip(), text[-(limit // 4) :].lstrip()
    return f"{head} … {tail} ({len(text):,} characters)"


class NotesLog(StyledOncePerRepaint, RichLog):
    """A scrolling log; `show_event` writes the lines a producer cares about."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, min_width=20, **kwargs)  # type: ignore[arg-type]
        #: The last stage failure written: the run's end need not repeat its sentence.
        self._failed: StageFailed | None = None

    def on_mount(self) -> None:
        follow_open_song(self, self._open_song)

    def _open_song(self, old: OpenSong | None, new: OpenSong | None) -> None:
        """Opened from disk: say so; a new song: its producer notes."""
        if new is None or new.edited:
            return
        if new.opened and new.folder is not None and new.pipeline is not None:
            self.say(f"Opened {new.folder.name}: {shortened(new.pipeline.raw_prompt)}", "bold")
            if new.resumable:
                self.say(new.stopped_sentence, "warning")
        notes = new.folder / "notes" / "producer-notes.md" if new.folder else None
        if notes is not None and notes.is_file():
            try:
                self.show_notes(notes.read_text(encoding="utf-8"))
            except OSError as exc:
                self.say(f"The producer notes could not be read ({exc}).", "warning")

    def say(self, text: str, tone: str = "") -> None:
        """Write a line; `tone` is a theme colour (success, warning, error…) or "bold"/"dim"."""
        style = self.app.theme_variables.get(tone, tone) if tone else ""
        self.write(Text(text, style=style))

    def show_event(self, event: PipelineEvent) -> None:
        match event.kind:
            case "pipeline_started":
                resumed = (
                    f", resuming at stage {event.resumed_from_stage}"
                    if event.resumed_from_stage
                    else ""
                )
                prompt = shortened(event.prompt)
                self.say(f"Composing {event.session_id}{resumed}: {prompt}", "bold")
            case "stage_completed":
                self.say(f"{event.line} ({duration_text(event.duration_ms)})")
            case "stage_retrying":
                self.say(
                    f"↻ Stage {event.stage}/8: {event.error.sentence} "
                    f"Trying again ({event.attempt}/{event.max_attempts}).",
                    "warning",
                )
            case "stage_failed":
                self._failed = event
                self.say(f"✗ Stage {event.stage}/8 {event.name}: {event.error.sentence}", "error")
            case "stage_skipped":
                self.say(f"– Stage {event.stage}/8 {event.name} skipped", "dim")
            case "approval_requested" if event.question is not None:
                self.say(f"? {event.question.reason}", "accent")
            case "approval_resolved":
                answer = f" → {event.answer}" if event.answer else ""
                self.say(f"  stage {event.stage}: {event.decision}{answer}", "dim")
            case "pipeline_finished":
                self.say(event.message_after(self._failed), STATUS_TONES.get(event.status, "error"))
                self._failed = None
                if event.session_dir:
                    self.say(f"Session folder: {event.session_dir}", "dim")
            case _:
                pass

    def show_notes(self, markdown: str) -> None:
        from rich.markdown import Markdown  # markdown-it loads when notes are shown, not at start

        self.write(Markdown(markdown))
