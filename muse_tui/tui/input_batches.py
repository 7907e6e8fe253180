"""The terminal's keys reach the app in batches: a long unbracketed paste wakes the loop once.

Textual's driver reads the terminal in a thread and hands the app each key with
`asyncio.run_coroutine_threadsafe`: a task, two futures and a wake-up of the loop per key.
For a paste the terminal does not bracket (one key per character), that overhead and the
loop taking each key as it trickled in kept the studio busy for seconds, and the keys came
in ones and twos, too few at a time for `key_order` to type them as one paste.

`batched(driver_class)` is the same driver whose thread queues what it reads, in order, and
wakes the loop once for all that is queued; the loop then posts it all to the app at once,
runs of typed text read one after another joined into one (`typed_runs.Typed`).

On Linux and macOS the thread also reads with the studio's parser (`typed_runs`), which
makes one `Typed` of a run of printable characters read together, not a key of each:
`LinuxInput.run_input_thread` is Textual 8.2's own loop with that parser in it.
"""

from __future__ import annotations

import os
import selectors
import sys
import threading
from codecs import getincrementaldecoder
from typing import Any

from textual._parser import ParseError
from textual.driver import Driver
from textual.message import Message

from .typed_runs import Typed, TypedRunParser


class BatchedInput(Driver):
    """A driver whose input thread hands its messages over in batches (see the module)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._outbox: list[Message] = []
        self._outbox_lock = threading.Lock()
        self._wake_pending = False

    def send_message(self, message: Message) -> None:
        with self._outbox_lock:
            self._outbox.append(message)
            if self._wake_pending:
                return  # the loop will take this one with the others
            self._wake_pending = True
        self._loop.call_soon_threadsafe(self._deliver)

    def _deliver(self) -> None:
        """On the loop: post everything queued so far, in order."""
        with self._outbox_lock:
            batch, self._outbox = self._outbox, []
            self._wake_pending = False
        for message in joined(batch):
            self._app.post_message(message)


def joined(batch: list[Message]) -> list[Message]:
    """`batch` with each stretch of `Typed` runs in a row made one (one edit, not several)."""
    messages: list[Message] = []
    for message in batch:
        if isinstance(message, Typed) and messages and isinstance(messages[-1], Typed):
            messages[-1] = Typed(messages[-1].text + message.text)
        else:
            messages.append(message)
    return messages


class LinuxInput(Driver):
    """Mixed into Textual's Linux driver: its input thread reads with the studio's parser."""

    fileno: int
    exit_event: threading.Event

    def run_input_thread(self) -> None:
        # Textual 8.2's LinuxDriver.run_input_thread, its parser swapped for ours.
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        parser = TypedRunParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode

        def read_ready(ready: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> None:
            for index, (_key, mask) in enumerate(ready):
                if mask & selectors.EVENT_READ:
                    data = decode(
                        os.read(self.fileno, 1024 * 4), final=final and index == len(ready) - 1
                    )
                    if not data:
                        break  # stdin piped, and at its end
                    for event in parser.feed(data):
                        self.process_message(event)
            for event in parser.tick():
                self.process_message(event)

        try:
            while not self.exit_event.is_set():
                read_ready(selector.select(0.1))
            selector.unregister(self.fileno)
            read_ready(selector.select(0.1), final=True)
        finally:
            selector.close()
            try:
                for _event in parser.feed(""):
                    pass
            except (EOFError, ParseError):
                pass


def batched(driver_class: type[Driver]) -> type[Driver]:
    """`driver_class` with its input handed to the app in batches (read by the studio's
    parser where it is Textual's Linux driver)."""
    bases: tuple[type, ...] = (BatchedInput, driver_class)
    linux = sys.modules.get("textual.drivers.linux_driver")  # not importable on Windows
    if linux is not None and issubclass(driver_class, linux.LinuxDriver):
        bases = (BatchedInput, LinuxInput, driver_class)
    return type(driver_class.__name__, bases, {})
