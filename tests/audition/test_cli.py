"""`muse-studio ports` and `muse-studio play` against the JACK loopback."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from muse_tui.cli.audition_commands import play, ports
from muse_tui.contracts import SongState
from muse_tui.store.settings import Settings, load_settings, save_settings
from tests.audition.fakes import note_balance, wait_until
from tests.audition.hangs import PYTHON, as_from_a_terminal, communicate_or_explain
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
def test_ports_lists_the_virtual_port_play_makes(loopback: Loopback) -> None:
    done = CliRunner().invoke(ports, [])
    assert done.exit_code == 0, done.output
    assert "* muse-studio  [virtual: made when playing]" in done.output, "ours, and the one used"
    listed = json.loads(CliRunner().invoke(ports, ["--json"]).output)["ports"]
    assert {"name": "muse-studio", "backend": "virtual", "configured": True} in listed


def _jack_ports() -> set[str]:
    done = subprocess.run(["jack_lsp"], capture_output=True, text=True, timeout=10)
    return set(done.stdout.split())


@pytest.mark.ports
def test_port_muse_studio_plays_through_the_virtual_port_and_forgets_the_choice(
    isolated: Path, loopback: Loopback
) -> None:
    if loopback.system.name != "JACK":
        pytest.skip("finding the new virtual port by name is written for JACK")
    save_settings(Settings(midi_port=loopback.port_name))
    folder = write_session(isolated, groove(bars=2, tempo=400))
    before = _jack_ports()
    command = "from muse_tui.cli.audition_commands import play; play()"
    child = subprocess.Popen(
        [*PYTHON, "-c", command, str(folder), "--loop", "--port", "muse-studio"],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=as_from_a_terminal,
    )
    try:
        ours = re.compile(r"^muse-studio(-\d+)?:muse-studio$")
        assert wait_until(lambda: any(ours.match(p) for p in _jack_ports() - before), timeout=30)
        (made,) = [p for p in _jack_ports() - before if ours.match(p)]
        loopback.connect_from(made)
        assert wait_until(lambda: len(loopback.received) >= 8, timeout=10), "its notes arrive"
    finally:
        os.killpg(child.pid, signal.SIGINT)
        out, err = communicate_or_explain(child, timeout=30, group=True)
    assert child.returncode == 130, err
    assert "virtual output" in out
    sounding, _ = note_balance(received_bytes(loopback))  # joined mid-bar: early offs are orphans
    assert sounding == {}, "nothing left sounding"
    assert load_settings()[0].midi_port is None, "the virtual port is the default again"


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


def _play_in_a_child(folder: Path, loopback: Loopback) -> subprocess.Popen[str]:
    command = "from muse_tui.cli.audition_commands import play; play()"
    return subprocess.Popen(
        [*PYTHON, "-c", command, str(folder), "--loop", "--port", loopback.port_name],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal gives it
        preexec_fn=as_from_a_terminal,
    )


def _tail_of(sent: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The messages after the last note-on: the release."""
    last_on = max(i for i, m in enumerate(sent) if m[0] & 0xF0 == 0x90 and m[2] > 0)
    return sent[last_on + 1 :]


@pytest.mark.ports
@pytest.mark.parametrize(
    ("signum", "to_group", "code"),
    [
        (signal.SIGINT, True, 130),  # Ctrl-C reaches the terminal's whole process group
        (signal.SIGTERM, False, 143),  # `kill PID`
        (signal.SIGHUP, True, 129),  # the terminal closed: the whole group hears it
    ],
    ids=["INT", "TERM", "HUP"],
)
def test_a_signal_stops_playback_with_every_note_off(
    isolated: Path, loopback: Loopback, signum: int, to_group: bool, code: int
) -> None:
    folder = write_session(isolated, groove(bars=8, tempo=240))
    child = _play_in_a_child(folder, loopback)
    try:
        loopback.wait_for(60, timeout=30)
        if to_group:
            os.killpg(child.pid, signum)
        else:
            child.send_signal(signum)
        out, err = communicate_or_explain(child, 15, group=True)
    finally:
        child.kill()
    assert child.returncode == code, err
    assert "Stopped." in out or signum == signal.SIGHUP  # a hung-up terminal shows nothing
    assert "Traceback" not in err
    sent = received_bytes(loopback)
    assert sum(m[0] & 0xF0 == 0x90 for m in sent) > 20
    assert note_balance(sent) == ({}, [])
    tail = _tail_of(sent)
    channels = sorted({m[0] & 0x0F for m in sent if m[0] & 0xF0 == 0x90})
    resets = [m for m in tail if m[0] & 0xF0 == 0xB0]
    block = [(0xB0 | ch, 64, 0) for ch in channels] + [(0xB0 | ch, 123, 0) for ch in channels]
    sound_off = [(0xB0 | ch, 120, 0) for ch in channels]
    # The player lets go as it ends (a stop before it would release again: a spare All
    # Notes Off costs nothing), then All Sound Off as the last word on every channel.
    assert resets[-len(sound_off) :] == sound_off, "All Sound Off last, on every channel"
    releases = resets[: -len(sound_off)]
    assert releases and releases == block * (len(releases) // len(block)), (
        "sustain off, then All Notes Off, on every channel"
    )
    assert all(m[0] & 0xF0 == 0x80 for m in tail[: len(tail) - len(resets)])


@pytest.mark.ports
def test_the_player_process_silences_itself_when_play_is_killed(
    isolated: Path, loopback: Loopback
) -> None:
    folder = write_session(isolated, groove(bars=8, tempo=240))
    child = _play_in_a_child(folder, loopback)
    try:
        loopback.wait_for(60, timeout=30)
        child.send_signal(signal.SIGKILL)  # no handler runs: the player process is on its own
        child.communicate(timeout=15)
    finally:
        child.kill()
    sent = loopback.wait_quiet(quiet_for=0.5, timeout=10)
    received = [tuple(r.message.bytes()) for r in sent]
    assert note_balance(received) == ({}, [])
    assert (0xB0 | 9, 123, 0) in _tail_of(received)
