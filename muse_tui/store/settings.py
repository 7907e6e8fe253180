"""User settings: a TOML file in the platform config folder, forgiving on read.

A bad or unknown key never stops the studio: that key falls back to its
default and `load_settings` returns a notice naming the file and the key.
`MUSE_CONFIG_DIR` points at another folder (tests, portable installs).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import platformdirs
import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from muse_tui.contracts.song import TrackRole
from muse_tui.store.atomic import write_atomic

APP_NAME = "muse-studio"
CONFIG_DIR_ENV = "MUSE_CONFIG_DIR"
SETTINGS_FILE = "settings.toml"

DEFAULT_TRACKS: list[TrackRole] = ["drums", "bass", "chords", "lead", "pad"]


class Settings(BaseModel):
    """What the producer chose once and wants remembered."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    midi_port: str | None = Field(default=None, description="Output to audition through")
    theme: str = "muse-dark"
    sessions_dir: str | None = Field(default=None, description="Where sessions are written")
    approval_gates: list[int] = Field(default_factory=lambda: [2])
    default_bars: int = Field(default=64, ge=8, le=512)
    default_tracks: list[TrackRole] = Field(default_factory=lambda: list(DEFAULT_TRACKS))
    keymap: dict[str, str] = Field(default_factory=dict, description="binding id → keys")


def config_dir() -> Path:
    override = os.environ.get(CONFIG_DIR_ENV)
    return Path(override) if override else Path(platformdirs.user_config_dir(APP_NAME))


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILE


def load_settings(path: Path | None = None) -> tuple[Settings, list[str]]:
    """The user's settings and a notice per key that was ignored; never raises for bad content."""
    path = settings_path() if path is None else path
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings(), []
    except (OSError, UnicodeDecodeError) as exc:
        return Settings(), [f"{path} could not be read ({exc}); using the default settings."]
    except tomllib.TOMLDecodeError as exc:
        return Settings(), [f"{path} is not valid TOML ({exc}); using the default settings."]
    return _validated(raw, path)


def _validated(raw: dict[str, Any], path: Path) -> tuple[Settings, list[str]]:
    notices: list[str] = []
    known = {k: v for k, v in raw.items() if k in Settings.model_fields}
    for key in raw.keys() - known.keys():
        notices.append(f"{path}: unknown setting {key!r} ignored (known: {_known_keys()}).")
    try:
        return Settings.model_validate(known), notices
    except ValidationError as exc:
        bad: dict[str, str] = {}
        for error in exc.errors():
            key = str(error["loc"][0])
            bad.setdefault(key, error["msg"])
    for key, why in bad.items():
        default = Settings.model_fields[key].get_default(call_default_factory=True)
        notices.append(f"{path}: {key} = {known[key]!r} is invalid ({why}); using {default!r}.")
    good = {k: v for k, v in known.items() if k not in bad}
    return Settings.model_validate(good), notices


def _known_keys() -> str:
    return ", ".join(Settings.model_fields)


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically (temp file, fsync, rename); returns the file written."""
    path = settings_path() if path is None else path
    data = settings.model_dump(mode="json", exclude_none=True)  # TOML has no null
    write_atomic(path, tomli_w.dumps(data))
    return path


def update_settings(path: Path | None = None, **changes: Any) -> Settings:
    """Load, change some keys, save: the way to remember one choice (a MIDI port, a theme)."""
    settings, _ = load_settings(path)
    updated = Settings.model_validate({**settings.model_dump(), **changes})
    save_settings(updated, path)
    return updated
