"""Every studio test runs with animations off and its own config and sessions folders."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def quiet_studio(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
    monkeypatch.setenv("MUSE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("MUSE_SESSIONS_DIR", raising=False)
    monkeypatch.delenv("MUSE_SKILLS_DIR", raising=False)
    yield
