"""The transport bar: port, tempo, key, time signature, play state, position, loop."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.widget import Widget


@dataclass(frozen=True)
class TransportState:
    port: str = "muse-studio (virtual)"
    tempo: float | None = None
    key: str = ""
    time_signature: tuple[int, int] = (4, 4)
    playing: bool = False
    bar: int = 0
    beat: float = 0.0
    loop: str | None = None
    alone: str | None = None
    previewing: bool = False
    silent: str | None = None  # why nothing sounds though it plays ("the soloed track is muted")


class TransportBar(Widget, can_focus=False):
    """One line that says what the player is doing."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "transport--playing",
        "transport--stopped",
        "transport--dim",
        "transport--silent",
    }

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.state = TransportState()

    def update_state(self, **changes: object) -> None:
        state = replace(self.state, **changes)  # type: ignore[arg-type]
        if state != self.state:
            self.state = state
            self.refresh()

    def render(self) -> RenderableType:
        s = self.state
        dim = self.get_component_rich_style("transport--dim", partial=True)
        text = Text(no_wrap=True, overflow="ellipsis")
        if s.playing:
            what = "▶ PREVIEW" if s.previewing else "▶ PLAYING"
            text.append(f" {what} ", self.get_component_rich_style("transport--playing"))
        else:
            text.append(" ■ STOPPED ", self.get_component_rich_style("transport--stopped"))
        text.append(f"  {s.bar + 1}.{int(s.beat) + 1:<2}")
        if s.tempo is not None:
            text.append(f"  ♩ {s.tempo:g} BPM")
        if s.key:
            text.append(f"  {s.key}")
        text.append(f"  {s.time_signature[0]}/{s.time_signature[1]}")
        if s.loop:
            text.append(f"  ⟲ {s.loop}")
        if s.alone:
            text.append(f"  only {s.alone}")
        if s.silent:
            text.append(f"  silent: {s.silent}", self.get_component_rich_style("transport--silent"))
        text.append("  port ", dim)
        text.append(s.port)
        return text
