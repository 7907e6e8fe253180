"""The notes log says a failed stage's sentence once: the run's end says where it stopped."""

from __future__ import annotations

from textual.app import App, ComposeResult

from muse_tui.contracts import PipelineFinished, StageError, StageFailed
from muse_tui.tui.widgets.notes_log import NotesLog

BROKEN = StageError(
    code="INVALID_INPUT",
    message="a skill file is broken: skills/rhythm/comping.json: not valid JSON at line 1",
    recovery_hint="fix the file or restore it from the repository",
)


class _Log(App[None]):
    def compose(self) -> ComposeResult:
        yield NotesLog()


def _finished(error: StageError | None, status: str = "failed") -> PipelineFinished:
    return PipelineFinished(
        status=status,  # type: ignore[arg-type]
        duration_ms=5.0,
        message=f"The run failed: {error.sentence}" if error else "Session s is ready.",
        error=error,
    )


async def _logged(*events: StageFailed | PipelineFinished) -> str:
    """What the notes log shows for these events, one line per row."""
    app = _Log()
    async with app.run_test(size=(200, 20)) as pilot:
        log = app.query_one(NotesLog)
        for event in events:
            log.show_event(event)
        await pilot.pause()
        return "\n".join(line.text for line in log.lines)


async def test_a_failed_stage_is_said_once_and_the_end_says_where_it_stopped() -> None:
    text = await _logged(StageFailed(stage=1, name="intent", error=BROKEN), _finished(BROKEN))
    assert text.count("comping.json") == 1, text
    assert "; fix the file or restore it from the repository." in text
    assert text.rstrip().endswith("The run stopped at stage 1/8.")


async def test_a_run_that_failed_for_another_reason_says_that_reason() -> None:
    other = StageError(code="FILE_WRITE_FAILED", message="No space left on device")
    text = await _logged(StageFailed(stage=4, name="parts", error=BROKEN), _finished(other))
    assert "The run failed: No space left on device." in text
