"""Undo and redo past the spec's cases: order, redo after a new change, nothing to undo."""

from __future__ import annotations

from muse_tui.engine.editing import modify, redo, undo

from .conftest import Session


async def test_redo_brings_back_what_undo_took_away(session: Session) -> None:
    changed = await modify(session.pipeline, "Bass too busy, simplify", session_dir=session.folder)
    bass = session.file_bytes("midi/bass.mid")

    undone = undo(changed.pipeline, session_dir=session.folder)
    redone = redo(undone.pipeline, session_dir=session.folder)

    assert redone.status == "redone"
    assert redone.song_state.tracks == changed.song_state.tracks
    assert not redone.song_state.history[0].undone
    assert session.file_bytes("midi/bass.mid") == bass


async def test_a_new_change_after_undo_leaves_nothing_to_redo(session: Session) -> None:
    changed = await modify(session.pipeline, "Bass too busy, simplify")
    undone = undo(changed.pipeline)
    again = await modify(undone.pipeline, "more swing on the drums")

    assert redo(again.pipeline).status == "nothing"
    assert [e.undone for e in again.song_state.history] == [True, False]  # the log keeps both


def test_undo_with_no_history_says_so(session: Session) -> None:
    result = undo(session.pipeline)
    assert result.status == "nothing" and result.summary == "Nothing to undo."


async def test_history_survives_a_checkpoint(session: Session) -> None:
    from muse_tui.store.checkpoint import load_checkpoint

    await modify(session.pipeline, "3rd chord too bright, make darker", session_dir=session.folder)

    loaded = load_checkpoint(session.folder)
    (entry,) = loaded.song_state.history
    assert entry.user_text == "3rd chord too bright, make darker" and entry.changes
    assert undo(loaded).song_state.progression == session.pipeline.song_state.progression
