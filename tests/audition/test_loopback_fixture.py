"""The loopback fixture itself: a real port carries a note sequence intact and in order."""

from __future__ import annotations

import time

import mido
import pytest

from tests.midi_ports import Loopback, MidiSystem

pytestmark = pytest.mark.ports


def _phrase() -> list[mido.Message]:
    """A C minor arpeggio with overlapping notes, a sustain move and a pitch bend."""
    messages: list[mido.Message] = [
        mido.Message("control_change", channel=1, control=64, value=127)
    ]
    for i, note in enumerate([60, 63, 67, 72, 75]):
        messages.append(mido.Message("note_on", channel=1, note=note, velocity=70 + i * 10))
        if i:
            messages.append(mido.Message("note_off", channel=1, note=note - 3 if i == 1 else note))
    messages.append(mido.Message("pitchwheel", channel=1, pitch=-4096))
    messages.append(mido.Message("control_change", channel=1, control=64, value=0))
    return messages


def test_a_note_sequence_arrives_intact_and_in_order(
    midi_system: MidiSystem, loopback: Loopback
) -> None:
    backend = midi_system.backend()
    client = f"{loopback.client_name}-sender"
    with backend.open_output("out", virtual=True, client_name=client) as out:
        loopback.connect_from(f"{client}:out")
        sent = _phrase()
        stamps = []
        for message in sent:
            stamps.append(time.perf_counter())
            out.send(message)
        arrived = loopback.wait_for(len(sent), timeout=5)

    assert [r.message for r in arrived] == sent
    assert all(r.at >= s for r, s in zip(arrived, stamps, strict=True))
    assert [r.at for r in arrived] == sorted(r.at for r in arrived)


def test_closing_the_recorder_removes_its_port(midi_system: MidiSystem, loopback: Loopback) -> None:
    backend = midi_system.backend()
    assert loopback.port_name in backend.get_output_names()
    loopback.close()
    deadline = time.monotonic() + 2
    while loopback.port_name in backend.get_output_names() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert loopback.port_name not in backend.get_output_names()
