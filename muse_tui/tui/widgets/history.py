"""The history pane: every change asked for, newest first, with what it regenerated.

Undone changes stay in the list, dimmed, until a new change replaces them. The
pane asks for undo and redo with messages; the app runs them through the engine
and calls `show` with the song's new history.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..session import OpenSong, follow_open_song

if TYPE_CHECKING:
    from muse_tui.contracts import HistoryEntry

COST_MARKS = {"cheap": "·", "moderate": "••", "expensive": "•••"}


def entry_line(entry: HistoryEntry, width: int = 60) -> Text:
    """'↶ 21:04  “3rd chord darker” → progression, bass, keys  ••'."""
    mark = "↶" if entry.undone else "✓"
    when = entry.timestamp[11:16] if len(entry.timestamp) >= 16 else entry.timestamp
    parts = [c for c in entry.regenerated if ":" not in c]
    sounds = [c.split(":", 1)[1] for c in entry.regenerated if ":" in c]
    what = ", ".join(parts) or (f"sound of {', '.join(dict.fromkeys(sounds))}" if sounds else "")
    said = entry.user_text if len(entry.user_text) <= width else entry.user_text[: width - 1] + "…"
    line = Text.assemble(
        (f"{mark} ", "bold"),
        (f"{when}  ", "dim"),
        (f"“{said}”", "italic"),
        (f" → {what}" if what else "", ""),
        (f"  {COST_MARKS.get(entry.cost, '')}", "dim"),
    )
    if entry.undone:
        line.stylize("dim strike")
    return line


class HistoryPane(OptionList):
    """The song's history, newest first; u undoes the latest change, r redoes."""

    DEFAULT_CSS = """
    HistoryPane { height: auto; max-height: 12; border: round $panel; }
    HistoryPane:focus { border: round $accent; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "undo", "Undo", id="history.undo", tooltip="Undo the latest change"),
        Binding("r", "redo", "Redo", id="history.redo", tooltip="Redo the latest undone change"),
    ]

    class UndoRequested(Message):
        """Undo the last `steps` changes."""

        def __init__(self, steps: int = 1) -> None:
            super().__init__()
            self.steps = steps

    class RedoRequested(Message):
        """Redo the last `steps` undone changes."""

        def __init__(self, steps: int = 1) -> None:
            super().__init__()
            self.steps = steps

    def __init__(self, history: Sequence[HistoryEntry] = (), **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.border_title = "History"
        self.entries: list[HistoryEntry] = []
        self.show(history)

    def on_mount(self) -> None:
        follow_open_song(self, self._open_song)

    def _open_song(self, old: OpenSong | None, new: OpenSong | None) -> None:
        if new is not None:
            self.display = new.editable
            self.show(new.history)

    def show(self, history: Sequence[HistoryEntry]) -> None:
        """List these entries, newest first."""
        self.entries = list(reversed(history))
        self.clear_options()
        if not self.entries:
            self.add_option(
                Option(Text("No changes yet: type one in the prompt box.", "dim"), disabled=True)
            )
            return
        self.add_options(Option(entry_line(e), id=e.id) for e in self.entries)

    def action_undo(self) -> None:
        if not any(not e.undone for e in self.entries):
            self.app.bell()
            return
        self.post_message(self.UndoRequested())

    def action_redo(self) -> None:
        if not self.entries or not self.entries[0].undone:
            self.app.bell()
            return
        self.post_message(self.RedoRequested())
