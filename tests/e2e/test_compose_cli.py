"""The headless commands, end to end, with the real stages: what a producer runs in a terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import mido
import pytest
from click.testing import CliRunner

from muse_tui.cli import main
from muse_tui.contracts import SessionManifest
from muse_tui.store.checkpoint import load_checkpoint, pipeline_path
from tests.e2e.conftest import compose


def test_compose_json_writes_a_complete_session(runner: CliRunner, tmp_path: Path) -> None:
    code, out = compose(
        runner, "dark trap, 140, key of Am", "--seed", "7", "--bars", "32", "--yes", "--json"
    )
    assert code == 0, out
    manifest = SessionManifest.from_json(out)
    session = tmp_path / "sessions" / manifest.session_id
    assert manifest.status == "completed"
    assert manifest.tempo == 140 and manifest.key.startswith("A")
    assert manifest.total_bars == 32
    assert [t.stage for t in manifest.stage_timings] == list(range(1, 9))
    for entry in manifest.files:
        assert (session / entry.path).stat().st_size == entry.size_bytes > 0, entry.path
    full = mido.MidiFile(session / "midi" / "full-arrangement.mid", clip=False)
    assert full.type == 1
    assert len(full.tracks) == 1 + manifest.track_count
    assert json.loads((session / "progression" / "main.progression").read_text())["progression"][
        "chords"
    ]


def test_same_prompt_and_seed_give_identical_midi(runner: CliRunner, tmp_path: Path) -> None:
    sessions = []
    for _ in range(2):
        code, out = compose(
            runner, "lo-fi piano, rainy, 80 bpm", "--seed", "3", "--bars", "16", "--yes", "--json"
        )
        assert code == 0, out
        sessions.append(tmp_path / "sessions" / SessionManifest.from_json(out).session_id)
    a, b = sessions
    for mid in sorted((a / "midi").glob("*.mid")):
        assert mid.read_bytes() == (b / "midi" / mid.name).read_bytes(), mid.name


def test_skipping_stages_and_partial_exit_code(runner: CliRunner) -> None:
    code, out = compose(runner, "house, 124", "--seed", "1", "--bars", "16", "--yes", "--skip", "7")
    assert code == 0, out
    assert "Stage 7/8: Validation skipped" in out


def test_usage_errors_exit_2(runner: CliRunner) -> None:
    assert runner.invoke(main, ["compose", "   "]).exit_code == 2
    assert runner.invoke(main, ["compose", "x", "--gates", "2,nine"]).exit_code == 2
    assert runner.invoke(main, ["compose", "x", "--skip", "9"]).exit_code == 2
    assert runner.invoke(main, ["compose", "x", "--bars", "3"]).exit_code == 2


def test_no_terminal_auto_approves_and_says_so(runner: CliRunner) -> None:
    code, out = compose(runner, "boom bap, 90", "--seed", "2", "--bars", "16", "--gates", "2")
    assert code == 0, out
    assert "approving them automatically" in out


def test_intent_json(runner: CliRunner) -> None:
    result = runner.invoke(main, ["intent", "Frank Ocean meets Burial, late-night vibes", "--json"])
    assert result.exit_code == 0, result.output
    intent = json.loads(result.output)["intent"]
    assert intent["tempoAnalysis"]["halfTime"] is True
    assert intent["tempoAnalysis"]["bpm"] == 135
    assert intent["tempoAnalysis"]["perceivedBpm"] == 67.5


def test_resume_refuses_a_corrupt_checkpoint_in_one_sentence(
    runner: CliRunner, tmp_path: Path
) -> None:
    _code, out = compose(runner, "ambient, 70", "--seed", "4", "--bars", "16", "--yes", "--json")
    session = tmp_path / "sessions" / SessionManifest.from_json(out).session_id
    pipeline_path(session).write_text("{ not json")
    result = runner.invoke(main, ["resume", str(session)])
    assert result.exit_code == 1
    assert "Cannot resume" in result.output and "start fresh" in result.output
    assert "Traceback" not in result.output


def test_resume_names_an_unknown_session_id(runner: CliRunner) -> None:
    # a well-formed id with no folder fails (1), as in `sessions show`, `modify` and `play`
    result = runner.invoke(main, ["resume", "session-20261122-zzzzzz"])
    assert result.exit_code == 1
    assert "There is no session session-20261122-zzzzzz" in " ".join(result.output.split())


@pytest.mark.slow
def test_compose_killed_after_harmony_resumes_to_the_same_song(tmp_path: Path) -> None:
    """A real `muse-studio compose` process killed mid-run, then `muse-studio resume`."""
    env = {
        **os.environ,
        "MUSE_SESSIONS_DIR": str(tmp_path / "a"),
        "MUSE_CONFIG_DIR": str(tmp_path / "cfg"),
    }
    args = [
        sys.executable,
        "-m",
        "muse_tui.cli",
        "compose",
        "neo soul, Eb minor, 85",
        "--seed",
        "9",
        "--bars",
        "24",
        "--yes",
        "--json",
        "--skip",
        "4,5,6,7,8",
    ]
    first = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    session = tmp_path / "a" / json.loads(first.stdout)["sessionId"]
    # pretend the run stopped after S3: stages 4-8 were skipped, so resume them for real
    state = json.loads(pipeline_path(session).read_text())
    state["recovery"]["lastSuccessfulStage"] = 3
    state["config"]["skipStages"] = []
    for stage in ("4", "5", "6", "7", "8"):
        state["stages"].pop(stage, None)
    state["status"] = "failed"
    pipeline_path(session).write_text(json.dumps(state))
    resumed = subprocess.run(
        [sys.executable, "-m", "muse_tui.cli", "resume", session.name, "--json"],  # by its id
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr

    env_b = {**env, "MUSE_SESSIONS_DIR": str(tmp_path / "b")}
    whole = subprocess.run(args[:-2], env=env_b, capture_output=True, text=True, timeout=120)
    assert whole.returncode == 0, whole.stderr
    other = tmp_path / "b" / json.loads(whole.stdout)["sessionId"]
    for mid in sorted((other / "midi").glob("*.mid")):
        assert (session / "midi" / mid.name).read_bytes() == mid.read_bytes(), mid.name


def test_a_long_song_with_repeated_sections_checkpoints_and_loads(
    runner: CliRunner, tmp_path: Path
) -> None:
    code, out = compose(
        runner,
        "neo soul, late night, 85 bpm, in Eb minor",
        "--seed",
        "5",
        "--bars",
        "64",
        "--yes",
        "--json",
    )
    assert code == 0, out
    session = tmp_path / "sessions" / SessionManifest.from_json(out).session_id
    pipeline = load_checkpoint(session)
    kinds = [s.kind for s in pipeline.song_state.arrangement.sections]  # type: ignore[union-attr]
    assert len(kinds) > len(set(kinds)), "the form repeats a section kind"
    ids = [r.id for t in pipeline.song_state.tracks for r in t.regions]
    assert len(ids) == len(set(ids))
