"""What to tell a producer when MIDI ports are missing: one sentence, then what to do, per OS."""

from __future__ import annotations

import sys

from muse_tui.knowledge.midi_setup import IAC_STEPS, LINUX_STEPS, LOOPMIDI_STEPS, PORTS_COMMAND


def no_midi_system(platform: str = sys.platform) -> str:
    """No MIDI backend works at all."""
    if platform.startswith("win"):
        return f"No MIDI output is available: {LOOPMIDI_STEPS}."
    if platform == "darwin":
        return f"No MIDI output is available: {IAC_STEPS}, then run {PORTS_COMMAND}."
    return f"No MIDI system is running: {LINUX_STEPS}, then run {PORTS_COMMAND}."


def no_virtual_ports(platform: str = sys.platform) -> str:
    """The OS cannot create a virtual output (Windows)."""
    if platform.startswith("win"):
        return f"Windows cannot create virtual MIDI ports: {LOOPMIDI_STEPS}."
    return f"Could not create the virtual MIDI port: {LINUX_STEPS}, then try again."


def no_match(query: str, available: list[str]) -> str:
    listed = ", ".join(repr(n) for n in available) if available else "none"
    return (
        f"No MIDI output matches {query!r}. Available: {listed}. "
        f"Run {PORTS_COMMAND} to see them and pass one with --port."
    )


def ambiguous(query: str, candidates: list[str]) -> str:
    listed = ", ".join(repr(n) for n in candidates)
    return f"{query!r} matches several MIDI outputs ({listed}): give more of the name with --port."


def port_lost(name: str) -> str:
    return (
        f"The MIDI output {name!r} went away, so playback stopped: reconnect it (or restart "
        f"JACK or loopMIDI), then pick it again with {PORTS_COMMAND}."
    )


def ports_kept_changing(name: str) -> str:
    return (
        f"Other programs kept adding and removing MIDI ports while muse-studio connected to "
        f"{name!r}: try again in a moment."
    )


def send_failed(name: str, error: object) -> str:
    return (
        f"Sending to the MIDI output {name!r} failed ({error}), so playback stopped: check the "
        f"port is still there with {PORTS_COMMAND} and pick it again."
    )


def could_not_open(error: object) -> str:
    return f"Could not open the MIDI output ({error}): see {PORTS_COMMAND} and pick it again."


def no_port_open() -> str:
    return f"No MIDI output is open: choose one with {PORTS_COMMAND} or play with --port NAME."


def nothing_loaded() -> str:
    return "There is no song to play yet: compose one or open a session first."
