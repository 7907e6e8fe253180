"""The first frame waits for nothing it does not show: the engine, the player, the skills.

Each check runs the real studio in a fresh interpreter (headless), started the
way the `muse-studio` script starts it, and looks at what was imported when
Textual reports the first frame painted (`Ready`); a bare Textual app run the
same way is the yardstick.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from textual.screen import Screen

from tests.ui.harness import make_studio

PROBE = """
import json, sys
sys.argv = ["muse-studio"]
import muse_tui.tui.app as studio_app

class FirstFrame(studio_app.StudioApp):
    def on_ready(self) -> None:  # runs before the studio's own on_ready: nothing deferred yet
        print(json.dumps(sorted(sys.modules)))
        self.exit()

    def run(self, **_: object) -> None:
        super().run(headless=True)

studio_app.StudioApp = FirstFrame  # what run_studio() opens
from muse_tui.launch import main
main()
"""

#: The yardstick: the least a Textual app imports to paint its first frame (bench/tui.py's).
BARE_PROBE = """
import json, sys
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("Stages")

    def on_ready(self) -> None:
        print(json.dumps(sorted(sys.modules)))
        self.exit()

Bare().run(headless=True)
"""

#: Modules the studio's first frame may import beyond the bare app's: its own (about 27),
#: Footer, tomllib for the settings and themes (35 in all). It was 147 when the settings
#: were a pydantic model and the command line came first, 56 before the collaborators and
#: the roll's model loaded on first use, 49 before stand-ins drew the prompt and the notes.
EXTRA_MODULES_BOUND = 40

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
    "muse_tui.tui.widgets.history",  # mounted when a composed session opens
    "muse_tui.tui.widgets.prompt",  # the prompt (a TextArea) and the notes (a RichLog):
    "textual.widgets._text_area",  # mounted right after the first frame, drawn in it
    "textual.document",  # by stand-ins
    "muse_tui.tui.widgets.notes_log",
    "textual.widgets._rich_log",
    "rich.pretty",
    "muse_tui.tui.widgets.roll_model",  # the roll's model: built with its first track
    "muse_tui.tui.comparison",  # a comparison's data: with the first comparison
    "muse_tui.tui.composing",  # the collaborators that run, change and compare songs:
    "muse_tui.tui.editing",  # mounted on first use
    "muse_tui.tui.comparing",
    "muse_tui.tui.commands",  # the palette's provider: when the palette opens
    "muse_tui.tui.gate",  # approvals and questions: with the first run
    "muse_tui.tui.watch",  # the file watchers: after the first frame
    "pydantic",  # the settings are a checked dataclass; the contracts load with a run
    "click",  # `muse-studio` with no arguments opens the studio before the command line
    "tomli_w",  # only to save the settings
]


def _modules_at_first_frame(probe: str, folder: Path) -> set[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update(MUSE_CONFIG_DIR=str(folder / "config"), MUSE_SESSIONS_DIR=str(folder / "s"))
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env=env,
        cwd=Path(__file__).parents[2],
        timeout=120,
        check=True,
    )
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.fixture(scope="module")
def first_frame_modules(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    return _modules_at_first_frame(PROBE, tmp_path_factory.mktemp("first-frame"))


@pytest.fixture(scope="module")
def bare_first_frame_modules(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    return _modules_at_first_frame(BARE_PROBE, tmp_path_factory.mktemp("bare-first-frame"))


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


def test_the_first_frame_imports_little_more_than_a_bare_textual_app(
    first_frame_modules: set[str], bare_first_frame_modules: set[str]
) -> None:
    extra = sorted(first_frame_modules - bare_first_frame_modules)
    assert len(extra) <= EXTRA_MODULES_BOUND, f"{len(extra)} modules more than a bare app: {extra}"


def _styles_of(screen: Screen[None]) -> dict[str, list[str]]:
    """Every node's rules as CSS, and those of its component classes (the parts it draws)."""
    styles = {}
    for node in screen.walk_children(with_self=True):
        parts = set().union(*(vars(c).get("COMPONENT_CLASSES", set()) for c in type(node).__mro__))
        styles[f"{node!r}"] = [node.styles.css] + [
            f"{part}: {node.get_component_styles(part).css}" for part in sorted(parts)
        ]
    return styles


async def test_the_first_frame_is_styled_as_a_full_restyle_would_style_it(
    tmp_path: Path,
) -> None:
    # StudioScreen skips the restyle Textual does when it first resumes: each widget was
    # styled as it mounted. Were any left out of date, restyling now would change it.
    app = make_studio(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        as_painted = _styles_of(app.studio)
        app.stylesheet.update(app.studio)
        assert _styles_of(app.studio) == as_painted
