"""The tracker draws its lines itself, segment for segment as the rich grid it replaced."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from muse_tui.tui.widgets.stage_lines import StageLines

STYLES = {
    name: Style(color=colour, bold=bold)
    for name, colour, bold in [
        ("pending", "grey50", False),
        ("running", "red", True),
        ("completed", "green", False),
        ("time", "blue", False),
        ("header", "magenta", True),
    ]
}
WORDS = ["", "ok", "trip-hop in A minor, 92 bpm", "Am – F – C – G", "working…", "漢字 wide"]
DURATIONS = ["", "0.1s", "12.3s", "1:05"]


def segments(renderable: object, width: int) -> list[list[tuple[str, Style]]]:
    """The lines a console of `width` draws, a missing style read as none (Textual does too)."""
    console = Console(width=width, color_system="truecolor", legacy_windows=False)
    return [
        [(s.text, s.style or Style.null()) for s in line]
        for line in console.render_lines(renderable, console.options)
    ]


def lines(rows: list[tuple[str, str, str, str]], message: str | None) -> StageLines:
    header = Text(no_wrap=True, overflow="ellipsis")
    header.append("composing", STYLES["header"])
    header.append("  0:12  session-20261122-abc123", STYLES["time"])
    cells = [
        (
            Text("⠋" if status == "running" else "·", STYLES[status]),
            Text(name, STYLES[status]),
            Text(detail, STYLES[status] if status != "completed" else Style()),
            Text(duration, STYLES["time"]),
        )
        for status, name, detail, duration in rows
    ]
    folded = Text(message, STYLES["time"], overflow="fold") if message is not None else None
    return StageLines(header, cells, folded)


row = st.tuples(
    st.sampled_from(["pending", "running", "completed"]),
    st.sampled_from(["1 Intent", "3 Arrangement", "7 Validation"]),
    st.sampled_from(WORDS) | st.text(max_size=60),
    st.sampled_from(DURATIONS),
)


@settings(max_examples=300, deadline=None)
@given(
    rows=st.lists(row, min_size=1, max_size=8),
    message=st.none() | st.sampled_from(["Done: the session folder is written.", "x " * 40]),
    width=st.integers(min_value=8, max_value=80),
)
# Found by CI: str.splitlines breaks at the record separator, and so does rich.
@example(rows=[("pending", "1 Intent", "0\x1e0", "")], message=None, width=19)
@example(rows=[("running", "1 Intent", "a\u2028b", "1.2s")], message=None, width=40)
def test_the_lines_are_the_grids(rows, message, width) -> None:
    drawn = lines(rows, message)
    assert segments(drawn, width) == segments(drawn.grid(), width)


def test_the_studios_widths_are_drawn_without_the_grid() -> None:
    # The two widths the tracker has (the wide and the narrow right pane), idle and timed.
    for durations in ("", "1.2s"):
        drawn = lines([("completed", "1 Intent", "ok", durations)] * 8, None)
        for width in (48, 30):
            console = Console(width=width)
            rendered = list(drawn.__rich_console__(console, console.options))
            assert all(isinstance(piece, Segment) for piece in rendered)
