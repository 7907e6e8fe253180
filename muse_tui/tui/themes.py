"""Theme files: TOML in `themes/` (shipped) and the producer's own, read into Textual themes.

A broken file never takes the studio down: it is reported by name and the
last good version of that theme (or the built-in fallback) stays in use.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path

from textual.color import Color, ColorParseError
from textual.theme import Theme

FALLBACK_THEME = "textual-dark"
COLOURS = (
    "primary", "secondary", "warning", "error", "success", "accent",
    "foreground", "background", "surface", "panel", "boost",
)  # fmt: skip
OTHER_KEYS = {"name", "dark", "variables", "luminosity_spread", "text_alpha"}

#: Colours the studio's own widgets use; a theme may set them under [variables].
#: Unset, each is a theme colour (with an opacity), e.g. the notes are the accent.
STUDIO_VARIABLES: dict[str, tuple[str, int | None]] = {
    "roll-white-key": ("surface", None),
    "roll-black-key": ("background", None),
    "roll-note": ("accent", None),
    "roll-beat": ("foreground", 12),
    "roll-bar": ("foreground", 30),
    "section-a": ("primary", 45),
    "section-b": ("secondary", 45),
    "playhead": ("warning", None),
    "pane-border": ("panel-lighten-2", None),
}


def studio_variable_defaults(colours: dict[str, str]) -> dict[str, str]:
    """The studio's variables for a theme that does not set them itself, from its colours.

    `colours` is the theme's generated colour system (`theme.to_color_system().generate()`).
    """
    return {
        name: colours[base] if alpha is None else f"{colours[base]} {alpha}%"
        for name, (base, alpha) in STUDIO_VARIABLES.items()
    }


class ThemeFileError(Exception):
    """A theme file that cannot be used; the message names the file and what to fix."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path.name}: {problem}")
        self.path = path


def load_theme(path: Path) -> Theme:
    """Read one theme file (raises ThemeFileError)."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ThemeFileError(path, f"cannot be read ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ThemeFileError(path, f"is not valid TOML ({exc})") from None
    unknown = sorted(set(raw) - set(COLOURS) - OTHER_KEYS)
    if unknown:
        raise ThemeFileError(
            path, f"unknown key {unknown[0]!r} (theme keys: {', '.join(COLOURS)}, dark, variables)"
        )
    if "primary" not in raw:
        raise ThemeFileError(path, 'needs at least a primary colour, e.g. primary = "#e8552d"')
    colours: dict[str, str] = {}
    for key in COLOURS:
        if key in raw:
            colours[key] = _colour(path, key, raw[key])
    variables = raw.get("variables", {})
    if not isinstance(variables, dict) or not all(isinstance(v, str) for v in variables.values()):
        raise ThemeFileError(path, "[variables] must map names to colour strings")
    return Theme(
        name=str(raw.get("name") or path.stem),
        dark=bool(raw.get("dark", True)),
        luminosity_spread=float(raw.get("luminosity_spread", 0.15)),
        text_alpha=float(raw.get("text_alpha", 0.95)),
        variables=dict(variables),
        **colours,
    )


def _colour(path: Path, key: str, value: object) -> str:
    if not isinstance(value, str):
        raise ThemeFileError(path, f'{key} must be a colour string like "#1d1f21"')
    try:
        Color.parse(value)
    except ColorParseError:
        raise ThemeFileError(path, f"{key} = {value!r} is not a colour") from None
    return value


def theme_files(folders: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for folder in folders:
        if folder.is_dir():
            files.extend(sorted(folder.glob("*.toml")))
    return files


def load_themes(folders: Iterable[Path]) -> tuple[list[Theme], list[str]]:
    """Every readable theme in the folders, and a sentence per file that was not."""
    themes: list[Theme] = []
    problems: list[str] = []
    for path in theme_files(folders):
        try:
            themes.append(load_theme(path))
        except ThemeFileError as exc:
            problems.append(f"Theme {exc} — fix the file; it is skipped until then.")
    return themes, problems
