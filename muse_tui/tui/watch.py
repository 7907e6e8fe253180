"""Hot reload of `themes/` and `skills/`: watch the folders, check a change before using it.

A skill file that breaks is reported by name and field, and the tables already
loaded stay as they were (the last good version) until the file is fixed.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

#: The knowledge tables that read `skills/`: module, then its loader functions.
SKILL_TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("muse_tui.knowledge.arrangement", ("arrangement_table",)),
    ("muse_tui.knowledge.genres", ("genre_table",)),
    ("muse_tui.knowledge.lexicon", ("intent_lexicon",)),
    ("muse_tui.knowledge.artists", ("artist_table",)),
    ("muse_tui.knowledge.progressions", ("progression_table",)),
    ("muse_tui.knowledge.rhythm", ("rhythm_table",)),
    ("muse_tui.knowledge.sound", ("sound_catalog", "effects_table", "mood_palette")),
)


async def changes(folders: list[Path], debounce_ms: int = 300) -> AsyncIterator[list[Path]]:
    """Each batch of changed files under the folders that exist (forever, until cancelled)."""
    from watchfiles import awatch

    present = [str(f) for f in folders if f.is_dir()]
    if not present:
        return
    async for batch in awatch(*present, debounce=debounce_ms, recursive=True):
        yield sorted({Path(path) for _, path in batch})


def _tables() -> list[tuple[Any, list[Callable[..., Any]]]]:
    found = []
    for module_name, loaders in SKILL_TABLES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue  # a table not written yet
        found.append((module, [getattr(module, name) for name in loaders if hasattr(module, name)]))
    return found


def reload_skills(root: Path) -> str | None:
    """Check every table against the files on disk; use them only if all are good.

    Returns None when the new files are in use, else one sentence naming the
    broken file and field (the previous tables stay in use).
    """
    from muse_tui.knowledge import SkillFileError

    # Loading through another spelling of the same folder makes the cached
    # loaders read the files afresh without forgetting the tables in use.
    probe = root / ".." / root.name
    tables = _tables()
    try:
        for _, loaders in tables:
            for load in loaders:
                load(probe)
    except SkillFileError as exc:
        where = os.path.normpath(str(exc.path)).replace(os.path.normpath(str(root)), root.name)
        return (
            f"The skill file {where} is broken ({exc.problem}); "
            "the last good version stays in use until you fix it."
        )
    for module, _ in tables:
        module.reload()
    return None
