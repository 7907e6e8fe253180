"""What a change request, an undo or an A/B pick hands back to the studio and the CLI.

History paths are JSON paths in the SongState in its on-disk camelCase
(`progression.chords[2].voicing`, `tracks[1].preset`); a path starting with
`intent.` is in the pipeline's intent instead (`intent.constraints`). A
`tracks[i].regions` value is packed: `[[id, name, start, length, notes, ccs, bends]]`
with notes as `[pitch, velocity, start, duration, channel]`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from muse_tui.contracts.alternatives import AlternativeSet
from muse_tui.contracts.base import Contract
from muse_tui.contracts.iteration import Cost, ModificationRequest
from muse_tui.contracts.pipeline import ComposerPipeline
from muse_tui.contracts.song import HistoryEntry, SongState

EditStatus = Literal["applied", "no_change", "declined", "not_understood", "undone", "redone"]


class ModifySongResult(Contract):
    """A change request, done (or not): what was regenerated, what was kept, which files moved."""

    status: EditStatus
    song_state: SongState
    pipeline: ComposerPipeline
    request: ModificationRequest | None = None
    regenerated_components: list[str] = Field(default_factory=list)
    preserved_components: list[str] = Field(default_factory=list)
    updated_files: list[str] = Field(default_factory=list)
    cost: Cost = "cheap"
    summary: str
    history_entry: HistoryEntry | None = None


class UndoResult(Contract):
    """Entries undone (or redone), newest first for an undo, and the files rewritten."""

    status: Literal["undone", "redone", "nothing"]
    song_state: SongState
    pipeline: ComposerPipeline
    entries: list[HistoryEntry] = Field(default_factory=list)
    regenerated_components: list[str] = Field(default_factory=list)
    updated_files: list[str] = Field(default_factory=list)
    summary: str


class AlternativesResult(Contract):
    """A set of variants for one element, and the comparison as a producer reads it."""

    alternative_set: AlternativeSet
    pipeline: ComposerPipeline
    comparison_text: str
    reused: bool = False
