"""The small interfaces through which the engine talks to whoever runs it.

The studio answers approval gates with a modal and turns events into Textual
messages; the CLI asks on the terminal and prints a progress line; tests record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from muse_tui.contracts import Ambiguity, Decision, PipelineEvent, SongState, StageOutput


@dataclass(frozen=True)
class ApprovalRequest:
    """A finished stage waiting for the producer's word."""

    stage: int
    name: str
    summary: str
    output: StageOutput
    song: SongState
    variant: int


@runtime_checkable
class ApprovalGate(Protocol):
    """Answers approval gates and blocking questions."""

    async def review(self, request: ApprovalRequest) -> Decision:
        """Approve the stage, regenerate it with a new variant, or cancel the run."""
        ...

    async def ask(self, question: Ambiguity) -> str | None:
        """Pick one of the question's options (or free text); None cancels the run."""
        ...


@runtime_checkable
class EventSink(Protocol):
    """Receives pipeline events in order. Must not block: post or queue, then return."""

    def emit(self, event: PipelineEvent) -> None: ...


class PlaybackUnavailable(Exception):
    """Playback could not start; `hint` says how to get a MIDI port on this computer."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


@runtime_checkable
class Playback(Protocol):
    """Starts auditioning a finished song (the audition player behind an adapter)."""

    def start(self, song: SongState) -> None:
        """Begin playing; raise PlaybackUnavailable when there is no port to play through."""
        ...


class AutoApprove:
    """A gate that approves everything and takes each question's default (headless runs)."""

    async def review(self, request: ApprovalRequest) -> Decision:
        return "approve"

    async def ask(self, question: Ambiguity) -> str | None:
        return question.default_value or (question.options[0] if question.options else None)


class NullSink:
    """Drops events (headless runs that only want the result)."""

    def emit(self, event: PipelineEvent) -> None:
        return None


@dataclass
class RecordingSink:
    """Keeps every event, for tests and for replaying a run's log."""

    events: list[PipelineEvent] = field(default_factory=list)

    def emit(self, event: PipelineEvent) -> None:
        self.events.append(event)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]
