"""The prompt box: multi-line, `enter` submits, `ctrl+n` (or shift+enter) breaks the line.

Enter in an empty prompt sends nothing; with a proposal shown it accepts it (the studio's
binding, which the footer then shows).

Space in an empty prompt is not typed: it goes on to the studio's play key, so
the producer can listen and type the next change without leaving the prompt.
Nor is slash, the studio's key for the prompt, which is already here.

Up on the first line and down on the last walk through earlier prompts.
Many terminals send shift+enter as plain enter, hence `ctrl+n`.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events, on
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import TextArea

from .prompt_keys import (
    CHANGE_PLACEHOLDER,
    KEYS_BEFORE_TEXT,
    NEW_SONG_PLACEHOLDER,
    OWN_KEYS,
    PROMPT_BINDINGS,
    PromptBox,
)

HISTORY_LIMIT = 100


class PromptInput(PromptBox, TextArea):
    """Where the producer says what they want."""

    BINDINGS: ClassVar[list[BindingType]] = PROMPT_BINDINGS

    class Submitted(Message):
        """The producer sent a prompt."""

        def __init__(self, prompt: PromptInput, text: str) -> None:
            super().__init__()
            self.prompt = prompt
            self.text = text

        @property
        def control(self) -> PromptInput:
            return self.prompt

    def __init__(self, *, prompts: list[str] | None = None, **kwargs: object) -> None:
        super().__init__(soft_wrap=True, show_line_numbers=False, **kwargs)  # type: ignore[arg-type]
        self.placeholder = NEW_SONG_PLACEHOLDER
        self.prompts: list[str] = list(prompts or [])
        self._position = len(self.prompts)
        self._draft = ""

    async def _on_key(self, event: events.Key) -> None:
        # The text area would type enter as a new line. Our own keys (submit, new line) run
        # here, on the prompt's own turn, in the order typed: a priority binding would run
        # ahead of characters still queued and send half a prompt; a binding run when the
        # key bubbles up to the app would run behind the characters typed after it, and
        # send them too ("… G minor", enter, "abc" composed "… G minorabc").
        if self._left_to_screen(event.key):
            event.prevent_default()  # not typed: the studio's binding has it (see the method)
            return
        own = self._own_binding(event.key)
        if own is not None:
            event.prevent_default()  # skips TextArea's handler
            event.stop()  # and the app's binding lookup: it has run here
            await self.run_action(own.action)

    def _own_binding(self, key: str) -> Binding | None:
        """The submit or new-line binding `key` is bound to, after the producer's keymap."""
        for node, bindings in self.screen._modal_binding_chain:
            if node is self:
                for binding in bindings.key_to_bindings.get(key, ()):
                    if binding.id in OWN_KEYS:
                        return binding
        return None

    def check_consume_key(self, key: str, character: str | None = None) -> bool:
        if key in KEYS_BEFORE_TEXT and not self.text:
            return False  # an empty prompt leaves them to the studio's bindings
        return super().check_consume_key(key, character)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Enter left to the screen: the footer shows what it does then (accept the proposal).
        return not (action == "submit" and self._left_to_screen("enter"))

    def _left_to_screen(self, key: str) -> bool:
        """Whether `key`, pressed in the empty prompt, goes to a binding of the screen's.

        Space (play) and slash (the prompt) always do. Enter does when the screen has an
        enabled binding for it: with a proposal shown, the empty prompt's enter accepts it,
        as the proposal's "enter accept" says (there is nothing to send).
        """
        if self.text:
            return False
        if key in KEYS_BEFORE_TEXT:
            return True
        if key != "enter":
            return False
        for node, bindings in self.screen._modal_binding_chain:
            if node is self:
                continue
            for binding in bindings.key_to_bindings.get(key, ()):
                if self.app._check_action_state(binding.action, node):
                    return True
        return False

    def expect_changes(self, on: bool) -> None:
        """A song is open (changes to it are expected) or not (a new song is)."""
        self.placeholder = CHANGE_PLACEHOLDER if on else NEW_SONG_PLACEHOLDER

    def add_history(self, earlier: list[str]) -> None:
        """Put prompts from before this sitting (earlier sessions) behind the history."""
        self.prompts = [*earlier, *self.prompts][-HISTORY_LIMIT:]
        self._position = len(self.prompts)

    def action_submit(self) -> None:
        text = self.text.strip()
        if not text:
            self.notify("Type what you want first.", severity="warning")
            return
        if not self.prompts or self.prompts[-1] != text:
            self.prompts = [*self.prompts, text][-HISTORY_LIMIT:]
        self._position = len(self.prompts)
        self._draft = ""
        self.post_message(self.Submitted(self, text))

    def action_newline(self) -> None:
        self.insert("\n")

    def action_history_or_up(self) -> None:
        if self.cursor_location[0] > 0 or not self.prompts or self._position == 0:
            self.action_cursor_up()
            return
        if self._position == len(self.prompts):
            self._draft = self.text
        self._position -= 1
        self._show(self.prompts[self._position])

    def action_history_or_down(self) -> None:
        last_row = self.document.line_count - 1
        if self.cursor_location[0] < last_row or self._position >= len(self.prompts):
            self.action_cursor_down()
            return
        self._position += 1
        at_draft = self._position == len(self.prompts)
        self._show(self._draft if at_draft else self.prompts[self._position])

    def _show(self, text: str) -> None:
        self.load_text(text)
        self.move_cursor(self.document.end)

    @on(TextArea.Changed)
    def _typed(self, event: TextArea.Changed) -> None:
        # Typing after walking the history starts a new draft from there.
        if self._position < len(self.prompts) and self.text != self.prompts[self._position]:
            self._position = len(self.prompts)
