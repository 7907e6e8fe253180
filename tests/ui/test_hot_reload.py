"""Themes and skills reload while the studio runs; a broken file keeps the last good version."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from textual.message import Message
from textual.notifications import Notify

from muse_tui.knowledge import BUNDLED_SKILLS, arrangement_table
from muse_tui.tui.messages import FilesChanged
from muse_tui.tui.watch import reload_skills
from tests.ui.harness import make_studio

TEMPLATES = "harmony/arrangement-templates.json"


@pytest.fixture
def skills(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "skills"
    shutil.copytree(BUNDLED_SKILLS, root)
    monkeypatch.setenv("MUSE_SKILLS_DIR", str(root))
    return root


def test_a_broken_skill_file_keeps_the_tables_in_use(skills: Path) -> None:
    before = arrangement_table(skills)
    good = (skills / TEMPLATES).read_text()
    (skills / TEMPLATES).write_text(good.replace('"templates"', '"templatez"', 1))
    problem = reload_skills(skills)
    assert problem is not None
    assert "skills/harmony/arrangement-templates.json" in problem
    assert "last good version" in problem
    assert arrangement_table(skills) is before
    (skills / TEMPLATES).write_text(good)
    assert reload_skills(skills) is None
    assert arrangement_table(skills) is not before


def test_a_check_that_failed_leaves_no_stale_table_for_the_next(skills: Path) -> None:
    """A file edited during a failed check is read again, not taken from that check's cache."""
    before = arrangement_table(skills)
    progressions = skills / "harmony/progressions.json"
    good_templates, good_progressions = (skills / TEMPLATES).read_text(), progressions.read_text()
    (skills / TEMPLATES).write_text(good_templates.replace("Intro", "Opening", 1))  # fine
    progressions.write_text("{ broken")
    assert reload_skills(skills) is not None
    (skills / TEMPLATES).write_text(good_templates.replace('"templates"', '"templatez"', 1))
    progressions.write_text(good_progressions)
    problem = reload_skills(skills)  # the templates file is broken now
    assert problem is not None and "arrangement-templates.json" in problem
    assert arrangement_table(skills) is before  # the table in use stays


async def wait_until(pilot, condition, timeout: float = 10.0, write=None) -> None:  # type: ignore[no-untyped-def]
    """Wait for `condition`; `write` makes the change, and makes it again each second.

    A watcher starts listening on a worker thread some time after the studio mounts
    (seconds on a loaded machine); a change made before that is not an edit it can
    see, so the edit is repeated until it is seen rather than guessing a start-up time.
    """
    deadline = time.monotonic() + timeout
    written = 0.0
    while not condition():
        assert time.monotonic() < deadline, "the watcher did not report the change"
        if write is not None and time.monotonic() - written >= 1.0:
            write()
            written = time.monotonic()
        await pilot.pause(0.05)


async def test_the_watchers_reload_an_edited_theme_and_report_a_broken_skill(
    tmp_path: Path, skills: Path
) -> None:
    themes = tmp_path / "themes"
    themes.mkdir()
    theme = themes / "mine.toml"
    theme.write_text('name = "mine"\nprimary = "#112233"\n')
    app = make_studio(tmp_path, settings='theme = "mine"\n', themes_dirs=(themes,), watch=True)
    messages: list[Message] = []
    async with app.run_test(message_hook=messages.append) as pilot:
        await wait_until(
            pilot,
            lambda: app.current_theme.primary == "#abcdef",
            write=lambda: theme.write_text('name = "mine"\nprimary = "#abcdef"\n'),
        )
        await wait_until(
            pilot,
            lambda: any(
                isinstance(m, Notify) and "is broken" in m.notification.message for m in messages
            ),
            write=lambda: (skills / TEMPLATES).write_text("{ not json"),
        )
        assert app.is_running
    kinds = {m.kind for m in messages if isinstance(m, FilesChanged)}
    assert kinds == {"themes", "skills"}
