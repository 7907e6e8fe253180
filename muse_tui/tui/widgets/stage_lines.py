"""The stage tracker's lines, laid out as a rich grid lays them out, without rich measuring it.

The tracker shows the run's line, a row per stage (icon, stage, what it did or is
doing, how long it took) and a closing message. A rich `Table.grid` laid them
out, measuring every cell twice to do it: most of the tracker's drawing, in the
first frame and at every tick of a run (10 a second). `StageLines` writes the
grid's very segments itself; where the columns would not fit the width, or a
cell holds more than one line, it is the grid again (`StageLines.grid`).
`tests/ui/test_stage_lines.py` holds the two to the same output.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.table import Table

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.text import Text

#: A stage's row: its icon, "3 Arrangement", the detail, the duration.
Row = tuple["Text", "Text", "Text", "Text"]

STAGE = 13  # the stage column's width: "3 Arrangement"
#: The cells left of the detail: the icon, a space, the stage, a space (and a space after it).
FIXED = 1 + 1 + STAGE + 1
GAP = Segment(" ", Style.null())


class StageLines:
    """The header, the stage rows and the message, as `grid()` would draw them."""

    def __init__(self, header: Text, rows: list[Row], message: Text | None) -> None:
        self.header, self.rows, self.message = header, rows, message

    def grid(self) -> Table:
        """The same lines as rich tables: the layout `StageLines` draws, and its fallback."""
        table = Table.grid(expand=True, padding=(0, 1))
        table.add_column(width=1)
        table.add_column(no_wrap=True, width=STAGE)
        table.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        table.add_column(no_wrap=True, justify="right")
        for row in self.rows:
            table.add_row(*row)
        grid = Table.grid(expand=True)
        grid.add_row(self.header)
        grid.add_row(table)
        if self.message is not None:
            grid.add_row(self.message)
        return grid

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        durations = max((cell_len(row[3].plain) for row in self.rows), default=0)
        fits = width - FIXED - durations >= 2  # the detail's cell and its space, at least
        if not fits or not all(_one_line(cell) for row in self.rows for cell in row):
            yield self.grid()
            return
        # The grid's one column renders the header and the message with these options.
        column = options.update(
            width=width, justify="left", no_wrap=False, overflow="ellipsis",
            height=None, highlight=False,
        )  # fmt: skip
        new_line = Segment.line()
        for line in console.render_lines(self.header, column):
            yield from line
            yield new_line
        if durations:  # the detail takes what the duration leaves
            detail = width - FIXED - 1 - durations
            rest = 0
        else:  # the durations' column is no wider than nothing; the details' no wider than theirs
            longest = max((cell_len(row[2].plain) for row in self.rows), default=0)
            detail = min(longest, width - FIXED - 1)
            rest = width - FIXED - 1 - detail
        for icon, stage, what, duration in self.rows:
            yield _left(icon, 1)
            yield GAP
            yield _left(stage, STAGE)
            yield GAP
            if detail:
                yield _left(what, detail)
            yield GAP
            yield _right(duration, durations) if durations else Segment("", Style.null())
            if rest:
                yield Segment(" " * rest)
            yield new_line
        if self.message is not None:
            for line in console.render_lines(self.message, column):
                yield from line
                yield new_line


def _one_line(text: Text) -> bool:
    """Each row is one line: a cell that would wrap or break is the grid's to draw.

    A break is any character `str.splitlines` breaks at, as rich does: besides the
    newline, the record separators and U+2028 a pasted prompt may carry.
    """
    plain = text.plain
    return not text.spans and "\t" not in plain and plain.splitlines() in ([plain], [])


def _left(text: Text, width: int) -> Segment:
    """A cell as rich draws it left-aligned and unwrapped: cut with an ellipsis, or padded."""
    line = text.copy()
    line.truncate(width, overflow="ellipsis", pad=True)
    return Segment(line.plain, _style(text))


def _right(text: Text, width: int) -> Segment:
    line = text.copy()
    line.rstrip()
    line.truncate(width, overflow="ellipsis")
    line.pad_left(width - cell_len(line.plain))
    return Segment(line.plain, _style(text))


def _style(text: Text) -> Style | None:
    """The cell's style as rich's rendering leaves it: a plain cell has none."""
    style = text.style
    return style if isinstance(style, Style) and style else None
