"""Memory over many composes in one process (a long studio session): RSS must stay flat.

Composes N songs in-process (varied prompts and seeds, each its own session
folder, as a producer does in one studio sitting), deleting each session
folder afterwards so the disk stays small, and prints the resident set size
every `--every` composes. The figure is the growth from the RSS after the
warm-up (caches of the skill tables and the stages filled) to the end, and the
largest RSS seen. Target: growth within ±5 MB over 1,000 composes.

Run: `.venv/bin/python bench/memory.py [--composes 1000] [--every 100] [--bars 16]`.
"""

from __future__ import annotations

import argparse
import gc
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from muse_tui.contracts import PipelineConfig  # noqa: E402
from muse_tui.engine.orchestrator import Orchestrator, run_blocking  # noqa: E402
from muse_tui.engine.registry import product_stages  # noqa: E402

PROMPTS = (
    "drill, 140, key of F#m",
    "lofi hip hop, rainy evening, 80 bpm, in C minor",
    "Frank Ocean meets Burial, late-night vibes",
    "jazz house, complex chords, 122",
    "dark trap, 140, key of Am",
)
WARM_UP = 20
TARGET_MB = 5.0


def rss_mb() -> float:
    """This process's resident set size now (Linux /proc; ru_maxrss elsewhere is the peak)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--composes", type=int, default=1000)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--bars", type=int, default=16)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="muse-bench-memory-"))
    engine = Orchestrator(product_stages(), root)
    config = PipelineConfig(approval_gates=[])

    def compose(number: int) -> None:
        prompt = PROMPTS[number % len(PROMPTS)]
        pipeline = run_blocking(
            engine.run(prompt, seed=number, config=config, answers={"bars": str(args.bars)})
        )
        assert pipeline.status == "completed", pipeline.status
        shutil.rmtree(root / pipeline.session_id, ignore_errors=True)

    try:
        for number in range(WARM_UP):
            compose(number)
        gc.collect()
        start, peak, began = rss_mb(), 0.0, time.perf_counter()
        print(f"after {WARM_UP} warm-up composes: RSS {start:.1f} MB")
        for number in range(1, args.composes + 1):
            compose(WARM_UP + number)
            if number % args.every == 0 or number == args.composes:
                now = rss_mb()
                peak = max(peak, now)
                print(
                    f"{number:>6} composes  RSS {now:7.1f} MB  ({now - start:+.1f} MB)  "
                    f"{(time.perf_counter() - began) / number * 1000:.0f} ms each",
                    flush=True,
                )
        gc.collect()
        grown = rss_mb() - start
    finally:
        shutil.rmtree(root, ignore_errors=True)
    ok = abs(grown) <= TARGET_MB
    print(
        f"RSS growth over {args.composes} composes: {grown:+.1f} MB (peak {peak:.1f} MB)   "
        f"target within ±{TARGET_MB:g} MB   {'ok' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
