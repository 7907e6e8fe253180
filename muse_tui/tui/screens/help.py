"""The help screen: every key, where it works, and its binding id for the keymap."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Footer, Static

from .dialog import Dialog

INTRO = (
    "Type a prompt and press [b]enter[/] to compose. With a song open, say what to change "
    "(“bass simpler”, “3rd chord darker”, “undo”) or start with “new song:”. "
    "[b]ctrl+n[/] breaks the line "
    "(shift+enter too, where the terminal tells it apart from enter); up and down bring "
    "back earlier prompts. [b]escape[/] or [b]tab[/] leaves the prompt so the studio keys "
    "work. Change any key in settings.toml under [b]keymap[/] with the ids below."
)


def binding_keys(binding: Binding, keymap: Mapping[str, str]) -> list[str]:
    """The keys a binding answers to now: the keymap's, else its own."""
    keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
    return [k.strip() for k in keys.split(",") if k.strip()]


class HelpScreen(Dialog[None]):
    """Keys by area, as the keymap has them now."""

    DEFAULT_CSS = """
    HelpScreen .dialog { height: 90%; }
    HelpScreen .body { max-height: 100%; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1", "close", "Close", id="help.close",
                tooltip="Back to where you were"),
    ]  # fmt: skip

    def __init__(
        self, areas: Iterable[tuple[str, Iterable[Binding]]], keymap: Mapping[str, str]
    ) -> None:
        super().__init__(classes="help")
        self.areas = list(areas)
        self.keymap = keymap

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("muse-studio keys", classes="title")
            with VerticalScroll(classes="body"):
                yield Static(INTRO, classes="summary")
                yield Static(self._table())
        yield Footer(compact=True)

    def _table(self) -> Table:
        table = Table(box=None, expand=True, padding=(0, 1), show_edge=False)
        table.add_column("keys", no_wrap=True, style="bold", max_width=16)
        table.add_column("does", ratio=1)
        table.add_column("id", no_wrap=True, style="dim")
        for area, bindings in self.areas:
            table.add_row(Text(area, style="underline"), "", "")
            seen: set[str | None] = set()
            for binding in bindings:
                if binding.id in seen:
                    continue
                seen.add(binding.id)
                keys = ", ".join(
                    self.app.get_key_display(Binding(k, ""))
                    for k in binding_keys(binding, self.keymap)
                )
                table.add_row(keys, binding.tooltip or binding.description, binding.id or "")
            table.add_row("", "", "")
        return table

    def action_close(self) -> None:
        self.dismiss()
