"""Composing, resuming and opening a session: the same for the command line and the studio."""

from __future__ import annotations

from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages
from muse_tui.session.composing import length_answers, new_seed, open_song, resume
from muse_tui.store.checkpoint import load_checkpoint, song_path
from tests.iteration.conftest import Session


def test_a_length_asked_for_settles_the_song_else_the_default_gives_way_to_the_prompt() -> None:
    assert length_answers(32, bars=64) == {"bars": "64"}
    assert length_answers(32) == {"default_bars": "32"}


def test_a_seed_asked_for_is_kept() -> None:
    assert new_seed(7) == 7
    assert 0 <= new_seed() < 2**31


def test_a_session_opens_with_its_song_file_when_that_is_newer(session: Session) -> None:
    pipeline, song = open_song(session.folder)
    assert song == pipeline.song_state
    newer = song.model_copy(update={"title": "Renamed on disk"})
    song_path(session.folder).write_bytes(newer.to_json().encode())
    assert open_song(session.folder)[1].title == "Renamed on disk"


def test_a_resumed_run_keeps_its_settings_but_takes_the_gates_it_is_given(session: Session) -> None:
    engine = Orchestrator(product_stages(), session.folder.parent)
    done = run_blocking(resume(engine, session.folder, approval_gates=[]))
    assert done.config.approval_gates == []
    assert done.config.model_dump(exclude={"approval_gates"}) == load_checkpoint(
        session.folder
    ).config.model_dump(exclude={"approval_gates"})
