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
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import platformdirs

from muse_tui.contracts.vocabulary import TRACK_ROLES, TrackRole
from muse_tui.store.atomic import WriteFailed, write_atomic

APP_NAME = "muse-studio"
CONFIG_DIR_ENV = "MUSE_CONFIG_DIR"
SETTINGS_FILE = "settings.toml"

DEFAULT_TRACKS: list[TrackRole] = ["drums", "bass", "chords", "lead", "pad"]
#: The shortest and longest default song, in bars (as `compose.intent.SONG_BARS`).
BARS_RANGE = (8, 512)


class SettingsInvalid(ValueError):
    """A setting was given a value it cannot take; the message names the key."""

    def __init__(self, key: str, value: object, why: str) -> None:
        super().__init__(f"{key} = {value!r} is not a valid setting ({why}).")
        self.key = key
        self.why = why


@dataclass(frozen=True)
class Settings:
    """What the producer chose once and wants remembered.

    A plain dataclass checked by hand, not a pydantic model: the studio reads it
    before its first frame, and pydantic would be a third of that wait. A value
    a key cannot take raises SettingsInvalid naming the key; change one with
    `dataclasses.replace`, which checks again.
    """

    midi_port: str | None = None  # the output to audition through; None: the virtual port
    theme: str = "muse-dark"
    sessions_dir: str | None = None  # where sessions are written; None: ./sessions
    approval_gates: list[int] = field(default_factory=lambda: [2])
    default_bars: int = 64
    default_tracks: list[TrackRole] = field(default_factory=lambda: list(DEFAULT_TRACKS))
    keymap: dict[str, str] = field(default_factory=dict)  # binding id → keys
    last_session: str | None = None  # the session folder the studio last showed: it reopens
    drum_map: str = "mpc"  # the pad layout of the MPC drum patterns (skills/mpc/pads.json)

    def __post_init__(self) -> None:
        for key in SETTING_KEYS:
            value = getattr(self, key)
            why = _CHECKS[key](value)
            if why:
                raise SettingsInvalid(key, value, why)


def _optional_text(value: object) -> str | None:
    return None if value is None or isinstance(value, str) else "must be text"


def _text(value: object) -> str | None:
    return None if isinstance(value, str) else "must be text"


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _stages(value: object) -> str | None:
    if not isinstance(value, list) or not all(_whole(g) for g in value):
        return "must be a list of stage numbers"
    return None if all(1 <= g <= 8 for g in value) else "stages are numbered 1 to 8"


def _bars(value: object) -> str | None:
    low, high = BARS_RANGE
    if _whole(value) and low <= value <= high:  # type: ignore[operator]
        return None
    return f"must be a whole number of bars from {low} to {high}"


def _roles(value: object) -> str | None:
    if not isinstance(value, list) or not all(isinstance(r, str) for r in value):
        return "must be a list of track roles"
    unknown = [r for r in value if r not in TRACK_ROLES]
    return f"{unknown[0]!r} is not one of {', '.join(TRACK_ROLES)}" if unknown else None


def _keymap(value: object) -> str | None:
    if isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        return None
    return 'must map binding ids to keys, e.g. "audition.play" = "p"'


#: The pad layouts `skills/mpc/pads.json` describes (named here: settings load before any
#: skill table, on the studio's way to its first frame).
DRUM_MAPS = ("mpc", "chromatic", "gm")


def _drum_map(value: object) -> str | None:
    return None if value in DRUM_MAPS else "one of " + ", ".join(DRUM_MAPS)


#: Each key's check: None when the value will do, else what the key takes.
_CHECKS: dict[str, Callable[[object], str | None]] = {
    "midi_port": _optional_text,
    "theme": _text,
    "sessions_dir": _optional_text,
    "approval_gates": _stages,
    "default_bars": _bars,
    "default_tracks": _roles,
    "keymap": _keymap,
    "last_session": _optional_text,
    "drum_map": _drum_map,
}
SETTING_KEYS = tuple(f.name for f in fields(Settings))
DEFAULTS = Settings()


class SettingsUnreadable(WriteFailed):
    """The settings file exists but cannot be read, so it is not written over."""


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
    except (ValueError, RecursionError) as exc:  # a number past the digit limit, deep nesting
        return Settings(), [f"{path} is not valid TOML ({_why(exc)}); using the default settings."]
    return _validated(raw, path)


def _why(exc: BaseException) -> str:
    """Why the file could not be read, in a few words (not Python's advice on its limits)."""
    if isinstance(exc, RecursionError):
        return "nested too deep"
    if isinstance(exc, ValueError) and "digits" in str(exc):
        return "a number too long to read"
    return str(exc)


def _validated(raw: dict[str, Any], path: Path) -> tuple[Settings, list[str]]:
    notices: list[str] = []
    for key in raw.keys() - set(SETTING_KEYS):
        notices.append(f"{path}: unknown setting {key!r} ignored (known: {_known_keys()}).")
    good: dict[str, Any] = {}
    for key in SETTING_KEYS:
        if key not in raw:
            continue
        why = _CHECKS[key](raw[key])
        if why is None:
            good[key] = raw[key]
        else:
            default = getattr(DEFAULTS, key)
            notices.append(f"{path}: {key} = {raw[key]!r} is invalid ({why}); using {default!r}.")
    return Settings(**good), notices


def _known_keys() -> str:
    return ", ".join(SETTING_KEYS)


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically (temp file, fsync, rename); returns the file written.

    Keys this version does not know (a newer muse-studio's) are kept. Raises
    SettingsUnreadable, writing nothing, when the file there cannot be read.
    """
    import tomli_w  # only to save

    path = settings_path() if path is None else path
    kept = {k: v for k, v in _on_disk(path).items() if k not in SETTING_KEYS}
    data = {k: v for k, v in asdict(settings).items() if v is not None}  # TOML has no null
    write_atomic(path, tomli_w.dumps({**data, **kept}))
    return path


def update_settings(path: Path | None = None, **changes: Any) -> Settings:
    """Load, change some keys, save: the way to remember one choice (a MIDI port, a theme).

    Raises SettingsInvalid (naming the key) for a value a setting cannot take,
    and SettingsUnreadable when the file cannot be read (it is left as it is).
    """
    settings, _ = load_settings(path)
    unknown = sorted(changes.keys() - set(SETTING_KEYS))
    if unknown:
        key = unknown[0]
        raise SettingsInvalid(key, changes[key], f"no such setting; known: {_known_keys()}")
    updated = replace(settings, **changes)
    save_settings(updated, path)
    return updated


def _on_disk(path: Path) -> dict[str, Any]:
    """What the settings file holds now ({} if there is none); SettingsUnreadable if unreadable."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, RecursionError) as exc:  # TOMLDecodeError is a ValueError
        raise SettingsUnreadable(
            f"{path} cannot be read ({_why(exc)}), so it was left as it is and nothing was saved; "
            "fix or remove it to save settings again"
        ) from None
