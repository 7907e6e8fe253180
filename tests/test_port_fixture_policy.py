"""Without real ports the port tests skip, except when CI requires real ports."""

from __future__ import annotations

import pytest

from tests.midi_ports import REQUIRE_ENV, unavailable


def test_missing_ports_skip_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(REQUIRE_ENV, raising=False)
    with pytest.raises(pytest.skip.Exception, match="no real MIDI ports: no JACK"):
        unavailable("no JACK")


def test_missing_ports_fail_when_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="MUSE_REQUIRE_REAL_PORTS=1 but no real MIDI"):
        unavailable("no JACK")
