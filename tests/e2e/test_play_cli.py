"""`compose --play` when no MIDI port can be had: a partial success with the way forward."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from muse_tui.contracts import SongState
from muse_tui.store.settings import Settings, save_settings
from tests.audition.fakes import note_balance
from tests.e2e.conftest import compose
from tests.midi_ports import Loopback


def test_play_with_no_port_completes_partially_with_the_hint(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    from muse_tui.audition import PortError
    from muse_tui.cli import playback

    def no_port(query: str | None = None) -> None:
        raise PortError("No MIDI output is available.")

    monkeypatch.setattr(playback, "choose_output", no_port)
    code, out = compose(runner, "house, 124", "--seed", "1", "--bars", "16", "--yes", "--play")
    assert code == 3, out
    assert "No MIDI output is available" in out
    assert "is ready, but" in out
    assert "Traceback" not in out


@pytest.mark.ports
@pytest.mark.slow
def test_compose_play_sends_every_note_of_the_song_and_lets_them_all_go(
    runner: CliRunner, tmp_path: Path, loopback: Loopback
) -> None:
    """`compose --play` plays through the real-time player process into the chosen output."""
    save_settings(Settings(midi_port=loopback.port_name))
    code, out = compose(runner, "house, 124", "--seed", "3", "--bars", "8", "--yes", "--play")
    assert code == 0, out
    assert f"Playing through {loopback.port_name}" in out
    received = [tuple(r.message.bytes()) for r in loopback.wait_quiet(quiet_for=0.3)]
    (song_file,) = (tmp_path / "sessions").glob("*/state/song-state.json")
    song = SongState.from_json(song_file.read_bytes())
    assert sum(m[0] & 0xF0 == 0x90 and m[2] > 0 for m in received) == sum(
        len(t.notes) for t in song.tracks
    )
    assert note_balance(received) == ({}, [])
