"""What the player publishes for other threads: its status and transport, swapped in whole.

Readers never lock: each attribute holds an immutable value and is replaced by
a single assignment, which other threads see whole.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from muse_tui.audition.clock import Transport

State = Literal["stopped", "playing", "error", "closed"]


@dataclass(frozen=True, slots=True)
class Status:
    """What the player is doing; `last_error` is one sentence saying what to do next."""

    state: State = "stopped"
    last_error: str | None = None
    port_name: str | None = None


Changed = Callable[[Status, Transport], None]


class Board:
    """What the player thread publishes; each attribute is replaced whole and read lock-free."""

    def __init__(
        self, transport: Transport, status: Status, on_change: Changed | None = None
    ) -> None:
        self.transport = transport
        self.status = status
        self.idle = threading.Event()  # set whenever the song is not playing
        self.idle.set()
        self.on_change = on_change

    def publish(self, status: Status, transport: Transport) -> None:
        self.status, self.transport = status, transport
        (self.idle.clear if transport.playing else self.idle.set)()
        if self.on_change is not None:
            with contextlib.suppress(Exception):  # an observer's bug must not stop the music
                self.on_change(status, transport)
