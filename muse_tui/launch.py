"""`muse-studio`: the studio at once when there are no arguments, else the command line.

Opening the studio is what `muse-studio` is run for most, and it needs none of
the command line: the click group (`muse_tui.cli`) costs the studio's first
frame the import of click. So the entry point looks at the arguments first;
anything at all (`--help`, `--version`, a command) goes to the group as before,
which also opens the studio when given no command. This module sits outside
`muse_tui.cli` because importing anything in that package imports click.
"""

from __future__ import annotations

import sys


def main() -> None:
    """What the `muse-studio` script runs."""
    if len(sys.argv) <= 1:
        from muse_tui.tui.app import run_studio

        run_studio()
        return
    from muse_tui.cli import main as command_line

    command_line()
