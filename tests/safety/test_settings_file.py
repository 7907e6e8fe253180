"""Settings: an unreadable file is kept, newer keys survive, bad values are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from muse_tui.audition.port_choice import remember_port
from muse_tui.store.settings import (
    Settings,
    SettingsInvalid,
    SettingsUnreadable,
    load_settings,
    save_settings,
    update_settings,
)


@pytest.fixture
def config_dir(config_dir: Path) -> Path:
    """The shared settings folder, made: these tests write the file by hand."""
    config_dir.mkdir()
    return config_dir


@pytest.mark.parametrize(
    "content",
    [b'sessions_dir = "/music/sessions"\nkeymap = {quit = "ctrl+q"\n', b"theme = '\xff\xfe'\n"],
    ids=["not-toml", "not-utf8"],
)
def test_an_unreadable_file_is_kept_and_the_run_uses_the_defaults(
    config_dir: Path, content: bytes
) -> None:
    path = config_dir / "settings.toml"
    path.write_bytes(content)
    settings, notices = load_settings()
    assert settings == Settings() and len(notices) == 1
    with pytest.raises(SettingsUnreadable, match="left as it is"):
        update_settings(midi_port="IAC Bus 1")
    with pytest.raises(SettingsUnreadable):
        save_settings(Settings(theme="paper"))
    notice = remember_port("IAC Bus 1")  # what `play --port` does
    assert notice is not None and "this run only" in notice
    assert path.read_bytes() == content, "the producer's file was written over"


def test_keys_from_a_newer_muse_studio_survive_a_save(config_dir: Path) -> None:
    path = config_dir / "settings.toml"
    path.write_text('theme = "paper"\nlyric_language = "fr"\n[cloud]\nsync = true\n')
    settings, notices = load_settings()
    assert settings.theme == "paper" and notices  # the unknown keys are mentioned
    update_settings(midi_port="IAC Bus 1")
    text = path.read_text()
    assert 'lyric_language = "fr"' in text and "[cloud]" in text and "sync = true" in text
    assert load_settings()[0].midi_port == "IAC Bus 1"


def test_approval_gates_outside_1_to_8_are_refused_naming_the_key(config_dir: Path) -> None:
    (config_dir / "settings.toml").write_text("approval_gates = [99, -1]\n")
    settings, notices = load_settings()
    assert settings.approval_gates == [2]
    assert len(notices) == 1 and "approval_gates" in notices[0] and "1 to 8" in notices[0]
    with pytest.raises(SettingsInvalid, match="approval_gates"):
        update_settings(approval_gates=[0, 9])
