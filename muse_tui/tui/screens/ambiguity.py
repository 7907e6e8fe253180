"""A blocking question from S1: pick an option (or type your own) before composing goes on."""

from __future__ import annotations

from typing import ClassVar

from textual import _time, events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from muse_tui.contracts import Ambiguity

from .confirm import TypeAheadGuard, ask_before_cancelling
from .dialog import Dialog


def option_label(value: str) -> str:
    return value.replace("_", " ")


class AmbiguityModal(TypeAheadGuard, Dialog[str | None]):
    """Options are keyboard-selectable: arrows and enter, or their number; escape cancels."""

    DEFAULT_CSS = """
    AmbiguityModal #options { height: auto; max-height: 12; margin: 0 0 1 0; }
    AmbiguityModal #own { margin: 0 0 1 0; }
    AmbiguityModal .hint { color: $foreground-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel run", id="question.cancel",
                tooltip="Cancel the run instead of answering, once you say yes"),
        Binding("f1", "app.help", "Help", id="question.help",
                tooltip="Every key, where it works (the question waits meanwhile)"),
        Binding("tab", "focus_next", "Own answer", id="question.own_answer",
                tooltip="Move between the options and typing your own answer"),
    ] + [
        Binding(str(n), f"pick({n})", f"Option {n}", show=False, id=f"question.pick_{n}",
                tooltip=f"Answer with option {n}")
        for n in range(1, 10)
    ]  # fmt: skip

    def __init__(self, question: Ambiguity) -> None:
        super().__init__(classes="question")
        self.question = question
        self.opened_at = _time.get_time()

    def _on_key(self, event: events.Key) -> None:
        self._typed_ahead(event)

    def compose(self) -> ComposeResult:
        q = self.question
        with Vertical(classes="dialog"):
            yield Static("Before composing, one question", classes="title")
            yield Static(q.reason, classes="summary")
            options = [
                Option(f"{i}. {option_label(value)}", id=value)
                for i, value in enumerate(q.options, 1)
            ]
            yield OptionList(*options, id="options")
            yield Input(placeholder="…or type your own answer and press enter", id="own")
            yield Static(
                "↑↓ and enter, or the option's number; tab to type your own; escape cancels.",
                classes="hint",
            )
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._shown()
        if not self.question.options:
            self.query_one(OptionList).display = False
            self.query_one(Input).focus()
            return
        options = self.query_one(OptionList)
        default = self.question.default_value
        index = self.question.options.index(default) if default in self.question.options else 0
        options.highlighted = index
        options.focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    @on(Input.Submitted)
    def _typed(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.dismiss(event.value.strip())

    def action_pick(self, number: int) -> None:
        if 1 <= number <= len(self.question.options):
            self.dismiss(self.question.options[number - 1])

    def action_cancel(self) -> None:
        ask_before_cancelling(
            self, lambda: self.dismiss(None), stopped="at stage 1/8", back_to="the question"
        )
