"""The studio and the CLI on one session: one writer at a time, and no change made on a stale song.

A second process really holds the session's lock (or really changes the session
with `muse-studio modify`) while the studio has the session open.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from textual.message import Message

from muse_tui.store.checkpoint import load_checkpoint, pipeline_path
from tests.ui.test_editing import change, composed, digests, errors, notices, say, studio

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]

HOLD_LOCK = """
import sys, time
from pathlib import Path
from muse_tui.store.lock import session_lock
with session_lock(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.readline()  # until the test says so
"""


def _history_on_disk(folder: Path) -> list[str]:
    """The history ids in the checkpoint, read as bytes: `load_checkpoint` would tell this
    process it has seen the CLI's version, which is exactly what the studio must not assume."""
    data = json.loads(pipeline_path(folder).read_bytes())
    return [entry["id"] for entry in data["songState"]["history"]]


def _python_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


async def test_a_change_while_the_cli_holds_the_session_is_refused_in_one_sentence(
    tmp_path: Path,
) -> None:
    app = studio(tmp_path)
    messages: list[Message] = []
    async with app.run_test(size=(140, 44), message_hook=messages.append) as pilot:
        folder = await composed(pilot)
        before, song = digests(folder), app.studio.song
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLD_LOCK, str(folder)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=_python_env(),
        )
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            await say(pilot, "Bass too busy, simplify")
        finally:
            holder.communicate("\n", timeout=30)

        (said,) = errors(messages)
        assert said == (
            f"Session {folder.name} is being changed by another muse-studio (pid {holder.pid}); "
            "try again when it finishes; the song on screen is as it was."
        )
        assert digests(folder) == before and app.studio.song == song
        assert load_checkpoint(folder).song_state.history == []

        await change(pilot, "Bass too busy, simplify")  # the CLI is done: proposed, accepted
        assert len(load_checkpoint(folder).song_state.history) == 1


async def test_a_session_the_cli_changed_is_reloaded_before_the_studio_changes_it(
    tmp_path: Path,
) -> None:
    app = studio(tmp_path)
    messages: list[Message] = []
    async with app.run_test(size=(140, 44), message_hook=messages.append) as pilot:
        folder = await composed(pilot)
        cli = subprocess.run(
            [sys.executable, "-m", "muse_tui.cli", "modify", str(folder), "tempo 96", "--yes"],
            capture_output=True,
            text=True,
            env=_python_env(),
            timeout=120,
        )
        assert cli.returncode == 0, cli.stderr
        on_disk = digests(folder)
        (cli_entry,) = _history_on_disk(folder)

        await say(pilot, "Bass too busy, simplify")

        # Nothing of the studio's change was written; the CLI's change is intact.
        assert digests(folder) == on_disk
        assert _history_on_disk(folder) == [cli_entry]
        # The studio now shows the session as it is on disk, and says so.
        assert app.studio.song.tempo == 96
        assert [e.id for e in app.studio.pipeline.song_state.history] == [cli_entry]
        assert any("changed outside the studio" in n for n in notices(messages))
        assert errors(messages) == []

        await change(pilot, "Bass too busy, simplify")  # sent again, on the reloaded song
        history = _history_on_disk(folder)
        assert history[0] == cli_entry and len(history) == 2
        assert load_checkpoint(folder).song_state.tempo == 96
