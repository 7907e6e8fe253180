"""`muse-studio`: the studio at once when there are no arguments, else the command line.

Opening the studio is what `muse-studio` is run for most, and it needs none of
the command line: the click group (`muse_tui.cli`) costs the studio's first
frame the import of click. So the entry point looks at the arguments first;
anything at all (`--help`, `--version`, a command) goes to the group as before,
which also opens the studio when given no command. This module sits outside
`muse_tui.cli` because importing anything in that package imports click.

The cyclic garbage collector is off until the studio's first frame is painted
(`StudioApp._start_in_background` turns it back on): what starting up makes (modules,
classes, widgets, styles) lasts, so its passes would find next to no garbage,
and they cost the first frame about 13 ms.
"""

from __future__ import annotations

import gc
import sys


def main() -> None:
    """What the `muse-studio` script runs."""
    try:
        _start()
    except KeyboardInterrupt:
        # Ctrl-C before a command took it over (starting up takes a second or more on a
        # loaded machine): nothing was begun, so no traceback, and the shell's code for INT.
        sys.exit(130)


def _start() -> None:
    if len(sys.argv) <= 1:
        gc.disable()
        from muse_tui.tui.app import run_studio

        run_studio()
        return
    from muse_tui.cli import main as command_line

    command_line()


if __name__ == "__main__":  # `python -m muse_tui.launch`, as the script does
    main()
