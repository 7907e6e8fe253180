"""Test doubles and checks shared by the audition tests."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from muse_tui.audition.ports import OutputPort


@dataclass
class RecordingPort:
    """An output port in memory: stamps every message with perf_counter as it is sent."""

    name: str = "recorder"
    present: bool = True
    fail_after: int | None = None  # raise on the send after this many messages
    sent: list[tuple[float, tuple[int, ...]]] = field(default_factory=list)
    closed: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def send(self, message: Sequence[int]) -> None:
        if self.fail_after is not None and len(self.sent) >= self.fail_after:
            raise OSError("device unplugged")
        with self._lock:
            self.sent.append((time.perf_counter(), tuple(message)))

    def is_present(self) -> bool:
        return self.present

    def close(self) -> None:
        self.closed = True

    def messages(self) -> list[tuple[int, ...]]:
        with self._lock:
            return [m for _, m in self.sent]

    def clear(self) -> None:
        with self._lock:
            self.sent.clear()


class StampedPort:
    """Wraps a real port and remembers when each message left, to time the scheduler itself."""

    def __init__(self, port: OutputPort) -> None:
        self.port = port
        self.name = port.name
        self.sent: list[tuple[float, tuple[int, ...]]] = []

    def send(self, message: Sequence[int]) -> None:
        self.sent.append((time.perf_counter(), tuple(message)))
        self.port.send(message)

    def is_present(self) -> bool:
        return self.port.is_present()

    def close(self) -> None:
        self.port.close()


def note_balance(messages: Iterable[Sequence[int]]) -> tuple[Counter[tuple[int, int]], list[str]]:
    """Notes still sounding after `messages`, and every note-off that had no note-on."""
    sounding: Counter[tuple[int, int]] = Counter()
    orphans: list[str] = []
    for i, message in enumerate(messages):
        status, *data = message
        kind, channel = status & 0xF0, status & 0x0F
        if kind == 0x90 and data[1] > 0:
            sounding[(channel, data[0])] += 1
        elif kind == 0x80 or (kind == 0x90 and data[1] == 0):
            if sounding[(channel, data[0])] <= 0:
                orphans.append(
                    f"#{i}: note-off {data[0]} on channel {channel + 1} without a note-on"
                )
            else:
                sounding[(channel, data[0])] -= 1
    return +sounding, orphans


def wait_until(condition, timeout: float = 5.0, every: float = 0.002) -> bool:  # type: ignore[no-untyped-def]
    """Poll `condition` until it holds (for states only visible by polling, like the playhead)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(every)
    return True


class ReportingPort(RecordingPort):
    """A recording port that prints what is still sounding when it is closed (from a child)."""

    def close(self) -> None:
        super().close()
        sounding, orphans = note_balance(self.messages())
        print(
            f"closed: {len(self.sent)} sent, sounding {dict(sounding)}, orphans {orphans}",
            flush=True,
        )


def reporting_port() -> ReportingPort:
    """A picklable opener for `PlayerProcess` tests."""
    return ReportingPort(name="reporter")


class StuckPort(RecordingPort):
    """A port whose close never returns, like one stuck in its driver."""

    def close(self) -> None:
        threading.Event().wait()


def stuck_port() -> StuckPort:
    """A picklable opener whose port never finishes closing."""
    return StuckPort(name="stuck")


class LoggedPort:
    """A real port that writes what it sent to `log` (JSON) when closed: for a player process."""

    def __init__(self, port: OutputPort, log: str) -> None:
        self.port, self.name, self.log = port, port.name, log
        self.sent: list[tuple[int, ...]] = []

    def send(self, message: Sequence[int]) -> None:
        self.sent.append(tuple(message))
        self.port.send(message)

    def is_present(self) -> bool:
        return self.port.is_present()

    def close(self) -> None:
        self.port.close()
        Path(self.log).write_text(json.dumps(self.sent))


def open_logged(name: str, log: str) -> LoggedPort:
    """A picklable opener: the named output, logging what goes out to it."""
    from muse_tui.audition import open_output

    return LoggedPort(open_output(name), log)
