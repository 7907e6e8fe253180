"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.midi_ports import Loopback, MidiSystem, find_midi_system, new_loopback, unavailable


def pytest_configure(config: pytest.Config) -> None:
    """The quick check (`pytest -m "not slow"`) reads only some snapshots: unread ones warn.

    syrupy counts a snapshot whose test a marker deselected as unused and fails
    the run for it; the full run (no marker) still fails on a snapshot nothing reads.
    """
    if config.option.markexpr:
        config.option.warn_unused_snapshots = True


@pytest.fixture(scope="session")
def midi_system_or_reason() -> tuple[MidiSystem | None, str]:
    return find_midi_system()


@pytest.fixture
def midi_system(midi_system_or_reason: tuple[MidiSystem | None, str]) -> MidiSystem:
    """The real MIDI system (JACK or ALSA); skips, or fails under MUSE_REQUIRE_REAL_PORTS=1."""
    system, reason = midi_system_or_reason
    if system is None:
        unavailable(reason)
    return system


@pytest.fixture
def loopback(midi_system: MidiSystem) -> Iterator[Loopback]:
    """A recording virtual input; connect the code under test's output port to it."""
    port = new_loopback(midi_system)
    try:
        yield port
    finally:
        port.close()


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A settings folder of the test's own (MUSE_CONFIG_DIR), not created yet."""
    monkeypatch.setenv("MUSE_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "config"
