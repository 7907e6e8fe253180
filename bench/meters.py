"""The producer audit's meter check over prompts nobody picked: 10 per meter, by default.

Run: .venv/bin/python bench/meters.py [--per-meter 10] [--seed N] [--keep DIR]

Prompts are drawn with `../shared/audit/random_prompts.py` (a fresh `--seed` each
time), from seed N upward until every meter has its share; each is composed at
its own length through the real pipeline and judged by
`../shared/audit/producer_audit.py`'s meter check on `full-arrangement.mid`. A
"shuffle feel" prompt is not a meter and is left out. Prints one line per song
and the pass count per meter.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.audit_draw import audit  # noqa: E402
from muse_tui.contracts import PipelineConfig  # noqa: E402
from muse_tui.engine.orchestrator import Orchestrator, run_blocking  # noqa: E402
from muse_tui.engine.registry import product_stages  # noqa: E402

AUDIT = ROOT.parent / "shared" / "audit"
#: The meter a drawn prompt asks for, by the words random_prompts.py writes.
ASKED = {
    "in 3/4": "3/4",
    "as a waltz": "3/4",
    "in 6/8": "6/8",
    "in 12/8": "12/8",
    "in 5/4": "5/4",
    "in 7/8": "7/8",
}


def draw(per_meter: int, seed: int) -> dict[str, list[str]]:
    """Prompts per meter, in the order the draws give them."""
    wanted: dict[str, list[str]] = defaultdict(list)
    labels = set(ASKED.values())
    while any(len(wanted[m]) < per_meter for m in labels):
        out = subprocess.run(
            [
                sys.executable,
                str(AUDIT / "random_prompts.py"),
                "--seed",
                str(seed),
                "--count",
                "50",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for prompt in out.splitlines():
            for words, meter in ASKED.items():
                if words in prompt and len(wanted[meter]) < per_meter:
                    wanted[meter].append(prompt)
        seed += 1
    return wanted


def audit_meter(session: Path, prompt: str) -> tuple[str, str]:
    """(PASS/FAIL/n/a, the evidence line) of the audit's meter check."""
    (result,) = audit([(prompt, session)])
    meter = next(c for c in result["checks"] if c.get("check") == "meter")
    return str(meter["status"]), f"{meter['figure']}; {meter['evidence']}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-meter", type=int, default=10)
    parser.add_argument("--seed", type=int, required=True, help="a fresh number every run")
    parser.add_argument("--keep", type=Path, help="compose into this folder and keep it")
    args = parser.parse_args(argv)
    root = args.keep or Path(tempfile.mkdtemp(prefix="muse-meters-"))
    engine = Orchestrator(product_stages(), root)
    config = PipelineConfig(approval_gates=[])
    passed: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    for meter, prompts in draw(args.per_meter, args.seed).items():
        for number, prompt in enumerate(prompts):
            pipeline = run_blocking(engine.run(prompt, seed=number + 1, config=config))
            if pipeline.status != "completed":
                print(f"{meter:5} {'ERROR':5} {pipeline.status}: {prompt}")
                total[meter] += 1
                continue
            status, figure = audit_meter(root / pipeline.session_id, prompt)
            passed[meter] += status == "PASS"
            total[meter] += 1
            print(f"{meter:5} {status:5} {prompt}  [{figure}]")
    print()
    for meter in sorted(total, key=lambda m: list(ASKED.values()).index(m)):
        print(f"meter {meter:5} {passed[meter]}/{total[meter]} pass the audit's meter check")
    print(f"sessions in {root}")
    return 0 if sum(passed.values()) == sum(total.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
