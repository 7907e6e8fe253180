"""The open song: the one value the studio's panes watch (`StudioScreen.session`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.widget import Widget

    from muse_tui.contracts import ComposerPipeline, HistoryEntry, SongState


#: How a run that reached its end is left; any other status can be resumed.
FINISHED = frozenset({"completed", "completed_partial"})


@dataclass(frozen=True, eq=False)  # eq=False: every change is a new value, so watchers fire
class OpenSong:
    """The song on screen, the session folder it lives in, and the session's record.

    `opened`: the producer opened it from disk rather than watching it compose.
    `edited`: the same session, changed (an edit, undo, pick, or a new comparison).
    """

    song: SongState
    folder: Path | None
    pipeline: ComposerPipeline | None  # edits are made on it
    opened: bool = False
    edited: bool = False

    @property
    def editable(self) -> bool:
        """A composed session is open: changes, undo and alternatives apply to it."""
        p = self.pipeline
        return bool(p and self.folder and p.intent is not None and p.song_state.tracks)

    @property
    def resumable(self) -> bool:
        """A run that stopped before its end (cancelled, failed, cut short) is open from disk."""
        p = self.pipeline
        return bool(p and self.folder and p.status not in FINISHED)

    @property
    def stopped_sentence(self) -> str:
        """Where an unfinished run stopped, and the key that resumes it."""
        p = self.pipeline
        if p is None or not self.resumable:
            return ""
        done = p.recovery.last_successful_stage
        how = {"cancelled": "was cancelled", "failed": "failed"}.get(p.status, "stopped")
        return f"This run {how} after stage {done}/8: press r to resume it."

    @property
    def history(self) -> list[HistoryEntry]:
        return self.pipeline.song_state.history if self.pipeline else []

    @property
    def last_change(self) -> HistoryEntry | None:
        return next((e for e in reversed(self.history) if not e.undone), None)

    @property
    def next_redo(self) -> HistoryEntry | None:
        history = self.history
        return history[-1] if history and history[-1].undone else None

    def changed(self, pipeline: ComposerPipeline, song: SongState | None = None) -> OpenSong:
        """This session after an edit: its new record, and the new song if it changed."""
        return OpenSong(song or self.song, self.folder, pipeline, edited=True)


def follow_open_song(
    pane: Widget, show: Callable[[OpenSong | None, OpenSong | None], None]
) -> None:
    """Call `show(old, new)` whenever the studio opens or changes a song (outside it: never)."""
    from textual.reactive import Reactive

    screen = pane.screen
    if isinstance(getattr(type(screen), "session", None), Reactive):
        pane.watch(screen, "session", show, init=False)
