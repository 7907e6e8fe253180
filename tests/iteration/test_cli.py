"""`muse-studio modify | undo | redo | alternatives` on a session folder."""

from __future__ import annotations

import json
from pathlib import Path

import click
from click.testing import CliRunner

from muse_tui.cli.edit_commands import alternatives, modify, redo, undo
from muse_tui.store.checkpoint import load_checkpoint

from .conftest import Session


@click.group()
def cli() -> None:
    """The commands as the lead registers them on `muse-studio`."""


for command in (modify, undo, redo, alternatives):
    cli.add_command(command)


def _run(*args: str) -> click.testing.Result:
    return CliRunner().invoke(cli, list(args))


def test_modify_says_what_was_regenerated_and_what_was_kept(session: Session) -> None:
    result = _run("modify", str(session.folder), "Bass too busy, simplify")

    assert result.exit_code == 0, result.output
    assert "Regenerated bass" in result.output and "updated midi/bass.mid" in result.output
    assert (
        load_checkpoint(session.folder).song_state.history[0].user_text == "Bass too busy, simplify"
    )


def test_an_expensive_change_needs_yes_without_a_terminal(session: Session) -> None:
    refused = _run("modify", str(session.folder), "Change to F# minor")
    assert refused.exit_code == 1
    assert "Changing the key will regenerate" in refused.output and "--yes" in refused.output
    assert load_checkpoint(session.folder).song_state.key == "Eb"

    done = _run("modify", str(session.folder), "Change to F# minor", "--yes", "--json")
    assert done.exit_code == 0
    assert json.loads(done.output)["cost"] == "expensive"
    assert load_checkpoint(session.folder).song_state.key == "F#"


def test_undo_and_redo_by_steps(session: Session) -> None:
    _run("modify", str(session.folder), "Bass too busy, simplify")
    _run("modify", str(session.folder), "more swing on the drums")

    undone = _run("undo", str(session.folder), "--steps", "2")
    assert undone.exit_code == 0 and "Undid" in undone.output
    assert all(e.undone for e in load_checkpoint(session.folder).song_state.history)

    redone = _run("redo", str(session.folder), "--json")
    assert json.loads(redone.output)["status"] == "redone"


def test_alternatives_compare_then_select(session: Session) -> None:
    shown = _run("alternatives", str(session.folder), "--element", "track:bass")
    assert shown.exit_code == 0 and "Option A" in shown.output and "Option C" in shown.output

    picked = _run("alternatives", str(session.folder), "--element", "track:bass", "--select", "C")
    assert picked.exit_code == 0, picked.output
    assert "(cached)" in picked.output and "Use option C" in picked.output
    assert load_checkpoint(session.folder).song_state.history[-1].agent == "alternatives"


def test_bad_usage_exits_2_with_a_sentence(session: Session, tmp_path: Path) -> None:
    unknown = _run("alternatives", str(session.folder), "--element", "track:tuba")
    assert unknown.exit_code == 2 and "no tuba" in unknown.output
    nowhere = _run("modify", str(tmp_path), "make it darker")
    assert nowhere.exit_code == 2
    muddled = _run("modify", str(session.folder), "hmm")  # understood nothing: not usage (2)
    assert muddled.exit_code == 4 and "try" in muddled.output
