"""The stage tracker: the eight stages with live status, and the run's status and time."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget

from ..run_state import RUN_LABELS, RunState, StageRow
from ..session import OpenSong, follow_open_song
from .stage_lines import StageLines

if TYPE_CHECKING:
    from muse_tui.contracts import PipelineEvent

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
ICONS = {
    "pending": "·",
    "completed": "✓",
    "failed": "✗",
    "retrying": "↻",
    "skipped": "–",
    "waiting": "?",
}


def clock_text(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}:{rest:02d}"


def duration_text(ms: float | None) -> str:
    if ms is None:
        return ""
    return f"{ms / 1000:.1f}s" if ms < 60_000 else clock_text(ms / 1000)


class StageTracker(Widget, can_focus=False):
    """Shows a `RunState`; `show(event)` folds in the next engine event."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "stage-tracker--pending",
        "stage-tracker--running",
        "stage-tracker--completed",
        "stage-tracker--failed",
        "stage-tracker--retrying",
        "stage-tracker--skipped",
        "stage-tracker--waiting",
        "stage-tracker--header",
        "stage-tracker--time",
    }

    frame: reactive[int] = reactive(0)

    def __init__(
        self, *, monotonic: Callable[[], float], animate: bool = True, **kwargs: object
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.state = RunState()
        self._monotonic = monotonic
        self._animate = animate
        self._ticker: Timer | None = None

    def on_mount(self) -> None:
        follow_open_song(self, self._open_song)

    def _open_song(self, old: OpenSong | None, new: OpenSong | None) -> None:
        """A session opened from disk: how its run went."""
        if new and new.opened and new.pipeline is not None and not self.state.is_running:
            self.show_state(RunState.from_pipeline(new.pipeline))

    def show(self, event: PipelineEvent) -> None:
        self.state.apply(event, self._monotonic())
        self._tick_while_running()
        self.refresh()

    def show_state(self, state: RunState) -> None:
        self.state = state
        self._tick_while_running()
        self.refresh()

    def _tick_while_running(self) -> None:
        running = self.state.is_running
        if running and self._ticker is None:
            # 10 Hz moves the spinner and the clock; frozen in tests for stable snapshots.
            self._ticker = self.set_interval(0.1, self._tick, pause=not self._animate)
        elif not running and self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def _tick(self) -> None:
        self.frame += 1

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The run's line, a line per stage, then the message folded to the width.

        Counted, not drawn: Textual would draw the whole table once only to count its lines.
        """
        message = self._message()
        folded = message.wrap(self.app.console, width) if message is not None and width else ()
        return 1 + len(self.state.rows) + len(folded)

    def _message(self) -> Text | None:
        state = self.state
        if state.message and not state.is_running:
            return Text(state.message, style=self._style("time"), overflow="fold")
        return None

    def render(self) -> RenderableType:
        state = self.state
        header = Text(no_wrap=True, overflow="ellipsis")
        header.append(RUN_LABELS.get(state.status, state.status), self._style("header"))
        if state.started_at is not None:
            header.append(f"  {clock_text(state.elapsed(self._monotonic()))}", self._style("time"))
        if state.session_id:
            header.append(f"  {state.session_id}", self._style("pending"))
        rows = [self._cells(row) for row in state.rows.values()]
        return StageLines(header, rows, self._message())

    def _cells(self, row: StageRow) -> tuple[Text, Text, Text, Text]:
        style = self._style(row.status)
        icon = SPINNER[self.frame % len(SPINNER)] if row.status == "running" else ICONS[row.status]
        return (
            Text(icon, style),
            Text(f"{row.stage} {row.name}", style),
            Text(row.detail, style if row.status != "completed" else Style()),
            Text(duration_text(row.duration_ms), self._style("time")),
        )

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"stage-tracker--{name}", partial=True)
