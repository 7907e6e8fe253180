"""Fixtures for the unit tests."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from muse_tui.knowledge import BUNDLED_SKILLS, reload_all


@pytest.fixture
def skills_copy(tmp_path: Path) -> Iterator[Path]:
    """A private copy of every skill file to edit or break; tables are read afresh around it."""
    shutil.copytree(BUNDLED_SKILLS, tmp_path, dirs_exist_ok=True)
    reload_all()
    yield tmp_path
    reload_all()
