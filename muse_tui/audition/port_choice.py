"""Which output to audition through: the one asked for, the remembered one, or `muse-studio`."""

from __future__ import annotations

import functools
from collections.abc import Callable

from muse_tui.audition.ports import (
    SCANNER,
    VIRTUAL_PORT_NAME,
    OutputPort,
    PortError,
    PortScanner,
    RtMidiOutput,
    match_port,
    open_output,
    open_virtual_output,
)
from muse_tui.store.atomic import WriteFailed
from muse_tui.store.settings import load_settings, update_settings

Opener = Callable[[], OutputPort]


def configured_port() -> str | None:
    """The output the producer chose last time, if any."""
    settings, _ = load_settings()
    return settings.midi_port


def remember_port(name: str | None) -> str | None:
    """Keep `name` as the chosen output (None: back to the virtual port); a notice if it can't."""
    try:
        update_settings(midi_port=name)
    except WriteFailed as exc:
        return f"Could not remember the MIDI output ({exc}); it is used for this run only."
    return None


def names_the_virtual_port(query: str) -> bool:
    """`--port muse-studio` asks for the virtual port this program makes, which no listing
    shows until it is made."""
    return query.strip().lower() == VIRTUAL_PORT_NAME


def _forget_the_chosen_port() -> list[str]:
    """The virtual port is what plays when none is chosen: choosing it forgets the choice."""
    if configured_port() is None:
        return []
    notice = remember_port(None)
    return [notice] if notice else []


def open_configured_output(
    query: str | None = None, *, scanner: PortScanner | None = None
) -> tuple[RtMidiOutput, list[str]]:
    """Open `query` (and remember it), else the remembered output, else the virtual port.

    Returns the port and notices worth showing (a remembered port that is gone,
    a setting that could not be saved). Raises PortError when nothing can be opened.
    """
    notices: list[str] = []
    if query is not None and names_the_virtual_port(query):
        notices.extend(_forget_the_chosen_port())
        return open_virtual_output(), notices
    if query is not None:
        port = open_output(query, scanner=scanner)
        if port.name != configured_port():
            notice = remember_port(port.name)
            notices.extend([notice] if notice else [])
        return port, notices
    remembered = configured_port()
    if remembered is not None:
        try:
            return open_output(remembered, scanner=scanner), notices
        except PortError as exc:
            notices.append(f"The remembered output is not available: {exc}")
    try:
        return open_virtual_output(), notices
    except PortError as exc:
        if notices:
            raise PortError(f"{notices[0]} {exc}") from exc
        raise


def choose_output(
    query: str | None = None, *, scanner: PortScanner | None = None
) -> tuple[Opener, list[str]]:
    """Like `open_configured_output`, but returns how to open it, for a player process to call.

    The choice (and remembering it) happens here; the port opens in the player's
    process. Raises PortError when `query` matches no output.
    """
    scanner = SCANNER if scanner is None else scanner
    notices: list[str] = []
    if query is not None and names_the_virtual_port(query):
        return open_virtual_output, _forget_the_chosen_port()
    if query is not None:
        try:
            port = match_port(query, scanner.ports())
        except PortError:
            port = match_port(query, scanner.ports(rescan=True))  # it may have just appeared
        if port.name != configured_port():
            notice = remember_port(port.name)
            notices.extend([notice] if notice else [])
        return functools.partial(open_output, port.name), notices
    remembered = configured_port()
    if remembered is not None:
        try:
            match_port(remembered, scanner.ports(rescan=True))
            return functools.partial(open_output, remembered), notices
        except PortError as exc:
            notices.append(f"The remembered output is not available: {exc}")
    return open_virtual_output, notices
