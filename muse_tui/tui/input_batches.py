"""The terminal's keys reach the app in batches: a long unbracketed paste wakes the loop once.

Textual's driver reads the terminal in a thread and hands the app each key with
`asyncio.run_coroutine_threadsafe`: a task, two futures and a wake-up of the loop per key.
For a paste the terminal does not bracket (one key per character), that overhead and the
loop taking each key as it trickled in kept the studio busy for seconds, and the keys came
in ones and twos, too few at a time for `key_order` to type them as one paste.

`batched(driver_class)` is the same driver whose thread queues what it reads, in order, and
wakes the loop once for all that is queued; the loop then posts it all to the app at once.
"""

from __future__ import annotations

import threading
from typing import Any

from textual.driver import Driver
from textual.message import Message


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
        for message in batch:
            self._app.post_message(message)


def batched(driver_class: type[Driver]) -> type[Driver]:
    """`driver_class` with its input handed to the app in batches."""
    return type(driver_class.__name__, (BatchedInput, driver_class), {})
