"""Engine benchmark: a full in-process compose with the real stages, and the engine's own overhead.

Run: .venv/bin/python bench/pipeline.py
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import median_ms, report
from muse_tui.contracts import (
    ArrangementOutput,
    AssemblyOutput,
    EnrichedProgression,
    HarmonyOutput,
    IntentOutput,
    OutputOutput,
    PartsOutput,
    PipelineConfig,
    PipelineIntent,
    ProgressionChord,
    QualityScore,
    SessionManifest,
    SoundsOutput,
    ValidationOutput,
)
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages
from muse_tui.engine.stages import StageRegistry, StageResult

PROMPT = "drill, 140, key of F#m"  # drums, 808, chords, lead: four tracks


def no_op_stages() -> StageRegistry:
    """Stages that return valid outputs instantly, to time the engine alone."""
    intent = PipelineIntent(genre=["x"], raw_prompt="x")
    progression = EnrichedProgression(
        key="C",
        mode="major",
        chords=[ProgressionChord(symbol="C", roman="I", voicing=[60], beats=4)],
    )
    score = QualityScore(harmony=1, rhythm=1, arrangement=1, vibe=1, composite=1, passed=True)
    manifest = SessionManifest(
        session_id="session-20261122-000000",
        pipeline_id="00000000-0000-4000-8000-000000000000",
        created_at="",
        prompt="x",
        genre="x",
        key="C",
        tempo=120,
        total_bars=0,
        track_count=0,
        muse_version="bench",
    )
    outputs = {
        1: IntentOutput(intent=intent),
        2: HarmonyOutput(progression=progression, progression_file_path="p"),
        3: None,
        4: PartsOutput(tracks=[]),
        5: SoundsOutput(presets=[], effect_chains=[]),
        6: AssemblyOutput(assembled_file_path="a", track_file_paths=[]),
        7: ValidationOutput(quality_report=score, passed=True),
        8: OutputOutput(manifest=manifest, playback_initiated=False),
    }

    def stage(n: int):
        async def run(song, ctx):
            output = outputs[n]
            if output is None:
                from muse_tui.contracts import Arrangement, Section

                arrangement = Arrangement(
                    template="x",
                    sections=[Section(name="A", kind="verse", start_bar=0, bars=4, energy=0.5)],
                )
                output = ArrangementOutput(arrangement=arrangement)
            return StageResult(output, song, "done")

        return run

    return {n: stage(n) for n in range(1, 9)}


def main() -> int:
    root = Path(tempfile.mkdtemp(prefix="muse-bench-"))
    config = PipelineConfig(approval_gates=[], enable_checkpoints=True)
    real = Orchestrator(product_stages(), root)
    bare = Orchestrator(no_op_stages(), root)
    bare_config = PipelineConfig(approval_gates=[], enable_checkpoints=False)

    def compose() -> None:
        p = run_blocking(real.run(PROMPT, seed=1, config=config, answers={"bars": "64"}))
        assert p.status == "completed", p.status

    def overhead() -> None:
        p = run_blocking(bare.run("x", seed=1, config=bare_config))
        assert p.status == "completed", p.status

    def overhead_in_loop() -> None:
        async def many() -> None:
            for _ in range(20):
                await bare.run("x", seed=1, config=bare_config)

        asyncio.run(many())

    print("muse-studio pipeline benchmark (median)")
    ok = report(
        "full compose, real stages, 64 bars, 4 tracks, checkpoints",
        median_ms(compose, repeat=9),
        150,
    )
    ok &= report(
        "engine overhead per run, no-op stages (incl. asyncio.run)",
        median_ms(overhead, repeat=50),
        5,
    )
    report(
        "engine overhead per run, no-op stages, one event loop",
        median_ms(overhead_in_loop, repeat=5) / 20,
        5,
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
