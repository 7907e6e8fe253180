"""A yes/no question before something that cannot be undone."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import _time, events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

#: Keys pressed this soon after the question opens were typed before it was seen.
TYPE_AHEAD_GRACE_S = 0.4


class ConfirmModal(ModalScreen[bool]):
    """`y` confirms; `n` or escape keeps things as they are.

    Keys typed before the question could be seen (the producer still typing
    the next line when an expensive change asks first) never answer it: the
    "n" of "swing" is not a no. They go to `typed_ahead` (the prompt behind),
    so nothing typed is lost.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes", tooltip="Go ahead"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no",
                tooltip="Keep things as they are"),
    ]  # fmt: skip

    def __init__(
        self,
        title: str,
        question: str,
        typed_ahead: Callable[[str], None] | None = None,
        *,
        grace: float = 0.0,
    ) -> None:
        super().__init__(classes="confirm")
        self._title = title
        self._question = question
        self._typed_ahead = typed_ahead
        self._grace = grace  # the studio's questions, which can open while the producer types
        self.opened_at = _time.get_time()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self._title, classes="title")
            yield Static(self._question, classes="summary")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.opened_at = max(self.opened_at, _time.get_time())

    def _on_key(self, event: events.Key) -> None:
        if event.time >= self.opened_at + self._grace:
            return  # seen and meant: the bindings answer it
        event.prevent_default()
        event.stop()
        if event.is_printable and event.character and self._typed_ahead is not None:
            self._typed_ahead(event.character)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
