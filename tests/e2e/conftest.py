"""A CLI runner with its own sessions and config folders."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from muse_tui.cli import main


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("MUSE_SESSIONS_DIR", str(tmp_path / "sessions"))
    monkeypatch.setenv("MUSE_CONFIG_DIR", str(tmp_path / "config"))
    return CliRunner()


def compose(runner: CliRunner, *args: str) -> tuple[int, str]:
    result = runner.invoke(main, ["compose", *args], catch_exceptions=False)
    return result.exit_code, result.output
