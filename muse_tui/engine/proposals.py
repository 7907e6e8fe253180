"""Changes proposed before they land: preview, accept, discard (issue 15).

A bigger change (one that regenerates parts) or a "what would it sound like
in D minor?" is *proposed*: `preview` runs the very `modify` a direct change
runs, but the store's writers are captured (`store.proposal_file.capture`)
instead of writing, and the files they would have written are kept whole in
`SESSION/proposal/`. The song and its files stay as they were until
`accept` lands exactly those bytes (history entry included) through the
session's transaction; `discard` removes the proposal and leaves no history.
A proposal survives a restart; accepting one made on an older checkpoint is
refused (`ProposalStale`), since its files would undo what changed since.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from muse_tui.compose.iteration.revision import COST_ORDER
from muse_tui.compose.requests import ChangeRequest
from muse_tui.contracts import ComposerPipeline, Cost, SensitivityMap
from muse_tui.contracts.editing import ModifySongResult
from muse_tui.contracts.proposal import Proposal, ProposalResult
from muse_tui.store.checkpoint import PIPELINE_FILE, STATE_DIR, CheckpointError, load_checkpoint
from muse_tui.store.lock import session_lock
from muse_tui.store.proposal_file import (
    FILES,
    capture,
    checkpoint_digest,
    drop_proposal,
    keep_backups,
    moved_files,
    read_proposed_file,
    read_record,
    sweep_proposal_folder,
    write_proposal,
)
from muse_tui.store.transaction import session_change

from .commit import Clock, utc_now
from .editing import modify


class ProposalStale(Exception):
    """The song changed after the proposal was made; accepting it would undo that change."""


@dataclass(frozen=True)
class Pending:
    """The proposal waiting in a session, and the song as it would leave it."""

    proposal: Proposal
    pipeline: ComposerPipeline


def proposes(cost: Cost, floor: Cost) -> bool:
    """Whether a change costing `cost` is proposed (`floor`: the least cost that is)."""
    return COST_ORDER[cost] >= COST_ORDER[floor]


async def preview(
    pipeline: ComposerPipeline,
    request: ChangeRequest,
    *,
    session_dir: Path,
    clock: Clock = utc_now,
    sensitivity: SensitivityMap | None = None,
    floor: Cost = "cheap",
) -> ModifySongResult | ProposalResult:
    """Work the change out and keep it as the session's proposal, touching nothing else.

    A change that costs less than `floor` is made at once instead, exactly as
    `modify` makes it (the studio proposes only what regenerates parts). A
    request that changes nothing hands back `modify`'s result unchanged.
    """
    base = checkpoint_digest(session_dir)
    with capture(session_dir) as change:
        result = await modify(
            pipeline, request, session_dir=session_dir, clock=clock, sensitivity=sensitivity
        )
    if result.status != "applied":
        return result
    written, removed = moved_files(change)
    if not proposes(result.cost, floor):
        change.commit()  # the backups the checkpoint's write made are in it
        sweep_proposal_folder(session_dir)
        return result.model_copy(update={"updated_files": sorted(written)})
    pending = load_pending(session_dir)
    proposal = Proposal(
        request=request.text,
        base_checkpoint=base,
        cost=result.cost,
        summary=result.summary,
        regenerated_components=result.regenerated_components,
        preserved_components=result.preserved_components,
        changed_files=sorted(written),
        removed_files=removed,
        history_entry=result.history_entry,
        modification=result.request,
    )
    write_proposal(session_dir, proposal.to_json().encode("utf-8"), written)
    said = f"Proposed: {result.summary} Accept it to keep it, or discard it."
    replaced = pending.proposal.request if pending else None
    if replaced is not None:
        said += f" It replaces the proposal “{replaced}”."
    return ProposalResult(
        status="proposed",
        summary=said,
        pipeline=result.pipeline,
        proposal=proposal,
        replaced=replaced,
    )


def load_pending(session_dir: Path) -> Pending | None:
    """The session's proposal, or None when there is none (or what is there cannot be read)."""
    record = read_record(session_dir)
    if record is None:
        return None
    try:
        proposal = Proposal.from_json(record)
        proposed = load_checkpoint(session_dir / FILES / STATE_DIR / PIPELINE_FILE)
    except (ValueError, CheckpointError):
        return None
    return Pending(proposal, proposed)


def accept(pipeline: ComposerPipeline, session_dir: Path) -> ModifySongResult:
    """Land the proposal's files, as the change would have written them; the result it had.

    `ProposalStale` when the session's checkpoint is no longer the one the
    proposal was made on.
    """
    pending = load_pending(session_dir)
    if pending is None:
        return ModifySongResult(
            status="no_change",
            song_state=pipeline.song_state,
            pipeline=pipeline,
            summary=nothing_pending(session_dir, "accept"),
        )
    proposal = pending.proposal
    with session_lock(session_dir):
        if checkpoint_digest(session_dir) != proposal.base_checkpoint:
            raise ProposalStale(
                f"The proposal “{proposal.request}” was made on an older version of the song "
                "(it has changed since), so it was not applied; discard it and ask again."
            )
        with session_change(session_dir) as change:
            keep_backups(session_dir)  # as writing the checkpoint does: with the change
            for relative in proposal.changed_files:
                change.put(relative, read_proposed_file(session_dir, relative))
            for relative in proposal.removed_files:
                change.remove_path(session_dir / relative)
            drop_proposal(session_dir)  # joins this change: the proposal goes as the song lands
        sweep_proposal_folder(session_dir)
    proposed = pending.pipeline
    return ModifySongResult(
        status="applied",
        song_state=proposed.song_state,
        pipeline=proposed,
        request=proposal.modification,
        regenerated_components=proposal.regenerated_components,
        preserved_components=proposal.preserved_components,
        updated_files=proposal.changed_files,
        cost=proposal.cost,
        summary=proposal.summary,
        history_entry=proposal.history_entry,
    )


def discard(pipeline: ComposerPipeline, session_dir: Path) -> ProposalResult:
    """Remove the proposal; the song, its files and its history are as they were."""
    pending = load_pending(session_dir)
    drop_proposal(session_dir)  # an unreadable leftover goes too
    sweep_proposal_folder(session_dir)
    if pending is None:
        return ProposalResult(
            status="nothing", summary=nothing_pending(session_dir, "discard"), pipeline=pipeline
        )
    request = pending.proposal.request
    return ProposalResult(
        status="discarded",
        summary=f"Discarded the proposal “{request}”; the song is as it was.",
        pipeline=pipeline,
        proposal=pending.proposal,
    )


def nothing_pending(session_dir: Path, verb: str) -> str:
    return (
        f"There is no proposal to {verb} in {session_dir.name}; make one with "
        f'`muse-studio modify {session_dir.name} "…" --preview`.'
    )
