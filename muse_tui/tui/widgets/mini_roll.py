"""A thumbnail piano roll for the parts gate: a whole track squeezed into a few lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget

from .labels import role_label

if TYPE_CHECKING:
    from muse_tui.contracts import Track

LABEL = 9
LEVELS = " ░▒▓█"


class MiniRoll(Widget, can_focus=False):
    """Rows are pitch bands (high at the top), columns are slices of time; darker is louder."""

    DEFAULT_CSS = "MiniRoll { height: 4; }"
    COMPONENT_CLASSES: ClassVar[set[str]] = {"mini-roll--label", "mini-roll--note"}

    def __init__(self, track: Track, total_beats: float, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.track = track
        notes = track.notes
        self._notes = [(n.start_beat, n.end_beat, n.pitch, n.velocity) for n in notes]
        self._total = max(total_beats, max((n.end_beat for n in notes), default=1.0))
        self._low = min((n.pitch for n in notes), default=60)
        self._high = max((n.pitch for n in notes), default=60)
        self._grid: list[list[int]] | None = None
        self._grid_size = Size(0, 0)

    def _cells(self, width: int, height: int) -> list[list[int]]:
        if self._grid is None or self._grid_size != Size(width, height):
            grid = [[0] * width for _ in range(height)]
            span = max(self._high - self._low + 1, 1)
            for start, end, pitch, velocity in self._notes:
                row = height - 1 - int((pitch - self._low) * height / span)
                first = int(start * width / self._total)
                last = max(first + 1, int(end * width / self._total))
                level = 1 + min(velocity // 32, 3)
                for col in range(first, min(last, width)):
                    grid[row][col] = max(grid[row][col], level)
            self._grid, self._grid_size = grid, Size(width, height)
        return self._grid

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        grid_width = max(width - LABEL, 1)
        grid = self._cells(grid_width, self.size.height)
        label_style = self.rich_style + self.get_component_rich_style("mini-roll--label")
        label = ""
        if y == 0:
            label = role_label(self.track.role, LABEL - 1)
        elif y == 1:
            label = f"{len(self._notes)} notes"
        note = self.rich_style + self.get_component_rich_style("mini-roll--note")
        text = "".join(LEVELS[level] for level in grid[y]) if y < len(grid) else ""
        segments = [Segment(label[: LABEL - 1].ljust(LABEL), label_style), Segment(text, note)]
        return Strip(segments, width).crop_extend(0, width, self.rich_style)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 4
