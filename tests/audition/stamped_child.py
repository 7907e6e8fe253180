"""A port for the player *process* that remembers when each message left, for timing tests.

The player process opens its port in the child; this opener wraps the real
port there and writes `(perf_counter, bytes)` per message to a file when the
port closes. `perf_counter` is the system-wide monotonic clock on Linux, so the
test reads the child's times on its own clock.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path

from muse_tui.audition import open_output
from muse_tui.audition.ports import OutputPort


class LoggingPort:
    """A real port that logs the time each message is sent."""

    def __init__(self, port: OutputPort, log: Path) -> None:
        self.port = port
        self.name = port.name
        self.log = log
        self.sent: list[tuple[float, list[int]]] = []

    def send(self, message: Sequence[int]) -> None:
        self.sent.append((time.perf_counter(), list(message)))
        self.port.send(message)

    def is_present(self) -> bool:
        return self.port.is_present()

    def close(self) -> None:
        self.port.close()
        self.log.write_text(json.dumps(self.sent))


def open_logging(port_name: str, log: str) -> LoggingPort:
    """The opener the player process calls (module level, so it can be pickled)."""
    return LoggingPort(open_output(port_name), Path(log))


def read_log(log: Path) -> list[tuple[float, tuple[int, ...]]]:
    return [(t, tuple(m)) for t, m in json.loads(log.read_text())]
