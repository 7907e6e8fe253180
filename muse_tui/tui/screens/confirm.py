"""A yes/no question before something that cannot be undone."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import _time, events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Static

from .dialog import Dialog

#: Keys pressed this soon after the question opens were typed before it was seen.
TYPE_AHEAD_GRACE_S = 0.4


class TypeAheadGuard:
    """For a dialog: keys typed before it was shown (queued while it opened) never answer it.

    A run's gate or question opens while the producer may still be typing; the
    "y" of "very dark" is not an approval. `_typed_ahead` says whether a key
    came too soon; the dialog's `_on_key` drops such a key.
    """

    opened_at: float = 0.0
    type_ahead_grace: float = 0.0  # and this long after: for questions that open mid-typing

    def _shown(self) -> None:
        self.opened_at = max(self.opened_at, _time.get_time())

    def _typed_ahead(self, event: events.Key) -> bool:
        if event.time >= self.opened_at + self.type_ahead_grace:
            return False  # seen and meant: the bindings answer it
        event.prevent_default()
        event.stop()
        return True


class ConfirmModal(TypeAheadGuard, Dialog[bool]):
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
        self._type_into = typed_ahead
        self.type_ahead_grace = grace  # the studio's questions, which can open mid-typing
        self.opened_at = _time.get_time()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self._title, classes="title")
            yield Static(self._question, classes="summary")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._shown()

    def _on_key(self, event: events.Key) -> None:
        dropped = self._typed_ahead(event)
        if dropped and event.is_printable and event.character and self._type_into is not None:
            self._type_into(event.character)  # not lost: it goes to the prompt behind

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def ask_before_cancelling(
    dialog: Dialog[object], cancel: Callable[[], None], *, stopped: str, back_to: str
) -> None:
    """Escape at a run's gate or question throws the run away: ask first, then `cancel()`.

    Escape is also the key that closes every other dialog, so it is pressed by habit.
    The question says what is thrown away (`stopped`: "after stage 2/8", the run's
    later stages) and where n goes back to (`back_to`: "the harmony gate").
    """
    question = ConfirmModal(
        "Cancel this run?",
        f"y stops this run {stopped}: its later stages are not made. What it has made so far "
        "is kept: open it from Sessions (ctrl+o) and press r to resume. "
        f"n or escape goes back to {back_to}.",
    )
    dialog.app.push_screen(question, lambda yes: cancel() if yes else None)
