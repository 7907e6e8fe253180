"""How to get a MIDI port on this computer: the steps per operating system, said once.

`midi_port_hint` is the one-sentence advice the studio and stage 8 give;
`muse_tui.audition.port_advice` builds its error sentences from the same steps.
"""

from __future__ import annotations

import sys

PORTS_COMMAND = "`muse-studio ports`"
LOOPMIDI_STEPS = (
    "install loopMIDI (https://www.tobias-erichsen.de/software/loopmidi.html), "
    "type muse-studio as the new port's name and press +, pick muse-studio as a MIDI input "
    "in MPC Beats (Edit → Preferences → MIDI), then play with `--port muse-studio`"
)
IAC_STEPS = (
    "open Audio MIDI Setup, choose Window → Show MIDI Studio, double-click IAC Driver "
    "and tick 'Device is online'"
)
LINUX_STEPS = (
    "start JACK (`jackd -d alsa &`, or `jackd --no-realtime -d dummy &` without a sound card) "
    "or load the ALSA sequencer with `sudo modprobe snd-seq`"
)

_HINTS = {
    "win32": f"Windows cannot create virtual MIDI ports: {LOOPMIDI_STEPS}.",
    "darwin": (
        f"To hear it, {IAC_STEPS}, then choose 'IAC Driver Bus 1' with {PORTS_COMMAND} "
        "and in MPC Beats."
    ),
    "linux": (f"To hear it, {LINUX_STEPS}, then connect the 'muse-studio' port to your synth."),
}


def midi_port_hint(platform: str | None = None) -> str:
    """What the producer can do to get a MIDI output port on `platform` (default: this one)."""
    key = platform or sys.platform
    for prefix, hint in _HINTS.items():
        if key.startswith(prefix):
            return hint
    return _HINTS["linux"]
