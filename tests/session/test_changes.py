"""One locking policy: a change holds the session from before it reads it to after it writes."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from muse_tui.cli.edit_commands import modify
from muse_tui.engine.protocols import AutoApprove
from muse_tui.session import changes
from muse_tui.session.failures import NotComposed
from muse_tui.store.checkpoint import load_checkpoint, pipeline_path
from muse_tui.store.lock import SessionBusy
from muse_tui.store.transaction import SessionChanged
from tests.iteration.conftest import Session

ROOT = Path(__file__).parents[2]
HOLD_LOCK = """
import sys
from pathlib import Path
from muse_tui.store.lock import session_lock
with session_lock(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.readline()
"""


@pytest.fixture
def held(session: Session) -> Iterator[int]:
    """Another process holds the session's lock for the test; its pid."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(session.folder)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        yield holder.pid
    finally:
        holder.communicate("\n", timeout=30)


def test_a_held_session_is_refused_before_it_is_read(session: Session, held: int) -> None:
    pipeline_path(session.folder).write_bytes(b"{ not json")  # reading it would fail otherwise
    with pytest.raises(SessionBusy, match=f"pid {held}"), changes.writing(session.folder):
        pytest.fail("the block ran without the lock")


def test_modify_from_the_command_line_is_refused_while_another_writer_holds_it(
    session: Session, held: int
) -> None:
    pipeline_path(session.folder).write_bytes(b"{ not json")  # read first, it would say so
    before = session.fingerprints()
    done = CliRunner().invoke(modify, [str(session.folder), "Bass too busy, simplify"])
    assert done.exit_code == 1
    assert f"is being changed by another muse-studio (pid {held})" in done.output
    assert session.fingerprints() == before


def test_a_song_read_before_another_process_changed_it_is_not_changed(session: Session) -> None:
    stale = load_checkpoint(session.folder)
    rival = subprocess.run(
        [sys.executable, "-m", "muse_tui.cli", "modify", "--yes", str(session.folder), "tempo 92"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert rival.returncode == 0, rival.stderr
    after_rival = session.fingerprints()
    with pytest.raises(SessionChanged), changes.writing(session.folder, stale) as pipeline:
        changes.change(pipeline, session.folder, "bass simpler", gate=AutoApprove())
    assert session.fingerprints() == after_rival


def test_a_change_under_the_lock_lands_in_the_history(session: Session) -> None:
    with changes.writing(session.folder) as pipeline:
        result = changes.change(
            pipeline, session.folder, "Bass too busy, simplify", gate=AutoApprove()
        )
    assert result.status == "applied"
    assert [e.user_text for e in load_checkpoint(session.folder).song_state.history] == [
        "Bass too busy, simplify"
    ]


def test_a_session_never_composed_past_its_prompt_cannot_be_changed(session: Session) -> None:
    pipeline = load_checkpoint(session.folder)
    bare = pipeline.model_copy(update={"intent": None})
    pipeline_path(session.folder).write_text(bare.model_dump_json(by_alias=True))
    with pytest.raises(NotComposed), changes.writing(session.folder):
        pass
