"""Sync benchmark: fsyncs and checkpoints per compose and per modify, and the time they take.

Counts by wrapping `os.fsync` (files and folders alike) and `write_checkpoint`.
Run: .venv/bin/python bench/syncs.py [--git-rev REV]   (REV only labels the output)
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import muse_tui.engine.ledger as ledger_module  # noqa: E402
from muse_tui.contracts import PipelineConfig  # noqa: E402
from muse_tui.engine.editing import modify  # noqa: E402
from muse_tui.engine.orchestrator import Orchestrator, run_blocking  # noqa: E402
from muse_tui.engine.registry import product_stages  # noqa: E402
from muse_tui.store import checkpoint as checkpoint_module  # noqa: E402
from muse_tui.store.checkpoint import load_checkpoint  # noqa: E402

PROMPT = "drill, 140, key of F#m"  # drums, 808, chords, lead: four tracks
RUNS = 5


class Counter:
    """Counts fsync calls and the seconds spent in them, and full checkpoints written."""

    def __init__(self) -> None:
        self.fsyncs = 0
        self.sync_s = 0.0
        self.checkpoints = 0

    def install(self) -> None:
        real_fsync = os.fsync
        real_checkpoint = checkpoint_module.write_checkpoint

        def fsync(fd: int) -> None:
            self.fsyncs += 1
            begun = time.perf_counter()
            real_fsync(fd)
            self.sync_s += time.perf_counter() - begun

        real_state_files = ledger_module.write_state_files

        def checkpoint(*args, **kwargs):  # type: ignore[no-untyped-def]
            self.checkpoints += 1
            return real_checkpoint(*args, **kwargs)

        def state_files(*args, **kwargs):  # type: ignore[no-untyped-def]
            self.checkpoints += 1  # the ledger's writer thread writes JSON it already made
            return real_state_files(*args, **kwargs)

        os.fsync = fsync
        ledger_module.write_checkpoint = checkpoint  # type: ignore[assignment]
        ledger_module.write_state_files = state_files  # type: ignore[assignment]

    def reset(self) -> None:
        self.fsyncs, self.sync_s, self.checkpoints = 0, 0.0, 0


def main() -> int:
    counter = Counter()
    counter.install()
    root = Path(tempfile.mkdtemp(prefix="muse-syncs-"))
    engine = Orchestrator(product_stages(), root)
    config = PipelineConfig(approval_gates=[])
    rows: dict[str, list[tuple[int, int, float, float]]] = {"compose 64 bars": [], "modify": []}
    for _ in range(RUNS):
        counter.reset()
        begun = time.perf_counter()
        pipeline = run_blocking(engine.run(PROMPT, seed=1, config=config, answers={"bars": "64"}))
        took = time.perf_counter() - begun
        assert pipeline.status == "completed", pipeline.status
        rows["compose 64 bars"].append(
            (counter.fsyncs, counter.checkpoints, counter.sync_s * 1000, took * 1000)
        )
        folder = root / pipeline.session_id
        loaded = load_checkpoint(folder)
        counter.reset()
        begun = time.perf_counter()
        result = run_blocking(modify(loaded, "tempo 150", session_dir=folder))
        took = time.perf_counter() - begun
        assert result.status == "applied", result.summary
        rows["modify"].append((counter.fsyncs, 0, counter.sync_s * 1000, took * 1000))
    label = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--git-rev" else "this tree"
    print(f"{label}: median of {RUNS} runs")
    for name, values in rows.items():
        fsyncs = statistics.median(v[0] for v in values)
        points = statistics.median(v[1] for v in values)
        sync_ms = statistics.median(v[2] for v in values)
        total_ms = statistics.median(v[3] for v in values)
        print(
            f"  {name:<16} {fsyncs:4.0f} fsyncs  {points:2.0f} checkpoints  "
            f"{sync_ms:7.1f} ms syncing of {total_ms:7.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
