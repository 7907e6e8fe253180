"""Iteration benchmark: a moderate change and three alternatives for a track, on a 64-bar song.

Run: .venv/bin/python bench/iteration.py
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import median_ms, report
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import ComposerPipeline, PipelineConfig, new_id
from muse_tui.engine.alternatives import element_for, generate_alternatives
from muse_tui.engine.editing import modify
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages

PROMPT = "neo soul, late night, 85 bpm, in Eb minor"  # drums, bass, keys, lead, pad
MODERATE = "Bass too busy, simplify"


def unique_region_ids(pipeline: ComposerPipeline) -> ComposerPipeline:
    """Give repeated region ids fresh ones (S4 seeds repeated section kinds alike)."""
    seen: set[str] = set()
    tracks = []
    for track in pipeline.song_state.tracks:
        regions = []
        for region in track.regions:
            if region.id in seen:
                fresh = new_id(derive_rng(0, track.id, region.start_beat))
                region = region.model_copy(update={"id": fresh})
            seen.add(region.id)
            regions.append(region)
        tracks.append(track.model_copy(update={"regions": regions}))
    song = pipeline.song_state.model_copy(update={"tracks": tracks})
    return pipeline.model_copy(update={"song_state": song})


def main() -> int:
    root = Path(tempfile.mkdtemp(prefix="muse-bench-"))
    engine = Orchestrator(product_stages(), root)
    config = PipelineConfig(approval_gates=[])
    pipeline = run_blocking(engine.run(PROMPT, seed=1, config=config, answers={"bars": "64"}))
    assert pipeline.status == "completed", pipeline.status
    pipeline = unique_region_ids(pipeline)
    bars = pipeline.song_state.arrangement.total_bars if pipeline.song_state.arrangement else 0
    folder = root / pipeline.session_id
    scratch = root / "scratch"
    bass = element_for(pipeline, "track:bass")

    def moderate() -> None:
        result = run_blocking(modify(pipeline, MODERATE))
        assert result.regenerated_components == ["bass"], result.summary

    def moderate_on_disk() -> None:
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.copytree(folder, scratch)
        run_blocking(modify(pipeline, MODERATE, session_dir=scratch))

    def copy_only() -> None:
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.copytree(folder, scratch)

    def three_alternatives() -> None:
        made = generate_alternatives(pipeline, bass, 3)
        assert len(made.alternative_set.variants) == 3 and not made.reused

    print(f"muse-studio iteration benchmark (median), {bars} bars, 5 tracks")
    ok = report(
        "moderate change: regenerate the bass, re-assemble", median_ms(moderate, repeat=15), 50
    )
    ok &= report(
        "three alternatives for the bass track", median_ms(three_alternatives, repeat=15), 100
    )
    on_disk = median_ms(moderate_on_disk, repeat=9) - median_ms(copy_only, repeat=9)
    report("moderate change, files rewritten too (informational)", on_disk, 150)
    shutil.rmtree(root, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
