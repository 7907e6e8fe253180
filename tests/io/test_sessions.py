"""Finding sessions: the root, ids and paths, and names made safe from user text."""

from __future__ import annotations

from pathlib import Path

import pytest

from muse_tui.store.atomic import WriteFailed
from muse_tui.store.sessions import (
    BadSessionReference,
    SessionNotFound,
    inside_session,
    list_sessions,
    resolve_session,
    sanitise_name,
    sessions_root,
)
from tests.io.disk import make_session

SESSION = "session-20261122-abc123"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Late Night Drive", "late-night-drive"),
        ("../../etc/passwd", "etc-passwd"),
        ("/tmp/evil", "tmp-evil"),
        ("CON", "_con"),
        ("nul.txt", "_nul.txt"),
        ("com1", "_com1"),
        ("..", "untitled"),
        ("", "untitled"),
        ("a\x00b\nc", "a-b-c"),
        ("C:\\Users\\x", "c-users-x"),
        ("夜の街 Café", "夜の街-café"),
        (".hidden", "hidden"),
        ("x" * 200, "x" * 64),
    ],
)
def test_names_from_user_text_are_safe(text: str, expected: str) -> None:
    assert sanitise_name(text) == expected


@pytest.mark.parametrize("text", ["../../etc/passwd", "CON", "..", "a/../../b", "~root", " . "])
def test_a_sanitised_name_stays_in_its_folder(tmp_path: Path, text: str) -> None:
    name = sanitise_name(text)
    assert "/" not in name and "\\" not in name and not name.startswith(".")
    assert (tmp_path / name).resolve().parent == tmp_path.resolve()


def test_writing_outside_the_session_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / SESSION
    assert inside_session(folder, "midi/bass.mid") == folder / "midi" / "bass.mid"
    for bad in ("../escape.mid", "/etc/passwd", "midi/../../x"):
        with pytest.raises(WriteFailed, match="outside the session folder"):
            inside_session(folder, bad)


def test_a_symlinked_subfolder_pointing_away_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / SESSION
    folder.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (folder / "midi").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(WriteFailed):
        inside_session(folder, "midi/bass.mid")


def test_the_root_is_the_env_then_the_setting_then_sessions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("MUSE_SESSIONS_DIR", raising=False)
    assert sessions_root() == Path("sessions")
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.toml").write_text(f'sessions_dir = "{tmp_path / "mine"}"\n')
    assert sessions_root() == tmp_path / "mine"
    assert sessions_root(configured="~/beats") == Path("~/beats").expanduser()
    monkeypatch.setenv("MUSE_SESSIONS_DIR", str(tmp_path / "env"))
    assert sessions_root() == tmp_path / "env"


def test_a_session_is_found_by_id_or_by_path(tmp_path: Path) -> None:
    folder = make_session(tmp_path, SESSION)
    assert resolve_session(SESSION, tmp_path) == folder
    assert resolve_session(str(folder), tmp_path / "elsewhere") == folder
    with pytest.raises(SessionNotFound, match="sessions list"):
        resolve_session("session-20261122-zzzzzz", tmp_path)


@pytest.mark.parametrize("ref", ["../../etc/passwd", "CON", "", "..", "/etc", "session-2026"])
def test_anything_else_is_refused(tmp_path: Path, ref: str) -> None:
    make_session(tmp_path, SESSION)
    with pytest.raises(BadSessionReference):
        resolve_session(ref, tmp_path)


def test_an_id_that_is_a_symlink_out_of_the_root_is_refused(tmp_path: Path) -> None:
    make_session(tmp_path / "other", SESSION)
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / SESSION).symlink_to(tmp_path / "other" / SESSION)
    with pytest.raises(BadSessionReference, match="outside"):
        resolve_session(SESSION, tmp_path / "root")


def test_folders_that_are_not_sessions_are_not_listed(tmp_path: Path) -> None:
    make_session(tmp_path, SESSION)
    (tmp_path / "notes").mkdir()
    (tmp_path / "session-oops").mkdir()
    (tmp_path / "session-20261122-zzzzzz").write_text("a file, not a folder")
    assert [s.session_id for s in list_sessions(tmp_path)] == [SESSION]
    assert list_sessions(tmp_path / "missing") == []


def test_an_incomplete_session_is_summarised_from_its_checkpoint(tmp_path: Path) -> None:
    make_session(
        tmp_path, SESSION, complete=False, genre="house", tonic="F", mode="major", tempo=124
    )
    (summary,) = list_sessions(tmp_path)
    assert not summary.complete and summary.status == "running"
    assert (summary.genre, summary.key, summary.tempo, summary.track_count) == (
        "house",
        "F major",
        124,
        4,
    )


def test_delete_session_removes_one_session_and_refuses_anything_else(tmp_path: Path) -> None:
    from muse_tui.store.sessions import BadSessionReference, delete_session

    root = tmp_path / "sessions"
    session = root / "session-20261122-abcdef"
    (session / "state").mkdir(parents=True)
    (session / "state" / "pipeline-state.json").write_text("{}")
    outside = tmp_path / "precious"
    outside.mkdir()
    (outside / "manifest.json").write_text("{}")
    not_a_session = root / "notes"
    not_a_session.mkdir()

    for folder in (outside, not_a_session, root / ".."):
        with pytest.raises(BadSessionReference, match="left alone"):
            delete_session(root, folder)
    assert outside.exists() and not_a_session.exists()
    delete_session(root, session)
    assert not session.exists()
