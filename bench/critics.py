"""Critics benchmark: do the S7 critics rank songs as a listener would, and what do they cost?

Run: .venv/bin/python bench/critics.py [--gate] [--limit N] [--pairs]

1. The labelled set (tests/unit/critics_labelled): six good songs composed at fixed
   seeds, each spoiled seven unambiguous ways. Prints how often the good song
   outranks its spoiled copy on the composite, and how often the named axis drops.
2. The 5,000-character prompt ("… progression Am Am Am …"): its harmony score.
3. With --gate: the listening prompts (bench/prompts/listening.json) composed with
   the quality gate on, as `compose --quality-gate` does, counting the songs that
   failed the first take and the rewinds the gate asked for.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.listening.prompts import PROMPTS_FILE, load_prompts  # noqa: E402
from muse_tui.compose.critics import score_song  # noqa: E402
from muse_tui.contracts import PipelineConfig  # noqa: E402
from muse_tui.contracts.song import QualityScore  # noqa: E402
from muse_tui.engine.orchestrator import Orchestrator, run_blocking  # noqa: E402
from muse_tui.engine.registry import product_stages  # noqa: E402
from tests.unit.critics_labelled.labelled import AXIS, GOOD, compose_all, spoils  # noqa: E402

LONG_PROMPT = ("dark trap in A minor, progression " + " ".join(["Am"] * 1700))[:5000]


def axes(score: QualityScore) -> str:
    return (
        f"H{score.harmony:.2f} R{score.rhythm:.2f} A{score.arrangement:.2f} "
        f"V{score.vibe:.2f} = {score.composite:.2f}"
    )


def labelled_figures(show_pairs: bool) -> None:
    """Good beats spoiled, per pair and per degradation."""
    songs = compose_all([(g.prompt, g.seed) for g in GOOD] + [(g.foreign, 1) for g in GOOD])
    ranked = dropped = total = 0
    by_kind: Counter[str] = Counter()
    by_kind_ok: Counter[str] = Counter()
    for labelled in GOOD:
        good = songs[(labelled.prompt, labelled.seed)]
        donor = songs[(labelled.foreign, 1)].song
        before = score_song(good.song, good.intent)
        if show_pairs:
            print(f"{labelled.prompt[:44]:<44} good    {axes(before)}")
        for name, (degrade, axis) in AXIS.items():
            spoiled = degrade(good.song, good.intent, donor)
            if spoiled is None or not spoils(good.song, spoiled):
                continue
            after = score_song(spoiled, good.intent)
            above = before.composite > after.composite
            drop = getattr(after, axis) < getattr(before, axis)
            total += 1
            ranked += above
            dropped += drop
            by_kind[name] += 1
            by_kind_ok[name] += above and drop
            if show_pairs:
                mark = "ok" if above and drop else "MISSED"
                print(f"  {name:<26} {axis:<11} {axes(after)}  {mark}  {after.notes[:1]}")
    print(f"labelled set: {len(GOOD)} good songs, {total} spoiled copies that change the song")
    print(f"  good > spoiled on the composite  {ranked}/{total} ({ranked / total:.0%})")
    print(f"  the named axis drops             {dropped}/{total} ({dropped / total:.0%})")
    for name in AXIS:
        print(f"    {name:<26} {by_kind_ok[name]}/{by_kind[name]}")


def long_prompt_figure(engine: Orchestrator) -> None:
    """The issue's 5,000-character prompt, composed and scored."""
    config = PipelineConfig(approval_gates=[], enable_checkpoints=False)
    pipeline = run_blocking(engine.run(LONG_PROMPT, seed=1, config=config))
    song = pipeline.song_state
    chords = song.progression.chords if song.progression else []
    score = score_song(song, pipeline.intent)
    print(
        f"5,000-character prompt: {len(chords)} chords "
        f"({len({c.symbol for c in chords})} distinct), {axes(score)}, "
        f"{'passes' if score.passed else 'fails'}: {score.notes[:1]}"
    )


def gate_figures(engine: Orchestrator, limit: int) -> None:
    """First-take failures and rewinds with the quality gate on, over the listening prompts."""
    prompts = load_prompts(PROMPTS_FILE).prompts[: limit or None]
    config = PipelineConfig(approval_gates=[], enable_checkpoints=False, enable_quality_gate=True)
    rewinds, failed_first, axes_low = [], 0, Counter[str]()
    composites = []
    for prompt in prompts:
        pipeline = run_blocking(engine.run(prompt.prompt, seed=1, config=config))
        record = pipeline.stages.get(7)
        errors = record.attempt_errors if record else []
        rewinds.append(len(errors))
        failed_first += bool(errors)
        if pipeline.song_state.tracks:
            score = score_song(pipeline.song_state, pipeline.intent)
            composites.append(score.composite)
            axes_low.update(
                a for a in ("harmony", "rhythm", "arrangement", "vibe") if getattr(score, a) < 0.5
            )
    n = len(prompts)
    print(f"quality gate over {n} listening prompts (seed 1):")
    print(f"  songs that failed their first take  {failed_first}/{n}")
    print(f"  rewinds asked for                   {sum(rewinds)} (most on one song {max(rewinds)})")
    print(f"  composite of the final take, median {statistics.median(composites):.2f}")
    print(f"  final takes with an axis below 0.5  {dict(axes_low) or 'none'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gate", action="store_true", help="count quality-gate rewinds too")
    parser.add_argument("--limit", type=int, default=0, help="only the first N prompts (--gate)")
    parser.add_argument("--pairs", action="store_true", help="print every good/spoiled pair")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    labelled_figures(args.pairs)
    with tempfile.TemporaryDirectory(prefix="muse-critics-", dir=_ram()) as folder:
        engine = Orchestrator(product_stages(), Path(folder))
        long_prompt_figure(engine)
        if args.gate:
            gate_figures(engine, args.limit)
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


def _ram() -> Path | None:
    """/dev/shm where the machine has it: the session writer fsyncs."""
    shm = Path("/dev/shm")
    return shm if shm.is_dir() else None


if __name__ == "__main__":
    sys.exit(main())
