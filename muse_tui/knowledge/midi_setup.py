"""How to get a MIDI port on this computer, in one sentence per operating system."""

from __future__ import annotations

import sys

_HINTS = {
    "win32": (
        "Windows cannot create virtual MIDI ports: install loopMIDI, add a port named 'muse', "
        "choose it with `muse-studio ports`, and enable it as a MIDI input in MPC Beats."
    ),
    "darwin": (
        "Open Audio MIDI Setup → Window → Show MIDI Studio, double-click IAC Driver, tick "
        "'Device is online', then choose 'IAC Driver Bus 1' in muse-studio and MPC Beats."
    ),
    "linux": (
        "Start a JACK server (`jackd -d dummy &` or QjackCtl) or load the ALSA sequencer "
        "(`sudo modprobe snd-seq`), then connect the 'muse-studio' port to your synth."
    ),
}


def midi_port_hint(platform: str | None = None) -> str:
    """What the producer can do to get a MIDI output port on `platform` (default: this one)."""
    key = platform or sys.platform
    for prefix, hint in _HINTS.items():
        if key.startswith(prefix):
            return hint
    return _HINTS["linux"]
