"""A yes/no question before something that cannot be undone."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static


class ConfirmModal(ModalScreen[bool]):
    """`y` confirms; `n` or escape keeps things as they are."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes", tooltip="Go ahead"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no",
                tooltip="Keep things as they are"),
    ]  # fmt: skip

    def __init__(self, title: str, question: str) -> None:
        super().__init__(classes="confirm")
        self._title = title
        self._question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self._title, classes="title")
            yield Static(self._question, classes="summary")
        yield Footer(compact=True)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
