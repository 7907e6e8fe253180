"""A port for the player *process* that remembers when each message left, for timing tests.

The player process opens its port in the child; this opener wraps the real
port there and writes `(perf_counter, bytes)` per message to a file when the
port closes. `perf_counter` is the system-wide monotonic clock on Linux, so the
test reads the child's times on its own clock.
"""

from __future__ import annotations

import json
from pathlib import Path

from muse_tui.audition import open_output
from muse_tui.audition.ports import OutputPort
from tests.audition.fakes import StampedPort


class LoggingPort(StampedPort):
    """A stamped real port that writes what it sent, and when, to `log` as it closes."""

    def __init__(self, port: OutputPort, log: Path) -> None:
        super().__init__(port)
        self.log = log

    def close(self) -> None:
        super().close()
        self.log.write_text(json.dumps(self.sent))


def open_logging(port_name: str, log: str) -> LoggingPort:
    """The opener the player process calls (module level, so it can be pickled)."""
    return LoggingPort(open_output(port_name), Path(log))


def read_log(log: Path) -> list[tuple[float, tuple[int, ...]]]:
    return [(t, tuple(m)) for t, m in json.loads(log.read_text())]
