"""Every reader is bounded: one bad file is one sentence, and never hides the other sessions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from muse_tui.cli.main import main
from muse_tui.knowledge import SkillFileError
from muse_tui.knowledge.edit_words import EDIT_WORDS_FILE, EditWords
from muse_tui.knowledge.loader import load_table
from muse_tui.store.checkpoint import CheckpointError, load_checkpoint, pipeline_path
from muse_tui.store.sessions import list_sessions, resolve_session
from muse_tui.store.settings import load_settings

DEEP = "[" * 1000 + "]" * 1000
LONG_NUMBER = "1" * 5000


def _session(root: Path, name: str, manifest: str) -> Path:
    folder = root / name
    (folder / "state").mkdir(parents=True)
    (folder / "manifest.json").write_text(manifest)
    return folder


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MUSE_SESSIONS_DIR", str(tmp_path / "sessions"))
    monkeypatch.setenv("MUSE_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "sessions"


def test_a_manifest_nested_1000_deep_hides_no_other_session(root: Path) -> None:
    _session(root, "session-20261122-aaaaaa", DEEP)
    _session(root, "session-20261122-bbbbbb", '{"n": ' + LONG_NUMBER + "}")
    _session(root, "session-20261122-cccccc", json.dumps({"genre": "trap", "tempo": 140}))
    listed = {s.session_id: s for s in list_sessions(root)}
    assert len(listed) == 3
    assert listed["session-20261122-cccccc"].genre == "trap"
    done = CliRunner().invoke(main, ["sessions", "list"])
    assert done.exit_code == 0 and "session-20261122-cccccc" in done.output
    shown = CliRunner().invoke(main, ["sessions", "show", "session-20261122-aaaaaa"])
    assert shown.exception is None or isinstance(shown.exception, SystemExit), shown.exception
    assert "cannot be read" in shown.output


def test_a_copied_session_is_an_id_and_is_listed(root: Path) -> None:
    _session(root, "session-20261122-cccccc-copy1", json.dumps({"genre": "trap"}))
    assert [s.session_id for s in list_sessions(root)] == ["session-20261122-cccccc-copy1"]
    assert resolve_session("session-20261122-cccccc-copy1", root).name.endswith("-copy1")


def test_a_5000_digit_number_in_the_checkpoint_is_one_sentence(tmp_path: Path) -> None:
    path = pipeline_path(tmp_path)
    path.parent.mkdir()
    path.write_text('{"version": "1.0", "x": ' + LONG_NUMBER + "}")
    with pytest.raises(CheckpointError, match="a number too long to read"):
        load_checkpoint(tmp_path)


@pytest.mark.parametrize(
    "content", [f"midi_port = {LONG_NUMBER}\n", f"x = {DEEP}\n"], ids=["digits", "deep"]
)
def test_a_settings_file_past_the_limits_falls_back_with_a_notice(
    tmp_path: Path, content: str
) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(content)
    settings, notices = load_settings(path)
    assert settings.midi_port is None
    assert len(notices) == 1 and "using the default settings" in notices[0]
    assert "set_int_max_str_digits" not in notices[0]


@pytest.mark.parametrize(
    "damage", [b"\xff\xfe{", LONG_NUMBER.encode(), DEEP.encode()], ids=["bytes", "digits", "deep"]
)
def test_a_damaged_edit_words_file_is_a_skill_file_error(tmp_path: Path, damage: bytes) -> None:
    path = tmp_path / EDIT_WORDS_FILE
    path.parent.mkdir()
    path.write_bytes(damage)
    with pytest.raises(SkillFileError, match=r"edit-words\.json"):
        load_table(EDIT_WORDS_FILE, EditWords, tmp_path)
