"""Listening benchmark: compose the prompt set through the real pipeline, print issue-13/14 figures.

Run: .venv/bin/python bench/listen.py [--seeds 1] [--variety-seeds 8] [--limit N] [--keep DIR]

Each prompt of bench/prompts/listening.json is composed in process (no gates, as
`compose --yes`), its session folder read back from disk (the MIDI a producer opens),
and measured by bench/listening/metrics.py. The "variety" prompts are composed with
`--variety-seeds` seeds to count distinct progressions and drum bars.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.listening.heard import read_session  # noqa: E402
from bench.listening.prompts import PROMPTS_FILE, ListeningPrompt, load_prompts  # noqa: E402
from bench.listening.survey import SongFigures, figure_rows, measure, over_pairs  # noqa: E402
from muse_tui.contracts import PipelineConfig  # noqa: E402
from muse_tui.engine.orchestrator import Orchestrator, run_blocking  # noqa: E402
from muse_tui.engine.registry import product_stages  # noqa: E402


def scratch_root() -> Path:
    """A temp folder, in RAM where the machine has one (the session writer fsyncs)."""
    shm = Path("/dev/shm")
    return Path(tempfile.mkdtemp(prefix="muse-listen-", dir=shm if shm.is_dir() else None))


def compose(engine: Orchestrator, prompt: str, seed: int) -> Path:
    """Compose one prompt headless; the finished session folder."""
    pipeline = run_blocking(engine.run(prompt, seed=seed, config=PipelineConfig(approval_gates=[])))
    if pipeline.status not in ("completed", "partial"):
        raise RuntimeError(f"{prompt!r} seed {seed} ended {pipeline.status}")
    return engine.sessions_root / pipeline.session_id


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompts", type=Path, default=PROMPTS_FILE)
    parser.add_argument("--seeds", type=int, default=1, help="seeds per prompt (from 1)")
    parser.add_argument("--variety-seeds", type=int, default=8, help="seeds per variety prompt")
    parser.add_argument("--limit", type=int, default=0, help="only the first N prompts")
    parser.add_argument("--keep", type=Path, help="keep the session folders here")
    parser.add_argument("--songs", action="store_true", help="print one line per song too")
    return parser.parse_args(argv)


def song_line(s: SongFigures) -> str:
    """One song, compactly: what a reviewer scans for the worst offenders."""
    doubling = "-" if s.harmony_doubling is None else f"{s.harmony_doubling:.2f}"
    rest = "-" if s.lead_rest is None else f"{s.lead_rest:.2f}"
    missing = ",".join(s.missing_instruments) or "-"
    return (
        f"{s.prompt.prompt[:44]:<44} s{s.seed} {s.genre:<11} key {'ok' if s.key_right else 'NO'} "
        f"lead {'y' if s.lead else 'n'} rest {rest} dbl {doubling} "
        f"crash {s.crashes[0]}/{s.crashes[1]} copies {s.copies} missing {missing}"
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    prompt_set = load_prompts(args.prompts)
    prompts = prompt_set.prompts[: args.limit or None]
    root = args.keep or scratch_root()
    root.mkdir(parents=True, exist_ok=True)
    engine = Orchestrator(product_stages(), root)
    started = time.perf_counter()
    songs: list[SongFigures] = []
    for prompt in prompts:
        for seed in range(1, args.seeds + 1):
            song = read_session(compose(engine, prompt.prompt, seed))
            songs.append(measure(song, prompt, seed, prompt_set))
    variety: dict[str, list[SongFigures]] = {}
    for text in prompt_set.variety:
        known = next((p for p in prompt_set.prompts if p.prompt == text), None)
        prompt = known or ListeningPrompt(text, ("?",), "?", None, (), False, False)
        variety[text] = [
            measure(read_session(compose(engine, text, seed)), prompt, seed, prompt_set)
            for seed in range(1, args.variety_seeds + 1)
        ]
    elapsed = time.perf_counter() - started
    if args.songs:
        for s in songs:
            print(song_line(s))
        print()
    print(
        f"muse-studio listening figures: {len(prompts)} prompts × {args.seeds} seed(s), "
        f"{len(variety)} variety prompts × {args.variety_seeds} seeds, {elapsed:.0f} s"
    )
    rows = figure_rows(songs, variety)
    width = max(len(r[0]) for r in rows)
    for label, value, target in rows:
        print(f"{label:<{width}}  {value:<22} target {target}")
    worst = over_pairs(songs)
    if worst:
        shown = ", ".join(f"{a}~{b} {j:.2f}" for a, b, j in worst[:8])
        print(f"\nunrelated genre pairs over 0.7 ({len(worst)}): {shown}")
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
