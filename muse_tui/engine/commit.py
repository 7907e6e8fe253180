"""A change lands in the session: its history entry, its record, and the files it reaches.

Shared by every kind of change (`editing.modify`, undo and redo, a picked
alternative, an accepted proposal); which files a change rewrites is read from
the paths of its recorded changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import (
    Change,
    ComposerPipeline,
    Cost,
    HistoryEntry,
    ModificationRequest,
    new_id,
)
from muse_tui.contracts.editing import ModifySongResult
from muse_tui.store.checkpoint import write_checkpoint
from muse_tui.store.fingerprints import session_fingerprints
from muse_tui.store.progression_file import write_progression
from muse_tui.store.proposal_file import drop_proposal, sweep_proposal_folder
from muse_tui.store.session_writer import (
    record_run_in_manifest,
    remove_stale_song_files,
    write_session,
)
from muse_tui.store.smf import write_song_midi
from muse_tui.store.transaction import session_change

from .regenerate import Draft
from .stage_records import synced_stages

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def apply_draft(
    pipeline: ComposerPipeline,
    draft: Draft,
    text: str,
    changes: list[Change],
    regenerated: list[str],
    cost: Cost,
    *,
    session_dir: Path | None,
    summary: str,
    agent: str = "modify",
    clock: Clock = utc_now,
    request: ModificationRequest | None = None,
    kept: list[str] | None = None,
) -> ModifySongResult:
    """Put the draft in the pipeline with a history entry, rewrite its files, report it applied."""
    history = pipeline.song_state.history
    stamp = clock().isoformat()
    entry = HistoryEntry(
        id=new_id(derive_rng(draft.song.seed, "history", len(history))),
        timestamp=stamp,
        user_text=text,
        agent=agent,
        changes=changes,
        regenerated=regenerated,
        cost=cost,
    )
    song = draft.song.model_copy(update={"history": [*history, entry]})
    updated = pipeline.model_copy(
        update={
            "song_state": song,
            "intent": draft.intent,
            "stages": synced_stages(pipeline, song, text),
            "updated_at": stamp,
        }
    )
    files = write_changed_files(session_dir, updated, changes) if session_dir else []
    return ModifySongResult(
        status="applied",
        song_state=updated.song_state,
        pipeline=updated,
        request=request,
        regenerated_components=regenerated,
        preserved_components=kept or [],
        updated_files=files,
        cost=cost,
        summary=summary,
        history_entry=entry,
    )


# ── the files ───────────────────────────────────────────────────────────────
_WHOLE_SESSION = re.compile(
    r"^(tempo|key|mode|timeSignature|arrangement|genre|title|buses|tracks$|tracks\[\d+\]\.(preset|effectChain))"
)
_ONE_TRACK = re.compile(r"^tracks\[(\d+)\]\.(regions|program|drumKit|volume|pan|channel|name)")


def write_changed_files(
    session_dir: Path, pipeline: ComposerPipeline, changes: list[Change]
) -> list[str]:
    """Rewrite what the changes reach, through the store writers; the files whose bytes moved.

    A pending proposal goes with the change: it was made on the song as it was.
    """
    before = session_fingerprints(session_dir)
    paths = [c.path for c in changes]
    song = pipeline.song_state
    with session_change(session_dir):  # every file of the change lands, or none does
        if any(_WHOLE_SESSION.match(p) for p in paths):
            write_session(session_dir, pipeline)
        else:
            write_checkpoint(session_dir, pipeline)
            if any(p.startswith("progression") for p in paths) and song.progression:
                write_progression(session_dir, song.progression, song.title or None)
            song_files = None
            if any(_ONE_TRACK.match(p) for p in paths):
                # The song is already arranged (S6); files whose bytes do not move are not reported.
                song_files = write_song_midi(
                    session_dir, song, arranged=True, drum_map=pipeline.config.drum_map
                )
                remove_stale_song_files(session_dir, song_files)
            record_run_in_manifest(session_dir, pipeline, song_files)
        drop_proposal(session_dir)  # a proposal made on the song before this change is stale
    sweep_proposal_folder(session_dir)
    after = session_fingerprints(session_dir)
    return sorted(p for p, digest in after.items() if before.get(p) != digest)
