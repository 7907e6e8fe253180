"""`muse-studio ports` and `muse-studio play` against the JACK loopback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from muse_tui.cli.audition_commands import play, ports
from muse_tui.contracts import SongState
from muse_tui.store.settings import Settings, load_settings, save_settings
from tests.audition.fakes import note_balance
from tests.audition.songs import groove
from tests.midi_ports import Loopback

ROOT = Path(__file__).resolve().parents[2]
SESSION_ID = "session-20261122-abc123"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Settings and sessions in a temporary folder."""
    monkeypatch.setenv("MUSE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("MUSE_SESSIONS_DIR", str(tmp_path / "sessions"))
    return tmp_path


def write_session(root: Path, song: SongState) -> Path:
    folder = root / "sessions" / SESSION_ID
    (folder / "state").mkdir(parents=True)
    (folder / "state" / "song-state.json").write_text(song.to_json())
    (folder / "manifest.json").write_text("{}")
    return folder


def received_bytes(loopback: Loopback) -> list[tuple[int, ...]]:
    return [tuple(r.message.bytes()) for r in loopback.wait_quiet(quiet_for=0.2)]


def test_an_unknown_session_is_one_sentence_and_exit_1() -> None:
    done = CliRunner().invoke(play, [SESSION_ID])
    assert done.exit_code == 1
    assert done.output.count("\n") == 1 and "muse-studio sessions list" in done.output


def test_something_that_is_not_a_session_is_bad_usage() -> None:
    assert CliRunner().invoke(play, ["../elsewhere"]).exit_code == 2


def test_a_track_or_section_the_song_lacks_is_bad_usage(isolated: Path) -> None:
    write_session(isolated, groove(bars=2))
    missing_track = CliRunner().invoke(play, [SESSION_ID, "--track", "pad"])
    assert missing_track.exit_code == 2 and "no pad track" in missing_track.output
    missing_section = CliRunner().invoke(play, [SESSION_ID, "--section", "bridge"])
    assert missing_section.exit_code == 2 and "intro, hook" in missing_section.output


def test_a_broken_song_file_says_so(isolated: Path) -> None:
    folder = write_session(isolated, groove(bars=2))
    (folder / "state" / "song-state.json").write_text('{"tempo": "fast"')
    done = CliRunner().invoke(play, [str(folder)])
    assert done.exit_code == 1 and "cannot be read" in done.output


@pytest.mark.ports
def test_ports_lists_outputs_and_marks_the_chosen_one(loopback: Loopback) -> None:
    save_settings(Settings(midi_port=loopback.port_name))
    done = CliRunner().invoke(ports, [])
    assert done.exit_code == 0, done.output
    assert (
        f"* {loopback.port_name}  [Jack]" in done.output or f"* {loopback.port_name}" in done.output
    )
    listed = json.loads(CliRunner().invoke(ports, ["--json"]).output)
    assert {
        "name": loopback.port_name,
        "backend": listed["ports"][0]["backend"],
        "configured": True,
    } in listed["ports"]


@pytest.mark.ports
def test_play_a_session_folder_through_a_named_port(isolated: Path, loopback: Loopback) -> None:
    song = groove(bars=2, tempo=400)
    folder = write_session(isolated, song)
    done = CliRunner().invoke(play, [str(folder), "--port", loopback.client_name])
    assert done.exit_code == 0, done.output
    sent = received_bytes(loopback)
    assert sum(m[0] & 0xF0 == 0x90 for m in sent) == sum(len(t.notes) for t in song.tracks)
    assert note_balance(sent) == ({}, [])
    assert load_settings()[0].midi_port == loopback.port_name, "the choice is remembered"


@pytest.mark.ports
def test_play_one_track_of_one_section(isolated: Path, loopback: Loopback) -> None:
    save_settings(Settings(midi_port=loopback.port_name))
    write_session(isolated, groove(bars=2, tempo=400))
    done = CliRunner().invoke(play, [SESSION_ID, "--track", "bass", "--section", "hook"])
    assert done.exit_code == 0, done.output
    notes = [m for m in received_bytes(loopback) if m[0] & 0xF0 == 0x90]
    assert notes == [(0x91, 41, 96), (0x91, 41, 96)]  # the hook's bass, nothing else


@pytest.mark.ports
def test_a_port_that_is_not_there_is_one_sentence_and_exit_1(isolated: Path) -> None:
    write_session(isolated, groove(bars=2))
    done = CliRunner().invoke(play, [SESSION_ID, "--port", "no-such-port-xyz"])
    assert done.exit_code == 1
    assert done.output.startswith("No MIDI output matches 'no-such-port-xyz'.")


@pytest.mark.ports
def test_ctrl_c_stops_cleanly_with_every_note_off(isolated: Path, loopback: Loopback) -> None:
    folder = write_session(isolated, groove(bars=8, tempo=240))
    command = "from muse_tui.cli.audition_commands import play; play()"
    child = subprocess.Popen(
        [sys.executable, "-c", command, str(folder), "--loop", "--port", loopback.port_name],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        loopback.wait_for(60, timeout=15)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=10)
    finally:
        child.kill()
    assert child.returncode == 130, err
    assert "Stopped." in out
    sent = received_bytes(loopback)
    assert sum(m[0] & 0xF0 == 0x90 for m in sent) > 20
    assert note_balance(sent) == ({}, [])
