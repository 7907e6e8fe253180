"""The ordering rule of pipeline events, enforced: started first, finished last, nothing after."""

from __future__ import annotations

from dataclasses import dataclass

from muse_tui.contracts import PipelineEvent

from .protocols import EventSink


class EventOrderError(AssertionError):
    """The engine broke the event ordering rule (a bug in the engine, never user error)."""


@dataclass
class OrderedEvents:
    """Wraps a sink and refuses events out of order: the engine emits only through this."""

    sink: EventSink
    started: bool = False
    finished: bool = False

    def emit(self, event: PipelineEvent) -> None:
        if self.finished:
            raise EventOrderError(f"{event.kind} after pipeline_finished")
        if not self.started and event.kind != "pipeline_started":
            raise EventOrderError(f"{event.kind} before pipeline_started")
        if self.started and event.kind == "pipeline_started":
            raise EventOrderError("pipeline_started twice")
        self.started = True
        self.finished = event.kind == "pipeline_finished"
        self.sink.emit(event)
