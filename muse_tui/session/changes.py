"""Changing a session: made, proposed, accepted or discarded; undone, redone; alternatives.

One locking policy for every front end: a change holds the session's lock
(`store.lock.session_lock`) from before it reads the session to after it
writes (`writing`). A second writer is refused at once (`SessionBusy`), and a
song read earlier that another process has changed since is refused before
anything is worked out (`SessionChanged`), so a change is made on the song on
disk or not at all.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from muse_tui.engine.alternatives import generate_alternatives, select_alternative
from muse_tui.engine.commit import Clock, utc_now
from muse_tui.engine.editing import modify, redo, undo
from muse_tui.engine.orchestrator import run_blocking
from muse_tui.engine.proposals import accept as accept_proposal
from muse_tui.engine.proposals import discard as discard_proposal
from muse_tui.engine.proposals import preview
from muse_tui.engine.routing import route
from muse_tui.store.checkpoint import load_checkpoint
from muse_tui.store.lock import session_lock
from muse_tui.store.transaction import refuse_if_changed

from .failures import NotComposed

if TYPE_CHECKING:
    from pathlib import Path

    from muse_tui.compose.requests import ChangeRequest
    from muse_tui.contracts import AlternativeElement, ComposerPipeline, Cost
    from muse_tui.contracts.editing import AlternativesResult, ModifySongResult, UndoResult
    from muse_tui.contracts.proposal import ProposalResult
    from muse_tui.engine.protocols import ApprovalGate


@contextlib.contextmanager
def writing(folder: Path, pipeline: ComposerPipeline | None = None) -> Iterator[ComposerPipeline]:
    """The session, held as its one writer from before it is read to after the change commits.

    Without `pipeline` the session is read under the lock (the command line);
    with it, the song read earlier (the studio's) must still be the one on disk.
    """
    with session_lock(folder):
        if pipeline is None:
            pipeline = open_composed(folder)
        else:
            refuse_if_changed(folder)
        yield pipeline


def open_composed(folder: Path) -> ComposerPipeline:
    """The session's checkpoint, refused with `NotComposed` if its song was never made."""
    pipeline = load_checkpoint(folder)
    if pipeline.intent is None:
        raise NotComposed(folder)
    return pipeline


def change(
    pipeline: ComposerPipeline,
    folder: Path,
    said: str | ChangeRequest,
    *,
    gate: ApprovalGate,
    clock: Clock = utc_now,
    floor: Cost | None = None,
) -> ModifySongResult | ProposalResult:
    """Make the change; with a `floor`, a change request that costs that much is proposed instead.

    Undo, redo and "try something different" typed as words are always made; without a
    `floor`, a question typed as a change is answered by `modify` and changes nothing.
    """
    if floor is None:
        return run_blocking(modify(pipeline, said, session_dir=folder, gate=gate, clock=clock))
    request = route(said, session_open=True).request if isinstance(said, str) else said
    if request.kind != "change":
        return run_blocking(modify(pipeline, request, session_dir=folder, gate=gate, clock=clock))
    return run_blocking(preview(pipeline, request, session_dir=folder, clock=clock, floor=floor))


def propose(
    pipeline: ComposerPipeline, folder: Path, request: ChangeRequest, *, clock: Clock = utc_now
) -> ModifySongResult | ProposalResult:
    """Propose the change whatever it costs: only `SESSION/proposal/` is written."""
    return run_blocking(preview(pipeline, request, session_dir=folder, clock=clock))


def accept(pipeline: ComposerPipeline, folder: Path) -> ModifySongResult:
    """Make the pending proposal the song (`ProposalStale` if the song moved since)."""
    return accept_proposal(pipeline, folder)


def discard(pipeline: ComposerPipeline, folder: Path) -> ProposalResult:
    """Drop the pending proposal; the song is as it was."""
    return discard_proposal(pipeline, folder)


def replay(pipeline: ComposerPipeline, folder: Path, steps: int, *, undoing: bool) -> UndoResult:
    """Undo (or redo) the last `steps` changes."""
    return (undo if undoing else redo)(pipeline, steps, session_dir=folder)


def alternatives(
    pipeline: ComposerPipeline,
    folder: Path,
    element: AlternativeElement,
    count: int,
    *,
    batch: int = 0,
    clock: Clock = utc_now,
) -> AlternativesResult:
    """`count` variants of one element, scored and cached in the session."""
    return generate_alternatives(
        pipeline, element, count, batch=batch, session_dir=folder, clock=clock
    )


def choose(
    pipeline: ComposerPipeline, folder: Path, set_id: str, index: int, *, clock: Clock = utc_now
) -> ModifySongResult:
    """Make variant `index` of an alternative set the song."""
    return select_alternative(pipeline, set_id, index, session_dir=folder, clock=clock)
