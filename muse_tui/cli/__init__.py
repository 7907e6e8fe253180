"""The `muse-studio` command: opens the studio, or runs a headless command."""

from muse_tui.cli.main import main

__all__ = ["main"]
