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
import signal
import sys
from types import FrameType

#: Set by a Ctrl-C that reached this module's handler, before a command took INT over.
_interrupted = False


def main() -> None:
    """What the `muse-studio` script runs."""
    if len(sys.argv) > 1:  # the studio reads ctrl+c as a key; a command gets INT as a signal
        signal.signal(signal.SIGINT, _on_interrupt)
    try:
        _start()
    except KeyboardInterrupt:
        # Ctrl-C before a command took it over (starting up takes a second or more on a
        # loaded machine): nothing was begun, so no traceback, and the shell's code for INT.
        sys.exit(130)
    except Exception:
        # The same Ctrl-C, come back as another error: pydantic builds a model's schema in
        # Rust, which wraps a KeyboardInterrupt raised meanwhile in its own SchemaError.
        if _interrupted:
            sys.exit(130)
        raise


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


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
