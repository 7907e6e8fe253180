"""Compose benchmark: a full in-process compose, assembly of a 100-bar song, the whole CLI process.

Run: .venv/bin/python bench/compose.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import median_ms, report  # noqa: E402
from muse_tui.contracts import STAGE_NAMES, ComposerPipeline, PipelineConfig  # noqa: E402
from muse_tui.engine.orchestrator import Orchestrator, run_blocking  # noqa: E402
from muse_tui.engine.registry import product_stages  # noqa: E402
from muse_tui.store.smf import write_song_midi  # noqa: E402

PROMPT = "drill, 140, key of F#m"  # drums, 808, chords, lead: four tracks
STAGE_RUNS = 11


def stage_medians(runs: list[ComposerPipeline]) -> dict[str, float]:
    """Median milliseconds per stage over `runs`, and the engine's share (total minus stages)."""
    medians = {
        f"S{n} {STAGE_NAMES[n]}": statistics.median(
            run.stages[n].duration_ms or 0.0 for run in runs
        )
        for n in range(1, 9)
    }
    medians["engine (total minus stages)"] = statistics.median(
        (run.total_duration_ms or 0.0)
        - sum(record.duration_ms or 0.0 for record in run.stages.values())
        for run in runs
    )
    return medians


def cpu_ms(runs: list[tuple[float, float]]) -> float:
    """Median CPU milliseconds of this process (every thread) per run, from (start, end) pairs.

    On a shared machine the wall time swings with the neighbours' load; the CPU
    time this process spends is the steadier figure to compare two trees by.
    """
    return statistics.median((end - start) * 1000 for start, end in runs)


def main() -> int:
    root = Path(tempfile.mkdtemp(prefix="muse-bench-"))
    engine = Orchestrator(product_stages(), root)
    config = PipelineConfig(approval_gates=[])

    def compose(bars: int) -> ComposerPipeline:
        pipeline = run_blocking(
            engine.run(PROMPT, seed=1, config=config, answers={"bars": str(bars)})
        )
        assert pipeline.status == "completed", pipeline.status
        return pipeline

    song_100 = compose(100).song_state
    notes = sum(len(t.notes) for t in song_100.tracks)

    def assemble() -> None:
        write_song_midi(root / "assembly", song_100)

    env = {
        **os.environ,
        "MUSE_SESSIONS_DIR": str(root / "cli"),
        "MUSE_CONFIG_DIR": str(root / "cfg"),
    }
    cli = [
        sys.executable,
        "-m",
        "muse_tui.cli",
        "compose",
        PROMPT,
        "--seed",
        "1",
        "--bars",
        "64",
        "--yes",
    ]

    def whole_process() -> None:
        subprocess.run(cli, env=env, check=True, capture_output=True)

    print("muse-studio compose benchmark (median)")
    runs, cpu = [], []
    for _ in range(STAGE_RUNS):
        start = time.process_time()
        runs.append(compose(64))
        cpu.append((start, time.process_time()))
    per_stage = stage_medians(runs)
    print(f"per stage, 64 bars, median of {STAGE_RUNS} runs:")
    print("  " + ", ".join(f"{label} {value:.1f}" for label, value in per_stage.items()))
    print(f"  CPU time of the process per compose: {cpu_ms(cpu):.1f} ms")
    ok = report(
        "full compose in-process, 64 bars, 4 tracks", median_ms(lambda: compose(64), repeat=9), 80
    )
    ok &= report(
        f"assembly of a 100-bar 4-track song ({notes} notes)", median_ms(assemble, repeat=15), 50
    )
    ok &= report(
        "`muse-studio compose --yes` whole process", median_ms(whole_process, repeat=5), 1500
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
