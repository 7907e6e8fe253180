"""Hot reload of `themes/` and `skills/`: watch the folders, check a change before using it.

A skill file that breaks is reported by name and field, and the tables already
loaded stay as they were (the last good version) until the file is fixed.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

_failed_checks = 0  # checks that failed since the last good one


async def changes(folders: list[Path], debounce_ms: int = 300) -> AsyncIterator[list[Path]]:
    """Each batch of changed files under the folders that exist (forever, until cancelled)."""
    from watchfiles import awatch

    present = [str(f) for f in folders if f.is_dir()]
    if not present:
        return
    async for batch in awatch(*present, debounce=debounce_ms, recursive=True):
        yield sorted({Path(path) for _, path in batch})


def reload_skills(root: Path) -> str | None:
    """Check every table against the files on disk; use them only if all are good.

    Returns None when the new files are in use, else one sentence naming the
    broken file and field (the previous tables stay in use).
    """
    from muse_tui.knowledge import SkillFileError, check_all, reload_all

    # Loading through another spelling of the same folder makes the cached
    # loaders read the files afresh without forgetting the tables in use. A
    # check that failed leaves its tables cached under its spelling, so the
    # next check uses a longer one; a good check forgets them all (reload_all).
    global _failed_checks
    probe = root.joinpath(*[os.pardir, root.name] * (_failed_checks + 1))
    try:
        check_all(probe)
    except SkillFileError as exc:
        _failed_checks += 1
        where = os.path.normpath(str(exc.path)).replace(os.path.normpath(str(root)), root.name)
        return (
            f"The skill file {where} is broken ({exc.problem}); "
            "the last good version stays in use until you fix it."
        )
    _failed_checks = 0
    reload_all()
    return None
