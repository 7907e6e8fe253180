"""What every dialog over the studio shares: a box of title, summary and body.

Its rules load with the first dialog, not with the studio's stylesheet, which
every start parses before the first frame (~0.1 ms a rule).
"""

from __future__ import annotations

from textual.screen import ModalScreen, ScreenResultType


class Dialog(ModalScreen[ScreenResultType]):
    """A modal screen whose `.dialog` box holds a `.title`, a `.summary` and a `.body`."""

    DEFAULT_CSS = """
    Dialog .dialog {
        width: 90%;
        max-width: 100;
        height: auto;
        max-height: 90%;
        border: thick $primary;
        background: $surface;
        padding: 0 1;
    }
    Dialog .title { text-style: bold; color: $primary; padding: 0 0 1 0; }
    Dialog .summary { padding: 0 0 1 0; }
    Dialog .body { height: auto; max-height: 24; }
    """
