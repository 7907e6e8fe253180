"""A write the disk refused gets the advice that fits why: space only for a full disk."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from muse_tui.cli.main import main
from muse_tui.store import atomic
from muse_tui.store.atomic import WriteFailed, advice_sentence, write_advice
from muse_tui.store.checkpoint import STATE_DIR
from muse_tui.store.transaction import refuse_outside


@pytest.mark.parametrize(
    ("code", "advice"),
    [
        (errno.ENOSPC, "free some space"),
        (errno.EDQUOT, "free some space"),
        (errno.EACCES, "make the folder writable, or choose another"),
        (errno.EROFS, "make the folder writable, or choose another"),
    ],
)
def test_the_advice_follows_the_reason(code: int, advice: str) -> None:
    assert write_advice(WriteFailed(code, os.strerror(code))) == advice


def test_a_link_leading_out_of_the_session_is_not_a_full_disk(tmp_path: Path) -> None:
    session = tmp_path / "session"
    session.mkdir()
    (session / STATE_DIR).symlink_to(tmp_path)
    with pytest.raises(WriteFailed) as refused:
        refuse_outside(session, session / STATE_DIR / "song-state.json")
    assert advice_sentence(refused.value) == (
        "Remove the link that leads out of the session folder, then try again."
    )


def test_a_file_where_a_folder_should_be_is_a_refused_write(tmp_path: Path) -> None:
    # The same error whichever write meets it first: a stage's file or the checkpoint.
    blocked = tmp_path / "sessions"
    blocked.write_text("a file, not a folder")
    with pytest.raises(WriteFailed) as refused:
        atomic.write_atomic(blocked / "session-1" / "state" / "pipeline.json", "{}")
    assert refused.value.errno == errno.ENOTDIR
    assert str(refused.value).startswith("could not write ")
    assert not list(tmp_path.glob("**/*.tmp"))


def test_compose_into_a_read_only_folder_says_to_make_it_writable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSE_CONFIG_DIR", str(tmp_path / "config"))

    def read_only(_fd: int) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(atomic.os, "fsync", read_only)
    done = CliRunner().invoke(
        main, ["compose", "dark trap, 140", "--yes", "--bars", "8", "--out", str(tmp_path)]
    )
    assert done.exit_code == 1, done.output
    assert "Traceback" not in done.output
    assert "Make the folder writable, or choose another" in done.output
    assert "free some space" not in done.output.lower()


def test_a_full_disk_still_says_free_some_space() -> None:
    full = WriteFailed(errno.ENOSPC, "could not write x: No space left on device")
    assert advice_sentence(full, "compose again") == "Free some space, then compose again."
