"""The pipeline on a terminal: a progress display (an EventSink) and gates asked on stdin."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field

from rich.console import Console
from rich.status import Status

from muse_tui.contracts import (
    Ambiguity,
    Decision,
    HarmonyOutput,
    PipelineEvent,
    StageError,
    StageFailed,
)
from muse_tui.engine.protocols import ApprovalRequest


@dataclass
class TerminalProgress:
    """Prints one line per finished stage and a spinner for the running one."""

    console: Console
    quiet: bool = False
    _status: Status | None = field(default=None, init=False)
    #: Why the run ended, when it ended with an error (the command turns some into advice).
    finish_error: StageError | None = field(default=None, init=False)
    #: The last stage failure printed: the run's end need not repeat its sentence.
    _failed: StageFailed | None = field(default=None, init=False)

    def emit(self, event: PipelineEvent) -> None:
        if event.kind == "pipeline_finished":
            self.finish_error = event.error
        if self.quiet:
            return
        match event.kind:
            case "pipeline_started":
                where = (
                    f" (resuming at stage {event.resumed_from_stage})"
                    if event.resumed_from_stage
                    else ""
                )
                self.console.print(f"[bold]muse-studio[/] composing {event.session_id}{where}")
            case "stage_started":
                attempt = f" — attempt {event.attempt}" if event.attempt > 1 else ""
                self._spin(f"Stage {event.stage}/8: {event.name}{attempt}…")
            case "stage_progress":
                self._spin(f"Stage {event.stage}/8: {event.message}")
            case "stage_completed":
                self._stop()
                self.console.print(f"[green]{event.line}[/] [dim]{event.duration_ms:.0f} ms[/]")
            case "stage_retrying":
                self._stop()
                self.console.print(
                    f"[yellow]↻ Stage {event.stage}/8: {event.error.message} — "
                    f"retrying ({event.attempt}/{event.max_attempts})[/]"
                )
            case "stage_failed":
                self._stop()
                self._failed = event
                self.console.print(f"[red]✗ Stage {event.stage}/8: {event.error.sentence}[/]")
            case "stage_skipped":
                self.console.print(f"[dim]– Stage {event.stage}/8: {event.name} skipped[/]")
            case "pipeline_finished":
                self._stop()
                colour = {"completed": "green", "completed_partial": "yellow"}.get(
                    event.status, "red"
                )
                message = event.message_after(self._failed)
                self._failed = None
                self.console.print(f"[{colour}]{message}[/]")
                if event.session_dir:
                    self.console.print(f"Session folder: {event.session_dir}")
            case _:
                pass

    def _spin(self, text: str) -> None:
        if not self.console.is_terminal:
            return
        if self._status is None:
            self._status = self.console.status(text)
            self._status.start()
        else:
            self._status.update(text)

    def _stop(self) -> None:
        if self._status is not None:
            self._status.stop()
            self._status = None


@dataclass
class TerminalGate:
    """Asks the producer at each gate on the terminal: approve, regenerate or cancel."""

    console: Console
    progress: TerminalProgress

    async def review(self, request: ApprovalRequest) -> Decision:
        self.progress._stop()
        self.console.print(
            f"\n[bold]Stage {request.stage}/8 ({request.name}) is ready:[/] {request.summary}"
        )
        if isinstance(request.output, HarmonyOutput):
            for chord in request.output.progression.chords:
                self.console.print(f"   {chord.roman:<8} {chord.symbol:<12} {chord.beats:g} beats")
        while True:
            answer = (await _ask("[y] approve  [r] regenerate  [c] cancel > ")).strip().lower()
            if answer in ("", "y", "yes"):
                return "approve"
            if answer in ("r", "regenerate"):
                return "regenerate"
            if answer in ("c", "cancel", "q"):
                return "cancel"
            self.console.print("Type y, r or c.")

    async def ask(self, question: Ambiguity) -> str | None:
        self.progress._stop()
        self.console.print(f"\n[bold]{question.reason}[/]")
        for i, option in enumerate(question.options, 1):
            self.console.print(f"  {i}. {option.replace('_', ' ')}")
        while True:
            answer = (await _ask("Pick a number, type your own, or c to cancel > ")).strip()
            if answer.lower() in ("c", "cancel"):
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(question.options):
                return question.options[int(answer) - 1]
            if answer:
                return answer


async def _ask(prompt: str) -> str:
    def read() -> str:
        try:
            return input(prompt)
        except EOFError:
            return "c"

    return await asyncio.to_thread(read)


def interactive() -> bool:
    """True when a person can answer questions on this terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()
