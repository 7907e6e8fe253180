"""`compose --play` when no MIDI port can be had: a partial success with the way forward."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tests.e2e.conftest import compose


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
