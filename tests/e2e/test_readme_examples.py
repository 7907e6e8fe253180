"""The README's headless examples, as written, on songs of every genre."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from muse_tui.cli import main
from muse_tui.contracts import SessionManifest
from muse_tui.knowledge import genre_table
from muse_tui.store.checkpoint import load_checkpoint

README = Path(__file__).resolve().parents[2] / "README.md"
COMMAND = ".venv/bin/muse-studio "
#: Need a MIDI port: run by hand (and by the audition tests), not here.
NEEDS_A_PORT = {"ports", "play"}


def readme_examples() -> list[list[str]]:
    """Every `.venv/bin/muse-studio …` line of the README's shell blocks, as arguments."""
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(), re.S)
    lines = [line for block in blocks for line in block.splitlines()]
    return [
        shlex.split(line[len(COMMAND) :], comments=True)
        for line in lines
        if line.startswith(COMMAND)
    ]


def _compose(runner: CliRunner, prompt: str) -> str:
    result = runner.invoke(
        main, ["compose", prompt, "--seed", "3", "--bars", "16", "--yes", "--json"]
    )
    assert result.exit_code == 0, result.output
    return SessionManifest.from_json(result.stdout).session_id


def test_the_readme_runs_every_command_as_the_venv_installs_it() -> None:
    examples = readme_examples()
    assert len(examples) >= 10
    assert (
        "muse-studio "
        not in README.read_text().replace(COMMAND, "").split("## Without")[1].split("```")[1]
    ), "every example in the block is spelled with .venv/bin/"
    assert "../" not in README.read_text(), "no link outside the repository"


@pytest.mark.parametrize("prompt", ["dark trap, 140, key of Am", "deep house, 124", "jazz, 110"])
def test_every_readme_example_works(runner: CliRunner, prompt: str) -> None:
    session = _compose(runner, prompt)
    for args in readme_examples():
        if args[0] in NEEDS_A_PORT or "--play" in args:
            continue
        if args[0] == "compose":
            args = [*args, "--bars", "16"] if "--bars" not in args else args
            args = [*args, "--yes"] if "--yes" not in args else args
        args = [session if a == "SESSION" else a for a in args]
        result = runner.invoke(main, args)
        assert result.exit_code == 0, (args, result.output)
        assert "Traceback" not in result.output


def test_track_bass_finds_the_808_and_exact_roles_win(runner: CliRunner, tmp_path: Path) -> None:
    trap = _compose(runner, "dark trap, 140, key of Am")
    shown = runner.invoke(main, ["alternatives", trap, "--element", "track:bass", "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output)["element"]["role"] == "sub_bass"
    by_name = runner.invoke(main, ["alternatives", trap, "--element", "track:808", "--json"])
    assert json.loads(by_name.output)["element"]["role"] == "sub_bass"

    dubstep = _compose(runner, "dubstep, 140")  # a bass and a sub_bass: bass means bass
    roles = {t.role for t in load_checkpoint(tmp_path / "sessions" / dubstep).song_state.tracks}
    assert {"bass", "sub_bass"} <= roles
    both = runner.invoke(main, ["alternatives", dubstep, "--element", "track:bass", "--json"])
    assert json.loads(both.output)["element"]["role"] == "bass"

    unknown = runner.invoke(main, ["alternatives", trap, "--element", "track:tuba"])
    assert unknown.exit_code == 2 and "no tuba" in unknown.output


#: Genres whose band has a bass player (solo piano's left hand and an Irish session have none).
WITH_BASS = sorted(
    g for g, dna in genre_table().genres.items() if {"bass", "sub_bass"} & set(dna.roles)
)


@pytest.mark.slow
@pytest.mark.parametrize("genre", WITH_BASS)
def test_track_bass_exists_on_every_genre(runner: CliRunner, genre: str) -> None:
    session = _compose(runner, genre.replace("_", " "))
    result = runner.invoke(
        main, ["alternatives", session, "--element", "track:bass", "--count", "2"]
    )
    assert result.exit_code == 0, result.output


@pytest.mark.slow
def test_track_bass_on_a_genre_without_one_says_so(runner: CliRunner) -> None:
    """An Irish session has no bass player: asking to vary it names the tracks it has."""
    session = _compose(runner, "irish folk")
    result = runner.invoke(main, ["alternatives", session, "--element", "track:bass"])
    assert result.exit_code == 2 and "There is no bass to vary" in result.output


def test_the_readme_says_what_ask_answers() -> None:
    """Issue 33: the README showed two `ask` lines and never said what it can answer."""
    said = " ".join(README.read_text().split())
    ask = said[said.index("`ask` answers") :][:900]
    for topic in ("key", "chords", "Roman numerals", "tempo", "sections", "tracks", "preset",
                  "effects", "MPC Beats", "notes of a chord", "exits 4"):  # fmt: skip
        assert topic in ask, topic


def test_the_readme_says_what_a_producer_would_otherwise_find_out_the_hard_way() -> None:
    """Issue 33: where the port is remembered, what a running studio does to the real-port
    tests, and under what load the test times were measured."""
    said = " ".join(README.read_text().split())
    assert "remembered in your user's settings file" in said and "every checkout" in said
    assert "Close any muse-studio you have running" in said and "real-port tests" in said
    assert "measured on a loaded machine" in said
