"""`muse-studio jam`: rounds in a folder, the same bytes twice, one sentence for bad usage."""

from __future__ import annotations

import json
from pathlib import Path

import mido
from click.testing import CliRunner

from muse_tui.cli import main

PROMPT = "dark trap, 140, key of Am"


def _jam(runner: CliRunner, *args: str) -> tuple[int, str]:
    result = runner.invoke(main, ["jam", PROMPT, *args], catch_exceptions=False)
    return result.exit_code, result.output


def _bytes(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_rounds_are_written_and_repeat_byte_for_byte(runner: CliRunner, tmp_path: Path) -> None:
    args = ["--rounds", "5", "--seed", "3", "--directive", "3:@drums busier", "--json"]
    code, output = _jam(runner, *args, "--out", str(tmp_path / "a"))
    assert code == 0, output
    rounds = json.loads(output)["rounds"]
    assert [r["round"] for r in rounds] == [1, 2, 3, 4, 5]
    drums = [next(m for m in r["members"] if m["id"] == "drums") for r in rounds]
    assert drums[2]["change"] == "asked" and drums[2]["notes"] > drums[1]["notes"]
    code, _ = _jam(runner, *args, "--out", str(tmp_path / "b"))
    assert code == 0
    assert _bytes(tmp_path / "a") == _bytes(tmp_path / "b")
    for path in (tmp_path / "a").rglob("*.mid"):
        assert mido.MidiFile(path, clip=False).length > 0
    summary = json.loads((tmp_path / "a" / "round-03" / "round.json").read_text())
    assert summary["directives"][0]["action"] == "busier"


def test_keep_writes_a_session_the_sessions_list_shows(runner: CliRunner) -> None:
    code, output = _jam(runner, "--rounds", "2", "--keep", "--json")
    assert code == 0, output
    kept = Path(json.loads(output)["session"])
    assert (kept / "midi" / "full-arrangement.mid").exists()
    listed = runner.invoke(main, ["sessions", "show", kept.name], catch_exceptions=False)
    assert listed.exit_code == 0 and "Key:" in listed.output


def test_a_direction_not_of_the_form_round_text_is_one_sentence_and_exit_2(
    runner: CliRunner,
) -> None:
    code, output = _jam(runner, "--directive", "@drums busier")
    assert code == 2
    assert "is not ROUND:TEXT" in output and "Traceback" not in output
    code, output = _jam(runner, "--rounds", "3", "--directive", "9:busier")
    assert code == 2 and "outside 2–3" in output
