"""Printable characters the terminal hands over in one read travel as one `Typed` event.

Textual's parser makes a `Key` of every character it reads, and formats each key as text
for its debug log whether the log is on or not: for a 10,000-character paste the terminal
did not bracket, a third of a second of the input thread's time on an idle machine, and
ten thousand messages for the app to take. The studio's parser (`TypedRunParser`) reads a
plain stretch of text (no escape sequence in it, none under way, no bracketed paste open)
itself: each run of two or more printable characters becomes one `Typed`, anything else
the same `Key`s Textual's parser makes. `key_order.KeysInOrder` then types a run the
focused widget types as one paste, and hands any other run on as its keys, one by one,
exactly as it would have had them as keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from textual import events
from textual._parser import Read1
from textual._xterm_parser import BRACKETED_PASTE_END, BRACKETED_PASTE_START, XTermParser
from textual.keys import Keys
from textual.message import Message

ESC = "\x1b"


class Typed(events.Event, bubble=False):
    """Printable characters read together: each is a printable key, in this order."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def __rich_repr__(self):  # type: ignore[no-untyped-def]
        yield "text", self.text


_namer: XTermParser | None = None


def key_for(character: str) -> events.Key:
    """The key Textual's parser makes of `character` read on its own."""
    global _namer
    if _namer is None:
        _namer = XTermParser()
    (key,) = _namer._sequence_to_key_events(character)
    return key


class TypedRunParser(XTermParser):
    """Textual's parser, but a plain stretch of printable text is one `Typed` (see the module)."""

    def __init__(self, debug: bool = False) -> None:
        super().__init__(debug)
        self._in_paste = False  # a bracketed paste is open: Textual's parser collects it
        self._tail = ""  # the end of the last text read the slow way: a marker may straddle

    def feed(self, data: str) -> Iterable[Message]:
        if data and ESC not in data and self._at_rest():
            self._tail = ""
            return self._runs(data)
        self._follow_brackets(data)
        return super().feed(data)

    def _at_rest(self) -> bool:
        """Between keys: no escape sequence under way, no paste open, nothing waiting."""
        awaiting = self._awaiting
        return (
            isinstance(awaiting, Read1)
            and awaiting.timeout is None
            and not self._in_paste
            and not self._tokens
            and not self.is_eof
        )

    def _follow_brackets(self, data: str) -> None:
        """Whether a bracketed paste is open once `data` is read (the last marker says)."""
        seen = self._tail + data
        opened, closed = seen.rfind(BRACKETED_PASTE_START), seen.rfind(BRACKETED_PASTE_END)
        if opened != closed:  # both -1 when neither is there
            self._in_paste = opened > closed
        self._tail = seen[-(len(BRACKETED_PASTE_START) - 1) :]

    def _runs(self, data: str) -> Iterator[Message]:
        if data.isprintable():
            yield Typed(data) if len(data) > 1 else key_for(data)
            return
        start = 0
        for index, character in enumerate(data):
            if character.isprintable():
                continue
            yield from self._run(data[start:index])
            for key in self._sequence_to_key_events(character):
                if key.key != Keys.Ignore:  # as Textual's parser leaves them out
                    yield key
            start = index + 1
        yield from self._run(data[start:])

    @staticmethod
    def _run(text: str) -> Iterator[Message]:
        if len(text) > 1:
            yield Typed(text)
        elif text:
            yield key_for(text)
