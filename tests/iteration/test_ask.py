"""`muse-studio ask` and the answers it gives: read from the session, and nothing changes."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from muse_tui.cli.ask_commands import ask
from muse_tui.cli.edit_commands import modify
from muse_tui.compose.answers import answer
from muse_tui.compose.harmony import song_key
from muse_tui.store.checkpoint import load_checkpoint

from .conftest import Session


@click.group()
def cli() -> None:
    """The commands as the lead registers them on `muse-studio`."""


cli.add_command(ask)
cli.add_command(modify)


def _run(*args: str) -> click.testing.Result:
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize(
    "question",
    [
        "why did you pick Eb minor?",
        "what preset should I use for the bass?",
        "what are the chords?",
        "what plays in each section?",
        "how do I load it in MPC Beats?",
        "what's the bass doing?",
    ],
)
def test_asking_changes_no_file(session: Session, question: str) -> None:
    before = session.fingerprints()
    result = _run("ask", str(session.folder), question, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["topic"] not in ("unknown", "no_session")
    assert session.fingerprints() == before


def test_a_question_given_to_modify_changes_nothing(session: Session) -> None:
    before = session.fingerprints()
    result = _run("modify", str(session.folder), "why did you pick Eb minor?")
    assert result.exit_code == 0, result.output
    assert "nothing changed" in result.output.lower()
    assert session.fingerprints() == before
    assert load_checkpoint(session.folder).song_state.history == []


def test_the_key_answer_is_the_songs_key_and_says_why(session: Session) -> None:
    said = answer("what key is it in and why?", session.pipeline, session.folder)
    song = session.pipeline.song_state
    assert said.facts["key"] == song_key(song).name == "Eb minor"
    assert said.facts["source"] == "explicit" and "you asked for it" in said.text


def test_the_chords_answer_lists_the_progression_with_numerals(session: Session) -> None:
    said = answer("what are the chords?", session.pipeline, session.folder)
    progression = session.pipeline.song_state.progression
    assert progression is not None
    assert [(c["chord"], c["numeral"]) for c in said.facts["chords"]] == [
        (c.symbol, c.roman) for c in progression.chords
    ]


def test_the_sections_answer_follows_the_arrangement(session: Session) -> None:
    said = answer("what plays in each section?", session.pipeline, session.folder)
    song = session.pipeline.song_state
    assert song.arrangement is not None
    sections = song.arrangement.sections
    assert [r["section"] for r in said.facts["sections"]] == [s.name for s in sections]
    assert [r["bars"] for r in said.facts["sections"]] == [
        [s.start_bar + 1, s.end_bar] for s in sections
    ]
    drums = song.track("drums")
    assert drums is not None
    for row, section in zip(said.facts["sections"], sections, strict=True):
        begin, end = section.start_bar * 4, section.end_bar * 4
        heard = any(r.notes and r.start_beat < end and r.end_beat > begin for r in drums.regions)
        assert (drums.name in row["playing"]) == heard


def test_the_sound_answer_names_the_bass_preset_and_why(session: Session) -> None:
    said = answer("what preset is on the bass?", session.pipeline, session.folder)
    bass = session.pipeline.song_state.track("bass")
    assert bass is not None and bass.preset is not None
    (row,) = said.facts["tracks"]
    assert row["track"] == bass.name and row["preset"] == bass.preset.name
    assert row["why"] and "Why:" in said.text


def test_loading_into_mpc_beats_quotes_the_sessions_own_quick_start(session: Session) -> None:
    said = answer("how do I load this in MPC Beats?", session.pipeline, session.folder)
    assert "producer-notes.md" in said.text and "Open MPC Beats" in said.text
    assert "midi/full-arrangement.mid" in said.text and "**" not in said.text


def test_theory_needs_no_session_and_an_unknown_question_exits_4() -> None:
    result = _run("ask", "what is a ii-V in Eb?")
    assert result.exit_code == 0 and "ii = Fm" in result.output
    result = _run("ask", "who is the best drummer ever?")
    assert result.exit_code == 4 and "notes in Cmaj9" in result.output  # not understood
