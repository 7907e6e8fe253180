"""User settings: TOML in the config folder, forgiving of bad keys, written atomically."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from muse_tui.store.settings import (
    Settings,
    load_settings,
    save_settings,
    settings_path,
    update_settings,
)


def test_no_file_means_the_defaults_and_no_notices(config_dir: Path) -> None:
    settings, notices = load_settings()
    assert settings == Settings()
    assert notices == []
    assert settings.approval_gates == [2] and settings.default_bars == 64
    assert settings.theme == "muse-dark" and settings.midi_port is None
    assert settings_path() == config_dir / "settings.toml"


def test_settings_survive_a_save_and_a_load(config_dir: Path) -> None:
    chosen = Settings(
        midi_port="IAC Driver Bus 1",
        sessions_dir="/music/sessions",
        approval_gates=[2, 4],
        default_bars=32,
        default_tracks=["drums", "bass"],
        keymap={"play": "space", "panic": "ctrl+."},
    )
    path = save_settings(chosen)
    assert path == config_dir / "settings.toml"
    assert load_settings() == (chosen, [])
    assert 'midi_port = "IAC Driver Bus 1"' in path.read_text()
    assert list(config_dir.iterdir()) == [path], "no temp file left behind"


def test_a_bad_value_falls_back_for_that_key_only(config_dir: Path) -> None:
    config_dir.mkdir()
    (config_dir / "settings.toml").write_text(
        'theme = "neon"\ndefault_bars = "lots"\ndefault_tracks = ["drums", "kazoo"]\n'
    )
    settings, notices = load_settings()
    assert settings.theme == "neon"
    assert settings.default_bars == 64
    assert settings.default_tracks == Settings().default_tracks
    assert len(notices) == 2
    assert any("default_bars = 'lots' is invalid" in n and "using 64" in n for n in notices)
    assert any(n.startswith(str(config_dir / "settings.toml")) for n in notices)


def test_an_unknown_key_is_ignored_with_a_notice(config_dir: Path) -> None:
    config_dir.mkdir()
    (config_dir / "settings.toml").write_text('midi_prot = "IAC"\nmidi_port = "IAC"\n')
    settings, notices = load_settings()
    assert settings.midi_port == "IAC"
    assert len(notices) == 1 and "unknown setting 'midi_prot' ignored" in notices[0]


def test_a_broken_file_gives_the_defaults_and_says_so(config_dir: Path) -> None:
    config_dir.mkdir()
    (config_dir / "settings.toml").write_text("theme = \n[[[")
    settings, notices = load_settings()
    assert settings == Settings()
    assert len(notices) == 1 and "is not valid TOML" in notices[0]


def test_remembering_one_choice_keeps_the_others(config_dir: Path) -> None:
    save_settings(Settings(theme="paper", default_bars=96))
    update_settings(midi_port="loopMIDI Port")
    settings, _ = load_settings()
    assert (settings.theme, settings.default_bars, settings.midi_port) == (
        "paper",
        96,
        "loopMIDI Port",
    )
    update_settings(midi_port=None)
    assert load_settings()[0].midi_port is None
    assert "midi_port" not in (config_dir / "settings.toml").read_text()


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores permissions")
def test_an_unreadable_file_is_a_notice_not_a_crash(config_dir: Path) -> None:
    config_dir.mkdir()
    path = config_dir / "settings.toml"
    path.write_text('theme = "x"\n')
    path.chmod(0)
    settings, notices = load_settings()
    assert settings == Settings() and "could not be read" in notices[0]
