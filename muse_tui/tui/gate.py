"""The engine's doors into the studio: the approval gates and the event sink.

The pipeline runs as an asyncio worker on the app's loop, so `StudioGate` can
push a modal and await its dismissal; the sink only posts messages and returns.
Changes to a song run in a thread worker, so `ThreadGate` opens its modal on the
app's loop and lets the thread wait for the answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.message_pump import MessagePump
from textual.screen import Screen

from .messages import PipelineEventMessage

if TYPE_CHECKING:  # the engine and the modals load with the first run
    from muse_tui.contracts import Ambiguity, Decision, PipelineEvent
    from muse_tui.engine.protocols import ApprovalRequest

ANSWER_POLL_S = 0.25  # how often a waiting thread checks that the app is still there


class MessageSink:
    """An `EventSink` that posts each event as a `PipelineEventMessage`; never blocks."""

    def __init__(self, target: MessagePump) -> None:
        self._target = target

    def emit(self, event: PipelineEvent) -> None:
        self._target.post_message(PipelineEventMessage(event))


class StudioGate:
    """An `ApprovalGate` that asks the producer with a modal and waits for the answer."""

    def __init__(self, app: App[Any], on_answered: Callable[[], None] = lambda: None) -> None:
        self._app = app
        self._on_answered = on_answered  # e.g. stop a preview the modal started

    async def review(self, request: ApprovalRequest) -> Decision:
        from .screens.approval import ApprovalModal

        return await self._answer(ApprovalModal(request), "cancel")

    async def ask(self, question: Ambiguity) -> str | None:
        from .screens.ambiguity import AmbiguityModal

        return await self._answer(AmbiguityModal(question), None)

    async def _answer(self, modal: Screen[Any], on_cancel: Any) -> Any:
        try:
            answer = await self._app.push_screen_wait(modal)
        except asyncio.CancelledError:
            # The run was cancelled while the question was open: take the question away.
            if modal in self._app.screen_stack:
                modal.pop_until_active()
                modal.dismiss(on_cancel)
            raise
        finally:
            self._on_answered()
        return on_cancel if answer is None and on_cancel is not None else answer


class ThreadGate:
    """An `ApprovalGate` for engine calls running in a worker thread.

    A yes/no question (an expensive change: "Changing the key will regenerate…
    Proceed?") is a `ConfirmModal`; anything else is the question modal. If the
    studio closes while the thread waits, the answer is "no".
    """

    def __init__(self, app: App[Any]) -> None:
        self._app = app

    async def review(self, request: ApprovalRequest) -> Decision:
        from .screens.approval import ApprovalModal

        return self._wait(ApprovalModal(request)) or "cancel"

    async def ask(self, question: Ambiguity) -> str | None:
        from .screens.ambiguity import AmbiguityModal
        from .screens.confirm import TYPE_AHEAD_GRACE_S, ConfirmModal

        if sorted(question.options) == ["no", "yes"]:
            modal = ConfirmModal(
                "Before changing the song",
                question.reason,
                self._type_ahead,
                grace=TYPE_AHEAD_GRACE_S,
            )
            yes = self._wait(modal)
            return "yes" if yes else "no"
        return self._wait(AmbiguityModal(question))

    def _type_ahead(self, character: str) -> None:
        """A key typed before the question showed: back into the prompt it was meant for."""
        from .widgets.prompt import PromptInput

        for screen in self._app.screen_stack:  # the studio's prompt, under the modal
            for prompt in screen.query(PromptInput):
                prompt.insert(character)

    def _wait(self, modal: Screen[Any]) -> Any:
        answered: Future[Any] = Future()
        self._app.call_from_thread(self._app.push_screen, modal, answered.set_result)
        while True:
            try:
                return answered.result(timeout=ANSWER_POLL_S)
            except TimeoutError:  # still waiting
                if not self._app.is_running:
                    return None
