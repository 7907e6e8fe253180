"""The base style of a widget drawn line by line, worked out once per repaint."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.style import Style
    from textual.geometry import Region
    from textual.strip import Strip


class StyledOncePerRepaint:
    """A widget mixin: `rich_style` holds still while the widget draws its lines.

    Textual works the style out afresh on every call, walking every ancestor's
    styles, and a widget drawn line by line (the line API, RichLog) asks for it on
    every line: the empty roll and notes spent ~3 ms of the first frame on it.
    Put it before the widget class: `class PianoRoll(StyledOncePerRepaint, ScrollView)`.
    """

    _repaint_style: Style | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        self._repaint_style = super().rich_style  # type: ignore[misc]
        try:
            return super().render_lines(crop)  # type: ignore[misc]
        finally:
            self._repaint_style = None

    @property
    def rich_style(self) -> Style:
        if self._repaint_style is not None:
            return self._repaint_style
        return super().rich_style  # type: ignore[misc]
