"""The first frame waits for nothing it does not show: the engine, the player, the skills.

Each check runs the real studio in a fresh interpreter (headless) and looks at
what was imported when Textual reports the first frame painted (`Ready`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = """
import json, sys
from muse_tui.tui.app import StudioApp

class FirstFrame(StudioApp):
    def on_ready(self) -> None:  # runs before the studio's own on_ready: nothing deferred yet
        print(json.dumps(sorted(sys.modules)))
        self.exit()

FirstFrame().run(headless=True)
"""

#: Loaded on first use: a run, a change, a play, the sessions list, a file watcher.
DEFERRED = [
    "muse_tui.engine",
    "muse_tui.audition",
    "rtmidi",
    "mido",
    "muse_tui.knowledge",
    "muse_tui.compose",
    "muse_tui.theory",
    "muse_tui.store.checkpoint",
    "muse_tui.store.sessions",
    "muse_tui.contracts.editing",
    "watchfiles",
    "markdown_it",
    "muse_tui.tui.widgets.compare",
    "muse_tui.tui.screens.approval",
    "muse_tui.tui.screens.settings",
]


@pytest.fixture(scope="module")
def first_frame_modules(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    folder = tmp_path_factory.mktemp("first-frame")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update(MUSE_CONFIG_DIR=str(folder / "config"), MUSE_SESSIONS_DIR=str(folder / "s"))
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        env=env,
        cwd=Path(__file__).parents[2],
        timeout=120,
        check=True,
    )
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("module", DEFERRED)
def test_the_first_frame_is_painted_before_loading(
    first_frame_modules: set[str], module: str
) -> None:
    assert module not in first_frame_modules


def test_the_probe_sees_the_studio_itself(first_frame_modules: set[str]) -> None:
    # The check above means something only if the probe ran the studio to its first frame.
    assert {"muse_tui.tui.screens.studio", "muse_tui.tui.widgets.tracker"} <= first_frame_modules


def test_the_first_frame_builds_no_pipeline_contracts(first_frame_modules: set[str]) -> None:
    assert "muse_tui.contracts.pipeline" not in first_frame_modules
