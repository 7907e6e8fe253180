"""Real MIDI ports for tests: a JACK (or ALSA) loopback that records what arrives.

The code under test opens a real output port; the loopback is a virtual input
port connected to it that stamps every message with `time.perf_counter()` as it
arrives. Without JACK or ALSA the port tests skip with the reason, unless
`MUSE_REQUIRE_REAL_PORTS=1` (CI), where they fail instead: CI must never go
green by skipping the only tests that touch the real thing.
"""

from __future__ import annotations

import itertools
import math
import os
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import mido
import pytest
import rtmidi

from muse_tui.audition.priority import keep_time_first, started_first

REQUIRE_ENV = "MUSE_REQUIRE_REAL_PORTS"
_names = itertools.count(1)
QUEUE = 1 << 20  # messages rtmidi may hold for the poller: never the limit
POLL = 0.0005  # seconds between looks at an empty queue


@dataclass(frozen=True)
class MidiSystem:
    """A MIDI system a test can use: the rtmidi API and the matching mido backend name."""

    name: str  # "JACK" or "ALSA"
    api: int
    mido_backend: str

    def backend(self) -> mido.Backend:
        return mido.Backend(self.mido_backend, load=True)


def real_ports_required() -> bool:
    return os.environ.get(REQUIRE_ENV, "") == "1"


def unavailable(reason: str) -> None:
    """Skip the test for `reason`, or fail it when real ports are required."""
    if real_ports_required():
        pytest.fail(f"{REQUIRE_ENV}=1 but no real MIDI ports: {reason}", pytrace=False)
    pytest.skip(f"no real MIDI ports: {reason}")


def find_midi_system() -> tuple[MidiSystem | None, str]:
    """The MIDI system to test against (JACK first, then ALSA), or why there is none."""
    compiled = rtmidi.get_compiled_api()
    reasons = []
    if rtmidi.API_UNIX_JACK in compiled:
        if shutil.which("jack_lsp") is None:
            reasons.append("JACK tools are not installed (apt-get install jackd2)")
        elif subprocess.run(["jack_lsp"], capture_output=True, timeout=10).returncode != 0:
            reasons.append(
                "no JACK server is running (start one: jackd -S --no-realtime -d dummy &)"
            )
        else:
            return MidiSystem("JACK", rtmidi.API_UNIX_JACK, "mido.backends.rtmidi/UNIX_JACK"), ""
    else:
        reasons.append("python-rtmidi was built without JACK")
    if rtmidi.API_LINUX_ALSA in compiled:
        if Path("/dev/snd/seq").exists():
            return MidiSystem("ALSA", rtmidi.API_LINUX_ALSA, "mido.backends.rtmidi/LINUX_ALSA"), ""
        reasons.append("ALSA has no sequencer device (/dev/snd/seq)")
    return None, "; ".join(reasons)


@dataclass
class Received:
    """A message as the loopback saw it arrive."""

    at: float  # time.perf_counter() on arrival
    message: mido.Message


@dataclass
class Loopback:
    """A virtual input port that records every message sent to it, with arrival times.

    Its JACK thread runs first (`started_first`: a late reader loses the cycle's
    events) and never runs Python: rtmidi queues each message with the time
    since the previous one (stamped in the JACK thread), and a poller here reads
    the queue. Arrival times are those offsets from one origin, the tightest
    `poll time - offset` seen, so a late poll cannot make a message look late.
    """

    system: MidiSystem
    client_name: str
    port: str = "in"
    _offsets: list[float] = field(default_factory=list)  # seconds since the first arrival
    _messages: list[mido.Message] = field(default_factory=list)
    _origin: float = math.inf
    _midi_in: rtmidi.MidiIn | None = None
    _poller: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _arrived: threading.Condition = field(init=False)
    _open: bool = False

    def __post_init__(self) -> None:
        self._arrived = threading.Condition(self._lock)

    @property
    def port_name(self) -> str:
        """The full name of the recording port, as output-port listings show it."""
        return f"{self.client_name}:{self.port}"

    @property
    def received(self) -> list[Received]:
        with self._lock:
            return self._snapshot()

    def _snapshot(self) -> list[Received]:
        pairs = zip(self._offsets, self._messages, strict=True)
        return [Received(self._origin + o, m) for o, m in pairs]

    def open(self) -> Loopback:
        def start() -> rtmidi.MidiIn:
            midi_in = rtmidi.MidiIn(self.system.api, name=self.client_name, queue_size_limit=QUEUE)
            midi_in.ignore_types(sysex=False, timing=False, active_sense=True)
            midi_in.open_virtual_port(self.port)
            return midi_in

        self._midi_in = started_first(start)
        self._open = True
        self._poller = threading.Thread(target=self._poll, name="loopback-poll", daemon=True)
        self._poller.start()
        return self

    def _poll(self) -> None:
        keep_time_first()
        offset = 0.0
        while self._open:
            midi_in = self._midi_in
            got = midi_in.get_message() if midi_in is not None else None
            if got is None:
                time.sleep(POLL)
                continue
            polled = time.perf_counter()
            data, delta = got
            offset += delta if self._offsets else 0.0
            with self._arrived:
                self._origin = min(self._origin, polled - offset)
                self._offsets.append(offset)
                self._messages.append(mido.Message.from_bytes(data))
                self._arrived.notify_all()

    def connect_from(self, source_port: str, timeout: float = 5.0) -> None:
        """Connect a virtual output (e.g. `muse-studio:muse-studio`) to this recorder."""
        if self.system.name == "JACK":
            deadline = time.monotonic() + timeout
            while True:
                done = subprocess.run(
                    ["jack_connect", source_port, self.port_name], capture_output=True, text=True
                )
                if done.returncode == 0 or "already" in done.stderr:
                    return
                if time.monotonic() > deadline:
                    raise RuntimeError(f"jack_connect {source_port} failed: {done.stderr.strip()}")
                time.sleep(0.02)  # the source port may still be registering with the server
        else:
            subprocess.run(["aconnect", source_port, self.port_name], check=True, timeout=timeout)

    def messages(self, *, voice_only: bool = True) -> list[mido.Message]:
        with self._lock:
            return [m for m in self._messages if not voice_only or not m.is_meta]

    def wait_for(self, count: int, timeout: float = 5.0) -> list[Received]:
        """Block until at least `count` messages arrived (or the timeout passes); return them."""
        with self._arrived:
            self._arrived.wait_for(lambda: len(self._messages) >= count, timeout=timeout)
            return self._snapshot()

    def wait_quiet(self, quiet_for: float = 0.1, timeout: float = 5.0) -> list[Received]:
        """Block until nothing new arrived for `quiet_for` seconds; return everything."""
        deadline = time.monotonic() + timeout
        seen = -1
        with self._arrived:
            while time.monotonic() < deadline:
                if len(self._messages) == seen:
                    break
                seen = len(self._messages)
                self._arrived.wait(timeout=quiet_for)
            return self._snapshot()

    def clear(self) -> None:
        with self._lock:
            self._offsets.clear()
            self._messages.clear()
            self._origin = math.inf

    def close(self) -> None:
        """Close the recording port: to the sender it is a port that vanished."""
        self._open = False
        if self._poller is not None:
            self._poller.join(1.0)
            self._poller = None
        if self._midi_in is not None:
            self._midi_in.close_port()
            self._midi_in.delete()
            self._midi_in = None


def new_loopback(system: MidiSystem) -> Loopback:
    return Loopback(system, client_name=f"muse-test-{os.getpid()}-{next(_names)}").open()
