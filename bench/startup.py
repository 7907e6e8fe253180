"""Startup benchmark: `muse-studio --help` and `--version` beside a bare `import textual`.

Run: .venv/bin/python bench/startup.py [RUNS]   (RUNS defaults to 10)

Each is a fresh process, so the figures include the interpreter's own start;
`import textual` is the floor the studio cannot go under.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import median_ms  # noqa: E402

#: The `muse-studio` script next to this interpreter (the venv's), else the module.
SCRIPT = Path(sys.executable).with_name("muse-studio")
STUDIO = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "muse_tui.cli"]
HELP_TARGET_MS = 200.0
#: The checkout this bench belongs to comes first on the path: a worktree's bench times
#: its own muse_tui, not the one the venv's editable install points at.
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
}


def _process(argv: list[str]) -> Callable[[], object]:
    return lambda: subprocess.run(argv, check=True, capture_output=True, env=ENV)


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    cases = {
        "muse-studio --help": [*STUDIO, "--help"],
        "muse-studio --version": [*STUDIO, "--version"],
        "python -c 'import textual'": [sys.executable, "-c", "import textual"],
    }
    medians = {label: median_ms(_process(argv), repeat=runs) for label, argv in cases.items()}
    print(f"muse-studio startup, median of {runs} fresh processes")
    for label, value in medians.items():
        print(f"  {label:<30} {value:7.1f} ms")
    ok = medians["muse-studio --help"] < HELP_TARGET_MS
    verdict = "ok" if ok else "MISSED"
    print(f"  --help target < {HELP_TARGET_MS:g} ms: {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
