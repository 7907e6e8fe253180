"""`python -m muse_tui.cli` is `muse-studio`."""

from muse_tui.cli import main

main()
