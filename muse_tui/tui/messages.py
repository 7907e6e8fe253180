"""Typed messages: how workers, timers and the player reach the widgets.

Only `@on` handlers touch widgets; everything that happens off the event loop
(the pipeline, the file watchers, the playhead poll) arrives as one of these.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:  # nothing here is needed to paint the first frame
    from muse_tui.audition import Playhead
    from muse_tui.contracts import ComposerPipeline, PipelineEvent, SongState


class PipelineEventMessage(Message):
    """One engine event, in the order the engine emitted it."""

    def __init__(self, event: PipelineEvent) -> None:
        super().__init__()
        self.event = event


class SongLoaded(Message):
    """A song is ready to show and play: a finished run, or a session opened from disk.

    `pipeline` is the session's record when there is one (changes are made on it);
    `opened` says the producer opened it from disk rather than watching it compose.
    """

    def __init__(
        self,
        song: SongState,
        session_dir: Path | None,
        pipeline: ComposerPipeline | None,
        *,
        opened: bool = False,
    ) -> None:
        super().__init__()
        self.song = song
        self.session_dir = session_dir
        self.pipeline = pipeline
        self.opened = opened


class OpenSession(Message):
    """The producer picked a session in the browser (resume: continue its run)."""

    def __init__(self, path: Path, resume: bool = False) -> None:
        super().__init__()
        self.path = path
        self.resume = resume


class PlayheadMoved(Message):
    """The audition playhead, read from the player at ~30 Hz while it plays.

    `settling`: whether the player had yet to carry out its last command when
    `status` was read. Both are read together: judged later, a player that
    started in between would look settled while its status still said "stopped".
    """

    def __init__(self, playhead: Playhead, status: str, settling: bool = False) -> None:
        super().__init__()
        self.playhead = playhead
        self.status = status
        self.settling = settling


class AuditionChanged(Message):
    """Play state, loop, solo or mute changed: the transport bar and lanes redraw."""


class PlaybackRequested(Message):
    """Stage 8 asked to audition the finished song (posted from the stage's thread)."""

    def __init__(self, song: SongState) -> None:
        super().__init__()
        self.song = song


class FilesChanged(Message):
    """A watched folder changed: `kind` is "themes" or "skills"."""

    def __init__(self, kind: str, paths: list[Path]) -> None:
        super().__init__()
        self.kind = kind
        self.paths = paths


class PreviewRequested(Message):
    """A gate asked to audition its stage's output (again: stop)."""

    def __init__(self, song: SongState) -> None:
        super().__init__()
        self.song = song
