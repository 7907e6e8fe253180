"""The three speed targets of the studio, side by side in one run.

Run: .venv/bin/python bench/targets.py [--rounds 9]

Each round takes one of each, in turn, so all three meet the same machine load:
  * `muse-studio --help`, a fresh process (target ≤ 200 ms);
  * the studio's first frame beside a bare Textual app's, each a fresh process in a
    pseudo-terminal, from compiled bytecode (target: the studio within 1.2× the bare app);
  * a 64-bar, four-track compose in this process, checkpoints and session files on disk
    (target ≤ 80 ms).

The figures are medians over the rounds. `bench/startup.py`, `bench/tui.py` and
`bench/compose.py` give each figure in more detail; this script is the one to
quote when the question is whether all three hold at once.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.startup import ENV, STUDIO  # noqa: E402
from bench.tui import BARE_APP, MUSE_STUDIO, first_frame  # noqa: E402
from muse_tui.contracts import PipelineConfig  # noqa: E402
from muse_tui.engine.orchestrator import Orchestrator, run_blocking  # noqa: E402
from muse_tui.engine.registry import product_stages  # noqa: E402

HELP_TARGET_MS = 200.0
FRAME_RATIO_TARGET = 1.2
COMPOSE_TARGET_MS = 80.0
PROMPT = "drill, 140, key of F#m"  # as bench/compose.py: drums, 808, chords, lead


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9, help="rounds of the three figures")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if not MUSE_STUDIO.exists():
        print(f"{MUSE_STUDIO} is missing: pip install -e . first", file=sys.stderr)
        return 2

    work = Path(tempfile.mkdtemp(prefix="muse-bench-targets-"))
    bytecode = work / "pycache"
    engine = Orchestrator(product_stages(), work / "sessions")
    config = PipelineConfig(approval_gates=[])
    bare_app = [sys.executable, "-c", BARE_APP]

    def compose() -> float:
        start = time.perf_counter()
        pipeline = run_blocking(engine.run(PROMPT, seed=1, config=config, answers={"bars": "64"}))
        seconds = time.perf_counter() - start
        assert pipeline.status == "completed", pipeline.status
        return seconds * 1000

    def help_ms() -> float:
        start = time.perf_counter()
        subprocess.run([*STUDIO, "--help"], check=True, capture_output=True, env=ENV)
        return (time.perf_counter() - start) * 1000

    try:
        # Untimed: fill the bytecode folder, import the pipeline's lazy modules, warm the disk.
        first_frame(None, bytecode), first_frame(bare_app, bytecode), compose(), help_ms()
        helps, studio, bare, composes = [], [], [], []
        for _ in range(args.rounds):
            helps.append(help_ms())
            studio.append(first_frame(None, bytecode) * 1000)
            bare.append(first_frame(bare_app, bytecode) * 1000)
            composes.append(compose())
    finally:
        shutil.rmtree(work, ignore_errors=True)

    help_median = statistics.median(helps)
    ratio = statistics.median(studio) / statistics.median(bare)
    compose_median = statistics.median(composes)
    verdicts = {
        "help": help_median <= HELP_TARGET_MS,
        "frame": ratio <= FRAME_RATIO_TARGET,
        "compose": compose_median <= COMPOSE_TARGET_MS,
    }

    def verdict(key: str) -> str:
        return "ok" if verdicts[key] else "MISSED"

    print(f"muse-studio speed targets, side by side: medians of {args.rounds} rounds")
    print(
        f"  `muse-studio --help`               {help_median:7.1f} ms"
        f"   target ≤ {HELP_TARGET_MS:g} ms   {verdict('help')}"
    )
    print(
        f"  first frame, studio / bare Textual {ratio:7.2f} ×"
        f"   target ≤ {FRAME_RATIO_TARGET:g} ×    {verdict('frame')}"
        f"   ({statistics.median(studio):.1f} / {statistics.median(bare):.1f} ms)"
    )
    print(
        f"  compose 64 bars in process         {compose_median:7.1f} ms"
        f"   target ≤ {COMPOSE_TARGET_MS:g} ms    {verdict('compose')}"
    )
    return 0 if all(verdicts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
