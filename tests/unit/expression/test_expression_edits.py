"""Expression edits are cheap: the controller data changes, no note does."""

from __future__ import annotations

from pathlib import Path

import mido
import pytest
from click.testing import CliRunner

from muse_tui.cli import main
from muse_tui.compose.requests import parse_request


def _messages(path: Path) -> tuple[list[tuple[int, int, int]], list[str]]:
    notes, other, tick = [], [], 0
    for message in mido.MidiFile(path).tracks[1]:
        tick += message.time
        if message.type in ("note_on", "note_off"):
            notes.append((tick, message.note, message.velocity))
        elif message.type == "aftertouch" or (
            message.type == "control_change" and message.control == 64
        ):
            other.append(message.type if message.type == "aftertouch" else "pedal")
    return notes, other


def _composed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prompt: str
) -> tuple[CliRunner, Path]:
    """`prompt` composed through the CLI (seed 2) into a sessions folder of the test's own."""
    monkeypatch.setenv("MUSE_SESSIONS_DIR", str(tmp_path / "sessions"))
    monkeypatch.setenv("MUSE_CONFIG_DIR", str(tmp_path / "config"))
    runner = CliRunner()
    composed = runner.invoke(main, ["compose", prompt, "--yes", "--seed", "2"])
    assert composed.exit_code == 0, composed.output
    (session,) = (tmp_path / "sessions").iterdir()
    return runner, session


def test_reading_expression_requests() -> None:
    (edit,) = parse_request("add sustain pedal to the keys").edits
    assert edit.operation == "expression" and edit.scope.role == "keys"
    assert str(edit.value).startswith("+")
    (edit,) = parse_request("no vibrato on the lead").edits
    assert str(edit.value).startswith("-") and '"vibrato"' in str(edit.value)


def test_adding_pressure_and_lifting_the_pedal_change_no_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner, session = _composed(tmp_path, monkeypatch, "neo soul with rhodes, 16 bars")
    keys = session / "midi" / "keys.mid"
    notes, other = _messages(keys)
    assert "pedal" in other and "aftertouch" not in other

    added = runner.invoke(main, ["modify", str(session), "add aftertouch to the keys"])
    assert added.exit_code == 0, added.output
    assert "cheap" in added.output.lower()
    after_notes, after_other = _messages(keys)
    assert after_notes == notes and "aftertouch" in after_other and "pedal" in after_other

    again = runner.invoke(main, ["modify", str(session), "add aftertouch to the keys"])
    assert "already has channel pressure" in again.output

    lifted = runner.invoke(main, ["modify", str(session), "remove the sustain pedal from the keys"])
    assert lifted.exit_code == 0, lifted.output
    final_notes, final_other = _messages(keys)
    assert final_notes == notes and "pedal" not in final_other and "aftertouch" in final_other


def _sweep(path: Path) -> list[int]:
    """The file's CC74 (filter) values, in order."""
    track = mido.MidiFile(path).tracks[1]
    return [m.value for m in track if m.type == "control_change" and m.control == 74]


def test_a_sweep_asked_for_the_keys_lands_on_the_piano_that_plays_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A song without a keys track: the piano (a chords track) stands in, and gets it."""
    runner, session = _composed(tmp_path, monkeypatch, "soul ballad with piano and drums, 8 bars")
    assert not (session / "midi" / "keys.mid").exists()
    chords = session / "midi" / "chords.mid"
    notes, _ = _messages(chords)
    before = _sweep(chords)  # a transition's own filter moves, if any

    added = runner.invoke(main, ["modify", str(session), "add a filter sweep to the keys"])
    assert added.exit_code == 0, added.output
    assert _messages(chords)[0] == notes
    assert len(_sweep(chords)) > len(before) + 8, "the sweep is written on the piano"
