"""The producer audit over a fresh random draw: every song drawn, every check counted.

Run: .venv/bin/python bench/audit_draw.py --seed N [--count 40] [--keep DIR] [--only CHECK,...]

Prompts come from `../shared/audit/random_prompts.py --seed N` (a new N every time,
so nobody picks them). Each is composed through the real pipeline (no gates, as
`compose --yes`, seed 1) and the finished session folders are judged by
`../shared/audit/producer_audit.py --json`. Prints one line per song (its failed
checks with their figures) and the pass count per check. `--keep` leaves the
sessions in DIR for a listening panel (`bench/piano_roll.py`).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from muse_tui.contracts import PipelineConfig  # noqa: E402
from muse_tui.engine.orchestrator import Orchestrator, run_blocking  # noqa: E402
from muse_tui.engine.registry import product_stages  # noqa: E402

AUDIT = ROOT.parent / "shared" / "audit"


def draw(seed: int, count: int) -> list[str]:
    """The prompts random_prompts.py draws for `seed`, in its order."""
    out = subprocess.run(
        [
            sys.executable,
            str(AUDIT / "random_prompts.py"),
            "--seed",
            str(seed),
            "--count",
            str(count),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [line for line in out.splitlines() if line.strip()]


def compose_all(prompts: list[str], root: Path, seed: int) -> list[tuple[str, Path | None]]:
    """Each prompt composed headless into `root`; (prompt, session or None when it failed)."""
    engine = Orchestrator(product_stages(), root)
    done: list[tuple[str, Path | None]] = []
    for prompt in prompts:
        run = run_blocking(engine.run(prompt, seed=seed, config=PipelineConfig(approval_gates=[])))
        ok = run.status in ("completed", "partial")
        done.append((prompt, root / run.session_id if ok else None))
        if not ok:
            print(f"!! {prompt!r} ended {run.status}", file=sys.stderr)
    return done


def audit(sessions: list[tuple[str, Path]]) -> list[dict]:
    """producer_audit.py's JSON result per session, each judged against its own prompt."""
    results = []
    for prompt, session in sessions:
        out = subprocess.run(
            [
                sys.executable,
                str(AUDIT / "producer_audit.py"),
                str(session),
                "--json",
                "--prompt",
                prompt,
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        results.extend(json.loads(out)["sessions"])
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seed", type=int, required=True, help="random_prompts.py seed (a new one each time)"
    )
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument(
        "--compose-seed", type=int, default=1, help="the pipeline's seed for every song"
    )
    parser.add_argument("--keep", type=Path, help="leave the sessions here")
    parser.add_argument("--only", default="", help="comma-separated checks to print per song")
    args = parser.parse_args(argv)

    prompts = draw(args.seed, args.count)
    root = args.keep or Path(tempfile.mkdtemp(prefix="muse-audit-"))
    root.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    composed = compose_all(prompts, root, args.compose_seed)
    seconds = time.perf_counter() - started
    results = audit([(p, s) for p, s in composed if s is not None])
    only = {c for c in args.only.split(",") if c}

    passed: Counter[str] = Counter()
    scored: Counter[str] = Counter()
    for n, result in enumerate(results, 1):
        fails = []
        for check in result["checks"]:
            if check["status"] == "n/a":
                continue
            scored[check["check"]] += 1
            if check["status"] == "PASS":
                passed[check["check"]] += 1
            elif not only or check["check"] in only:
                fails.append(f"{check['check']} ({check['figure']})")
        print(f"{n:2}. {result['pass']}/{result['scored']}  {result['prompt']}")
        for fail in fails:
            print(f"      FAIL {fail}")
    print()
    print(
        f"random_prompts.py --seed {args.seed}: "
        f"{len(results)}/{len(prompts)} composed in {seconds:.0f} s"
    )
    for name in scored:
        print(f"  {name:<14} {passed[name]:3}/{scored[name]:<3}")
    if args.keep:
        print(f"sessions kept in {root}")
    else:
        shutil.rmtree(root, ignore_errors=True)
    return 0 if len(results) == len(prompts) else 1


if __name__ == "__main__":
    sys.exit(main())
