"""`muse-studio modify SESSION "…" --preview | --accept | --discard` on a session folder."""

from __future__ import annotations

import json

import click
from click.testing import CliRunner

from muse_tui.cli.edit_commands import modify
from muse_tui.store.checkpoint import load_checkpoint

from .conftest import Session


def song_files(session: Session) -> dict[str, str]:
    """The session's files, its proposal and its lock file left out."""
    return {
        name: digest
        for name, digest in session.fingerprints().items()
        if not name.startswith("proposal/") and name != ".muse-lock"
    }


@click.group()
def cli() -> None:
    """The command as the lead registers it on `muse-studio`."""


cli.add_command(modify)


def _run(*args: str) -> click.testing.Result:
    return CliRunner().invoke(cli, list(args))


def test_preview_says_what_would_change_and_changes_only_the_proposal(session: Session) -> None:
    before = song_files(session)
    shown = _run("modify", str(session.folder), "what would it sound like in D minor?", "--preview")

    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith("Proposed: Moved the song to D minor.")
    assert "would update midi/bass.mid" in shown.output
    assert song_files(session) == before
    assert load_checkpoint(session.folder).song_state.key == "Eb"

    done = _run("modify", str(session.folder), "--accept", "--json")
    assert done.exit_code == 0, done.output
    result = json.loads(done.output)
    assert result["status"] == "applied" and "midi/bass.mid" in result["updatedFiles"]
    assert result["historyEntry"]["userText"] == "what would it sound like in D minor?"
    assert load_checkpoint(session.folder).song_state.key == "D"


def test_preview_json_and_a_second_preview_replaces_the_first(session: Session) -> None:
    _run("modify", str(session.folder), "Bass too busy, simplify", "--preview")
    shown = _run("modify", str(session.folder), "change the key to D minor", "--preview", "--json")

    made = json.loads(shown.output)
    assert made["status"] == "proposed" and made["replaced"] == "Bass too busy, simplify"
    assert made["proposal"]["request"] == "change the key to D minor"
    assert made["proposal"]["cost"] == "expensive"
    assert "pipeline" not in made


def test_discard_then_nothing_to_accept_in_one_sentence(session: Session) -> None:
    before = song_files(session)
    _run("modify", str(session.folder), "Bass too busy, simplify", "--preview")

    gone = _run("modify", str(session.folder), "--discard")
    assert gone.exit_code == 0 and gone.output.startswith("Discarded the proposal")
    assert song_files(session) == before
    nothing = _run("modify", str(session.folder), "--accept")
    assert nothing.exit_code == 0
    assert nothing.output.strip().startswith("There is no proposal to accept")
    assert len(nothing.output.strip().splitlines()) == 1
    assert load_checkpoint(session.folder).song_state.history == []


def test_a_direct_change_says_it_dropped_the_proposal(session: Session) -> None:
    _run("modify", str(session.folder), "change the key to D minor", "--preview")
    done = _run("modify", str(session.folder), "louder bass")
    assert done.exit_code == 0, done.output
    assert "The pending proposal “change the key to D minor” was dropped." in done.output
    assert not (session.folder / "proposal").exists()


def test_bad_combinations_are_usage_errors(session: Session) -> None:
    both = _run("modify", str(session.folder), "--accept", "--discard")
    assert both.exit_code == 2 and "go alone" in both.output
    not_a_change = _run("modify", str(session.folder), "sounds great", "--preview")
    assert not_a_change.exit_code == 2 and "nothing to preview" in not_a_change.output
    assert not (session.folder / "proposal").exists()
