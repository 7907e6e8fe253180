"""A change proposed before it lands: what it would do, kept whole in the session until decided.

The producer hears a proposal beside the song ("current | proposal") and
accepts it (exactly the files a direct change would have written, history
entry included) or discards it (nothing is left, not even in the history).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from muse_tui.contracts.base import Contract
from muse_tui.contracts.iteration import Cost, ModificationRequest
from muse_tui.contracts.pipeline import ComposerPipeline
from muse_tui.contracts.song import HistoryEntry

ProposalStatus = Literal["proposed", "discarded", "nothing"]


class Proposal(Contract):
    """A change kept aside: the request, the checkpoint it was made on, and what it would do."""

    request: str
    base_checkpoint: str  # SHA-256 of the checkpoint it was made on; accepting needs the same
    cost: Cost
    summary: str
    regenerated_components: list[str] = Field(default_factory=list)
    preserved_components: list[str] = Field(default_factory=list)
    changed_files: list[str] = Field(default_factory=list)
    removed_files: list[str] = Field(default_factory=list)
    history_entry: HistoryEntry | None = None
    modification: ModificationRequest | None = None


class ProposalResult(Contract):
    """What previewing or discarding did: the proposal kept, or why there is none.

    `pipeline` is the song as the proposal would leave it (the current one when
    nothing was proposed); `replaced` says a pending proposal made way for this one.
    """

    status: ProposalStatus
    summary: str
    pipeline: ComposerPipeline
    proposal: Proposal | None = None
    replaced: str | None = None
