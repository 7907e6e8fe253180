"""User settings: a TOML file in the platform config folder, forgiving on read.

A bad or unknown key never stops the studio: that key falls back to its
default and `load_settings` returns a notice naming the file and the key.
Saving keeps keys a newer muse-studio wrote, and never writes over a file
that cannot be read (the producer's file stays; this run uses the defaults).
`MUSE_CONFIG_DIR` points at another folder (tests, portable installs).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import platformdirs
import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from muse_tui.contracts.vocabulary import TrackRole
from muse_tui.store.atomic import WriteFailed, write_atomic

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

    @field_validator("approval_gates")
    @classmethod
    def _stages(cls, gates: list[int]) -> list[int]:
        if any(not 1 <= g <= 8 for g in gates):
            raise ValueError("stages are numbered 1 to 8")
        return gates


class SettingsUnreadable(WriteFailed):
    """The settings file exists but cannot be read, so it is not written over."""


class SettingsInvalid(ValueError):
    """A setting was given a value it cannot take; the message names the key."""


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
    """Write the settings atomically (temp file, fsync, rename); returns the file written.

    Keys this version does not know (a newer muse-studio's) are kept. Raises
    SettingsUnreadable, writing nothing, when the file there cannot be read.
    """
    path = settings_path() if path is None else path
    kept = {k: v for k, v in _on_disk(path).items() if k not in Settings.model_fields}
    data = settings.model_dump(mode="json", exclude_none=True)  # TOML has no null
    write_atomic(path, tomli_w.dumps({**data, **kept}))
    return path


def update_settings(path: Path | None = None, **changes: Any) -> Settings:
    """Load, change some keys, save: the way to remember one choice (a MIDI port, a theme).

    Raises SettingsInvalid (naming the key) for a value a setting cannot take,
    and SettingsUnreadable when the file cannot be read (it is left as it is).
    """
    settings, _ = load_settings(path)
    try:
        updated = Settings.model_validate({**settings.model_dump(), **changes})
    except ValidationError as exc:
        error = exc.errors()[0]
        key = str(error["loc"][0]) if error["loc"] else "?"
        raise SettingsInvalid(
            f"{key} = {changes.get(key)!r} is not a valid setting ({error['msg']})."
        ) from None
    save_settings(updated, path)
    return updated


def _on_disk(path: Path) -> dict[str, Any]:
    """What the settings file holds now ({} if there is none); SettingsUnreadable if unreadable."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SettingsUnreadable(
            f"{path} cannot be read ({exc}), so it was left as it is and nothing was saved; "
            "fix or remove it to save settings again"
        ) from None
