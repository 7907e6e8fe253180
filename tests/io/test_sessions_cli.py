"""`muse-studio sessions list | show | clean` through click's CliRunner."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from muse_tui.cli import session_commands
from muse_tui.cli.session_commands import sessions
from tests.io.disk import age, make_session

NEWER, OLDER, BROKEN = (
    "session-20261122-cccccc",
    "session-20261121-bbbbbb",
    "session-20261120-aaaaaa",
)
NOW = datetime.now(UTC).replace(second=0, microsecond=0)
CREATED = {
    NEWER: NOW - timedelta(hours=1),
    OLDER: NOW - timedelta(days=3),
    BROKEN: NOW - timedelta(days=5),
}


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "sessions"
    monkeypatch.setenv("MUSE_SESSIONS_DIR", str(root))
    monkeypatch.setenv("MUSE_CONFIG_DIR", str(tmp_path / "config"))
    make_session(root, NEWER, created_at=CREATED[NEWER], genre="house", tonic="F", mode="major")
    make_session(root, OLDER, created_at=CREATED[OLDER])
    make_session(root, BROKEN, created_at=CREATED[BROKEN], complete=False)
    age(root)
    return root


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(sessions, list(args), input=input)


def test_list_shows_newest_first_with_genre_key_tempo_and_status(root: Path) -> None:
    result = run("list")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["SESSION", "DATE", "GENRE", "KEY", "TEMPO", "STATUS"]
    assert [line.split()[0] for line in lines[1:]] == [NEWER, OLDER, BROKEN]
    date, time = f"{CREATED[NEWER]:%Y-%m-%d %H:%M}".split()
    assert lines[1].split() == [NEWER, date, time, "house", "F", "major", "92", "completed"]
    assert lines[3].endswith("running (incomplete)")


def test_list_json(root: Path) -> None:
    result = run("list", "--json")
    assert result.exit_code == 0
    listed = json.loads(result.output)
    assert [s["sessionId"] for s in listed] == [NEWER, OLDER, BROKEN]
    assert listed[0]["complete"] and not listed[2]["complete"]


def test_list_of_nothing_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSE_SESSIONS_DIR", str(tmp_path / "none"))
    result = run("list")
    assert result.exit_code == 0 and "No sessions in" in result.output


def test_show_a_complete_session(root: Path) -> None:
    result = run("show", NEWER)
    assert result.exit_code == 0, result.output
    assert "Key:     F major" in result.output and "Tempo:   92 BPM" in result.output
    assert "midi/full-arrangement.mid" in result.output and "Stages:" in result.output
    by_path = run("show", str(root / NEWER), "--json")
    assert json.loads(by_path.output)["sessionId"] == NEWER


def test_show_an_incomplete_session(root: Path) -> None:
    result = run("show", BROKEN)
    assert result.exit_code == 0, result.output
    assert "incomplete" in result.output and f"muse-studio resume {BROKEN}" in result.output
    details = json.loads(run("show", BROKEN, "--json").output)
    assert details["status"] == "running" and details["stages"]["8"]["status"] == "completed"


def test_show_refuses_what_is_not_a_session(root: Path) -> None:
    missing = run("show", "session-20261122-zzzzzz")
    assert missing.exit_code == 1 and "There is no session" in missing.output
    for bad in ("../../etc/passwd", "CON"):
        refused = run("show", bad)
        assert refused.exit_code == 2, bad
        assert "neither a session id" in refused.output or "not a session folder" in refused.output


def test_clean_without_a_terminal_or_yes_refuses(root: Path) -> None:
    result = run("clean", "--incomplete")
    assert result.exit_code == 2
    assert "Refusing to delete without confirmation" in result.output
    assert (root / BROKEN).exists()


def test_clean_incomplete_with_yes_removes_only_the_incomplete_one(root: Path) -> None:
    (root / NEWER / "midi" / ".bass.mid.x1y2.tmp").write_bytes(b"half")
    age(root)
    result = run("clean", "--incomplete", "--yes")
    assert result.exit_code == 0, result.output
    assert "Removed 1 session and 1 leftover temp file." in result.output
    assert not (root / BROKEN).exists()
    assert (root / NEWER / "manifest.json").exists() and (root / OLDER / "manifest.json").exists()
    assert not (root / NEWER / "midi" / ".bass.mid.x1y2.tmp").exists()


def test_clean_asks_on_a_terminal(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_commands, "_stdin_is_terminal", lambda: True)
    declined = run("clean", "--incomplete", input="n\n")
    assert declined.exit_code == 0 and "Delete them?" in declined.output
    assert "Nothing deleted." in declined.output and (root / BROKEN).exists()
    accepted = run("clean", "--incomplete", input="y\n")
    assert accepted.exit_code == 0 and not (root / BROKEN).exists()


def test_clean_by_age_can_remove_complete_sessions(root: Path) -> None:
    result = run("clean", "--older-than", "2", "--yes")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in root.iterdir()) == [NEWER]


def test_clean_with_nothing_to_do(root: Path) -> None:
    result = run("clean")
    assert result.exit_code == 0 and "Nothing to clean." in result.output
    assert run("clean", "--older-than", "-1").exit_code == 2
