"""MIDI output ports: list them on every backend, open one by name, or create `muse-studio`.

The backend follows mido's `MIDO_BACKEND` when set (`mido.backends.rtmidi/UNIX_JACK`);
otherwise every API python-rtmidi was built with that looks alive, ALSA before
JACK on Linux. Backends that are surely absent are not probed: ALSA and libjack
print to the terminal's stderr when they fail, and that would tear the studio's
screen.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

import rtmidi

from muse_tui.audition import port_advice
from muse_tui.audition.priority import started_first

VIRTUAL_PORT_NAME = "muse-studio"
CLIENT_NAME = "muse-studio"
JACK_DRAIN = 0.1  # seconds: several JACK cycles even with large buffers
RESCAN_INTERVAL = 1.0  # seconds; listing a backend opens a client, so not on every keypress
#: Opens of a port by name, each undone because other ports came or went meanwhile.
CONNECT_TRIES = 20

# Order of preference: the DESIGN.md rule (ALSA, then JACK on Linux), then the other OSes.
_API_ORDER = ("LINUX_ALSA", "UNIX_JACK", "MACOSX_CORE", "WINDOWS_MM")


class PortError(Exception):
    """A port problem the producer can fix; the message says what happened and what to do."""


@dataclass(frozen=True, slots=True)
class PortInfo:
    """An output port as listings show it: the exact name, and the backend it lives on."""

    name: str
    backend: str
    api: int


@runtime_checkable
class OutputPort(Protocol):
    """Where the player sends bytes. `is_present` must be cheap: it is polled while playing."""

    name: str

    def send(self, message: Sequence[int]) -> None: ...

    def is_present(self) -> bool: ...

    def close(self) -> None: ...


class RtMidiOutput:
    """An open python-rtmidi output: connected to a destination, or a virtual port of ours."""

    def __init__(self, midi_out: rtmidi.MidiOut, name: str, destination: str | None) -> None:
        self._midi_out = midi_out
        self.name = name
        self.destination = destination
        self.virtual = destination is None
        self._queued = midi_out.get_current_api() == rtmidi.API_UNIX_JACK
        self._last_send = -math.inf

    def send(self, message: Sequence[int]) -> None:
        self._midi_out.send_message(message)
        self._last_send = time.monotonic()

    def is_present(self) -> bool:
        """A destination port still exists (our own virtual port cannot vanish under us)."""
        if self.destination is None:
            return True
        try:
            return self.destination in self._midi_out.get_ports()
        except rtmidi.RtMidiError:
            return False

    def close(self) -> None:
        if self._queued:
            # JACK delivers once per cycle from a queue that closing throws away:
            # give the last note-offs a few cycles to leave.
            time.sleep(max(0.0, self._last_send + JACK_DRAIN - time.monotonic()))
        with contextlib.suppress(rtmidi.RtMidiError):
            self._midi_out.close_port()
        with contextlib.suppress(rtmidi.RtMidiError):
            self._midi_out.delete()


def backend_name(api: int) -> str:
    return rtmidi.get_api_display_name(api)


def midi_apis(env: Mapping[str, str] | None = None, platform: str = sys.platform) -> list[int]:
    """The rtmidi APIs to use, honouring MIDO_BACKEND; PortError if it names a missing one."""
    env = os.environ if env is None else env
    compiled = rtmidi.get_compiled_api()
    wanted = env.get("MIDO_BACKEND", "").strip()
    if wanted:
        module, _, api_name = wanted.partition("/")
        if module.rsplit(".", 1)[-1] != "rtmidi":
            raise PortError(
                f"MIDO_BACKEND={wanted} is not an rtmidi backend, and muse-studio plays through "
                "python-rtmidi: unset it or use e.g. mido.backends.rtmidi/UNIX_JACK."
            )
        if api_name:
            api = getattr(rtmidi, "API_" + api_name.upper(), None)
            if api is None or api not in compiled:
                have = ", ".join(_api_constant(a) for a in compiled)
                raise PortError(
                    f"MIDO_BACKEND asks for {api_name}, which this python-rtmidi lacks "
                    f"(it has {have}): unset MIDO_BACKEND or pick one of those."
                )
            return [api]
    ordered = [getattr(rtmidi, "API_" + n) for n in _API_ORDER if hasattr(rtmidi, "API_" + n)]
    return [a for a in ordered if a in compiled and _looks_alive(a, env, platform)]


def _api_constant(api: int) -> str:
    for name in _API_ORDER:
        if getattr(rtmidi, "API_" + name, None) == api:
            return name
    return backend_name(api)


def _looks_alive(api: int, env: Mapping[str, str], platform: str) -> bool:
    """False only when a backend is surely absent, so probing it would just print errors."""
    if api == rtmidi.API_LINUX_ALSA:
        return Path("/dev/snd/seq").exists()
    if api == rtmidi.API_UNIX_JACK:
        if not platform.startswith("linux"):
            return False  # JACK elsewhere only when MIDO_BACKEND asks for it
        server = env.get("JACK_DEFAULT_SERVER", "default")
        jack2 = Path(f"/dev/shm/jack_{server}_{os.getuid()}_0")
        runtime = env.get("XDG_RUNTIME_DIR", "")
        pipewire = bool(runtime) and Path(runtime, "pipewire-0").exists()
        return jack2.exists() or pipewire
    return True


def list_output_ports(apis: Sequence[int] | None = None) -> list[PortInfo]:
    """Every output port on every usable backend, in backend order."""
    found: list[PortInfo] = []
    for api in midi_apis() if apis is None else apis:
        try:
            midi_out = rtmidi.MidiOut(api, name=f"{CLIENT_NAME}-scan")
        except rtmidi.RtMidiError:
            continue
        try:
            found.extend(PortInfo(name, backend_name(api), api) for name in midi_out.get_ports())
        except rtmidi.RtMidiError:
            pass
        finally:
            midi_out.delete()
    return found


class PortScanner:
    """Port listings, rescanned at most once per `interval` seconds."""

    def __init__(
        self,
        lister: Callable[[], list[PortInfo]] = list_output_ports,
        clock: Callable[[], float] = time.monotonic,
        interval: float = RESCAN_INTERVAL,
    ) -> None:
        self._lister = lister
        self._clock = clock
        self._interval = interval
        self._ports: list[PortInfo] = []
        self._scanned_at: float | None = None

    def ports(self, *, rescan: bool = False) -> list[PortInfo]:
        """The last listing (scanning the first time); `rescan` refreshes it, throttled."""
        now = self._clock()
        if self._scanned_at is None or (rescan and now - self._scanned_at >= self._interval):
            self._ports = self._lister()
            self._scanned_at = now
        return list(self._ports)


SCANNER = PortScanner()


def match_port(query: str, ports: Sequence[PortInfo]) -> PortInfo:
    """The port named exactly `query`, else the only one containing it (ignoring case)."""
    for port in ports:
        if port.name == query:
            return port
    folded = query.casefold()
    candidates = [p for p in ports if folded in p.name.casefold()]
    names = list(dict.fromkeys(p.name for p in candidates))
    if len(names) == 1:
        return candidates[0]
    if not candidates:
        raise PortError(port_advice.no_match(query, [p.name for p in ports]))
    raise PortError(port_advice.ambiguous(query, names))


def open_output(
    query: str, *, scanner: PortScanner | None = None, client_name: str = CLIENT_NAME
) -> RtMidiOutput:
    """Open the output matching `query` (exact name or unique substring) and connect to it."""
    scanner = SCANNER if scanner is None else scanner
    ports = scanner.ports()
    try:
        port = match_port(query, ports)
    except PortError:
        port = match_port(query, scanner.ports(rescan=True))  # it may have just appeared
    return started_first(lambda: _connect(port, client_name))


def _connect(port: PortInfo, client_name: str) -> RtMidiOutput:
    """Open a client connected to `port` (on the calling thread, whose scheduling it inherits)."""
    try:
        midi_out = rtmidi.MidiOut(port.api, name=client_name)
    except rtmidi.RtMidiError as error:
        raise PortError(f"Could not open {port.name!r}. {port_advice.no_midi_system()}") from error
    try:
        opened = _open_by_name(midi_out, port.name)
    except (ValueError, rtmidi.RtMidiError) as error:
        midi_out.delete()
        raise PortError(port_advice.port_lost(port.name)) from error
    if not opened:
        midi_out.delete()
        raise PortError(port_advice.ports_kept_changing(port.name))
    return RtMidiOutput(midi_out, port.name, destination=port.name)


def _open_by_name(midi_out: rtmidi.MidiOut, name: str) -> bool:
    """Connect `midi_out` to the port called `name`; False if the ports never held still.

    rtmidi opens a port by its place in a listing it takes again inside `open_port`: a
    port of another program made or closed in between shifts the places, and the output
    connects to a neighbour (two players on one JACK server played into each other's
    ports). The listings before and after the open must agree up to `name`, else it is
    closed and tried again.
    """
    for _ in range(CONNECT_TRIES):
        before = midi_out.get_ports()
        index = before.index(name)  # ValueError: it went away
        midi_out.open_port(index, name=VIRTUAL_PORT_NAME)
        if midi_out.get_ports()[: index + 1] == before[: index + 1]:
            return True
        midi_out.close_port()
    return False


def open_virtual_output(
    port_name: str = VIRTUAL_PORT_NAME, *, client_name: str = CLIENT_NAME, api: int | None = None
) -> RtMidiOutput:
    """Create a virtual output other apps (MPC Beats) can listen to; not possible on Windows."""
    if sys.platform.startswith("win"):
        raise PortError(port_advice.no_virtual_ports())
    apis = [api] if api is not None else midi_apis()
    if not apis:
        raise PortError(port_advice.no_midi_system())
    before = set(_source_names(apis[0]))
    try:
        midi_out = started_first(lambda: _virtual(apis[0], client_name, port_name))
    except (rtmidi.RtMidiError, NotImplementedError) as error:
        raise PortError(port_advice.no_virtual_ports()) from error
    # The server may rename a second `muse-studio` client; find the name others will see.
    fresh = [n for n in _source_names(apis[0]) if n not in before and port_name in n]
    return RtMidiOutput(
        midi_out, fresh[0] if len(fresh) == 1 else f"{client_name}:{port_name}", None
    )


def _virtual(api: int, client_name: str, port_name: str) -> rtmidi.MidiOut:
    midi_out = rtmidi.MidiOut(api, name=client_name)
    midi_out.open_virtual_port(port_name)
    return midi_out


def _source_names(api: int) -> list[str]:
    """Ports other programs can read from (where our virtual output shows up)."""
    try:
        midi_in = rtmidi.MidiIn(api, name=f"{CLIENT_NAME}-scan")
    except rtmidi.RtMidiError:
        return []
    try:
        return midi_in.get_ports()
    except rtmidi.RtMidiError:
        return []
    finally:
        midi_in.delete()
