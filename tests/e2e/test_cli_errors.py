"""Errors a producer can cause on the command line: one sentence, a way forward, the right code."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from muse_tui.cli import main
from muse_tui.cli.common import ExitCode
from muse_tui.contracts import SessionManifest
from muse_tui.store import atomic
from tests.e2e.conftest import compose

TRAP = ("dark trap, 140, key of Am", "--seed", "7", "--bars", "16", "--yes")


@pytest.fixture
def full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A sessions folder on a disk with no room: a 64 KiB tmpfs when we may mount, else ENOSPC."""
    folder = tmp_path / "full"
    folder.mkdir()
    mounted = (
        os.geteuid() == 0
        and subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True
        ).returncode
        == 0
    )
    if not mounted:

        def no_space(fd: int) -> None:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(atomic.os, "fsync", no_space)
    try:
        yield folder
    finally:
        if mounted:
            subprocess.run(["umount", str(folder)], check=True)


def _one_sentence_and_a_way_forward(text: str) -> None:
    assert "Traceback" not in text
    assert "No space left on device" in text
    assert "Free some space (or choose another folder with --out)" in text


def test_compose_onto_a_full_disk_says_so_and_what_to_do(
    runner: CliRunner, full_disk: Path
) -> None:
    result = runner.invoke(main, ["compose", *TRAP, "--out", str(full_disk)])
    assert result.exit_code == ExitCode.FAILED
    _one_sentence_and_a_way_forward(result.stderr)
    assert result.stderr.count("\n") == 1, result.stderr


def test_compose_json_onto_a_full_disk_prints_an_error_object(
    runner: CliRunner, full_disk: Path
) -> None:
    result = runner.invoke(main, ["compose", *TRAP, "--json", "--out", str(full_disk)])
    assert result.exit_code == ExitCode.FAILED
    error = json.loads(result.stdout)["error"]
    _one_sentence_and_a_way_forward(f"{error['message']} {error['next']}")
    assert error["exitCode"] == 1
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["sessions", "show", "{ref}"],
        ["resume", "{ref}"],
        ["modify", "{ref}", "darker"],
        ["undo", "{ref}"],
        ["redo", "{ref}"],
        ["alternatives", "{ref}", "--element", "track:bass"],
    ],
    ids=lambda args: args[0] if args[0] != "sessions" else "show",
)
@pytest.mark.parametrize("ref", ["x" * 300, "/tmp/" + "a" * 256])
def test_a_reference_longer_than_a_file_name_is_bad_usage(
    runner: CliRunner, args: list[str], ref: str
) -> None:
    result = runner.invoke(main, [a.format(ref=ref) for a in args])
    assert result.exit_code == ExitCode.USAGE, result.output
    assert f"{len(ref):,} characters" in result.output
    assert "sessions list" in result.output and result.output.count("\n") == 1


def test_json_errors_are_objects_for_the_edit_commands(runner: CliRunner) -> None:
    result = runner.invoke(main, ["undo", "session-20261122-zzzzzz", "--json"])
    assert result.exit_code == ExitCode.FAILED
    error = json.loads(result.stdout)["error"]
    assert error["message"].startswith("There is no session session-20261122-zzzzzz")
    assert result.stderr == ""


def test_a_one_bar_prompt_composes_the_shortest_song_and_says_so(runner: CliRunner) -> None:
    code, out = compose(runner, "house, 124, 1 bar", "--seed", "1", "--yes")
    assert code == ExitCode.DONE, out
    assert "You asked for 1 bar; a song has at least 8 bars, so this one has 8." in " ".join(
        out.split()
    )
    assert "Stage 3/8: house, 8 bars" in out


def test_an_hour_and_a_half_in_the_prompt_is_bounded_like_bars(runner: CliRunner) -> None:
    result = runner.invoke(main, ["intent", "house, 124, 99 minutes", "--json"])
    intent = json.loads(result.output)["intent"]
    assert intent["duration"] == {"min": 512, "max": 512}
    note = next(a for a in intent["ambiguities"] if a["field"] == "duration")
    assert note["reason"] == (
        "99 minutes at 124 BPM is 3,068-3,072 bars; a song has at most 512 bars, "
        "so this one has 512."
    )
    shown = runner.invoke(main, ["intent", "house, 124, 99 minutes"])
    assert "? 99 minutes at 124 BPM" in shown.output


@pytest.mark.slow
def test_a_99_minute_prompt_composes_512_bars(runner: CliRunner) -> None:
    code, out = compose(runner, "house, 124, 99 minutes", "--seed", "1", "--yes", "--json")
    assert code == ExitCode.DONE, out
    assert SessionManifest.from_json(out).total_bars == 512


def test_exit_codes_reach_the_shell_as_numbers(tmp_path: Path) -> None:
    env = {**os.environ, "MUSE_SESSIONS_DIR": str(tmp_path), "MUSE_CONFIG_DIR": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-m", "muse_tui.cli", "undo", "x" * 300],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("That session reference is 300 characters")


def test_compose_into_a_folder_that_cannot_exist_says_so(runner: CliRunner, tmp_path: Path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder")
    result = runner.invoke(main, ["compose", *TRAP, "--json", "--out", str(a_file / "songs")])
    assert result.exit_code == ExitCode.FAILED
    error = json.loads(result.stdout)["error"]
    assert error["message"].startswith(f"Cannot write the session {a_file / 'songs'}")
    assert "--out" in error["next"] and "Traceback" not in result.stderr


def test_a_broken_skill_file_is_said_once_with_the_fix(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The failed stage's line says what is wrong and what to do; the run's end only says where
    it stopped, instead of printing the same sentence twice."""
    import shutil

    skills = tmp_path / "skills"
    shutil.copytree(Path(__file__).resolve().parents[2] / "skills", skills)
    (skills / "rhythm" / "comping.json").write_text("{ broken", encoding="utf-8")
    monkeypatch.setenv("MUSE_SKILLS_DIR", str(skills))
    code, out = compose(runner, *TRAP)
    said = " ".join(out.split())
    assert code == ExitCode.FAILED, out
    assert "Traceback" not in out
    assert "".join(out.split()).count("comping.json") == 1, out  # a long path wraps anywhere
    assert "; fix the file or restore it from the repository." in said
    assert "The run stopped at stage 1/8." in said
