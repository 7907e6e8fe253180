"""The settings screen: edit what `settings.toml` holds; ctrl+s saves, escape leaves."""

from __future__ import annotations

import tomllib
from typing import Any, ClassVar

import tomli_w
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, Select, SelectionList, Static, TextArea

from muse_tui.contracts import STAGE_NAMES, TRACK_ROLES
from muse_tui.store.settings import Settings, SettingsInvalid

VIRTUAL = "\0virtual"


def keymap_text(keymap: dict[str, str]) -> str:
    return tomli_w.dumps(dict(sorted(keymap.items())))


def read_keymap(text: str) -> dict[str, str]:
    """Lines of `"binding.id" = "keys"`; unquoted dotted ids are accepted too."""
    return dict(_flatten(tomllib.loads(text)))


def _flatten(table: dict[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            pairs.extend(_flatten(value, name + "."))
        else:
            pairs.append((name, str(value)))
    return pairs


class SettingsScreen(Screen[None]):
    """A form over `Settings`; invalid values are named, nothing is saved until they are fixed."""

    DEFAULT_CSS = """
    SettingsScreen .title {
        text-style: bold;
        color: $primary;
        padding: 0 1;
        background: $panel;
        width: 100%;
    }
    SettingsScreen #settings-form { padding: 1 2; }
    SettingsScreen .field { height: auto; }
    SettingsScreen .field Label { width: 18; padding: 1 1 0 0; color: $foreground-muted; }
    SettingsScreen .field Select, SettingsScreen .field Input { width: 1fr; }
    SettingsScreen .field SelectionList { width: 1fr; height: auto; max-height: 10; }
    SettingsScreen #keymap { width: 1fr; height: 6; }
    SettingsScreen .hint { color: $foreground-muted; padding: 0 0 0 18; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", id="settings.save",
                tooltip="Save the settings and use them now"),
        Binding("escape", "back", "Back", id="settings.back",
                tooltip="Back to the studio without saving"),
    ]  # fmt: skip

    class Saved(Message):
        def __init__(self, settings: Settings) -> None:
            super().__init__()
            self.settings = settings

    def __init__(
        self, settings: Settings, *, themes: list[str], ports: list[str], path: str
    ) -> None:
        super().__init__(classes="settings")
        self.settings = settings
        self.themes = themes
        self.ports = ports
        self.path = path

    def compose(self) -> ComposeResult:
        s = self.settings
        yield Static(f"Settings — {self.path}", classes="title")
        with VerticalScroll(id="settings-form"):
            ports = [("muse-studio (virtual port)", VIRTUAL)] + [(p, p) for p in self.ports]
            if s.midi_port and s.midi_port not in self.ports:
                ports.append((f"{s.midi_port} (not connected)", s.midi_port))
            yield from self._row(
                "MIDI output",
                Select(ports, value=s.midi_port or VIRTUAL, allow_blank=False, id="midi_port"),
            )
            themes = [(t, t) for t in self.themes]
            theme = s.theme if s.theme in self.themes else self.themes[0]
            yield from self._row(
                "Theme", Select(themes, value=theme, allow_blank=False, id="theme")
            )
            yield from self._row(
                "Sessions folder",
                Input(s.sessions_dir or "", id="sessions_dir", placeholder="./sessions"),
            )
            yield from self._row(
                "Default bars", Input(str(s.default_bars), id="default_bars", type="integer")
            )
            gates = SelectionList[int](
                *[(f"{n} {name}", n, n in s.approval_gates) for n, name in STAGE_NAMES.items()],
                id="approval_gates",
            )
            yield from self._row("Approval gates", gates)
            tracks = SelectionList[str](
                *[(role, role, role in s.default_tracks) for role in TRACK_ROLES],
                id="default_tracks",
            )
            yield from self._row("Default tracks", tracks)
            keymap = TextArea(keymap_text(s.keymap), id="keymap", language=None)
            yield from self._row("Keymap", keymap)
            yield Static(
                'One line per key change: "binding.id" = "keys" (press ? for the ids). '
                'Keys are like ctrl+e, f5, space; several: "f5,ctrl+e".',
                classes="hint",
            )
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#midi_port").focus()

    def _row(self, label: str, field: Any) -> ComposeResult:
        with Horizontal(classes="field"):
            yield Label(label)
            yield field

    def action_back(self) -> None:
        self.dismiss()

    def action_save(self) -> None:
        try:
            settings = self._read()
        except ValueError as exc:
            self.notify(_why(exc), title="Not saved", severity="error", timeout=8)
            return
        self.post_message(self.Saved(settings))
        self.dismiss()

    def _read(self) -> Settings:
        port = self.query_one("#midi_port", Select).value
        bars = self.query_one("#default_bars", Input).value.strip()
        folder = self.query_one("#sessions_dir", Input).value.strip()
        try:
            keymap = read_keymap(self.query_one("#keymap", TextArea).text)
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(
                f'keymap: {exc}; write lines like "roll.zoom_in" = "ctrl+up".'
            ) from None
        if not bars.isdigit():
            raise ValueError("default bars: give a whole number of bars, from 8 to 512.")
        return Settings(
            midi_port=None if port == VIRTUAL else str(port),
            theme=str(self.query_one("#theme", Select).value),
            sessions_dir=folder or None,
            approval_gates=sorted(self.query_one("#approval_gates", SelectionList).selected),
            default_bars=int(bars),
            default_tracks=list(self.query_one("#default_tracks", SelectionList).selected),
            keymap=keymap,
            last_session=self.settings.last_session,  # not a choice made here: kept
        )


def _why(exc: ValueError) -> str:
    if isinstance(exc, SettingsInvalid):
        return f"{exc.key.replace('_', ' ')}: {exc.why}. Fix it and press ctrl+s again."
    return str(exc)
