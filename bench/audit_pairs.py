"""The producer audit's seed check over a fresh random draw: is a second seed a new song?

Run: .venv/bin/python bench/audit_pairs.py --seed N [--count 8] [--seeds 1,2] [--keep DIR]

Prompts come from `../shared/audit/random_prompts.py --seed N` (a new N every time).
Each is composed at the two pipeline seeds (as `compose --yes`) and the two sessions
are compared by `../shared/audit/producer_audit.py A B --pair`. Prints one line per
prompt (new song or variation, same progression, same form) and the count of new songs.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from audit_draw import AUDIT, compose_all, draw


def pair(a: Path, b: Path, prompt: str) -> dict:
    """producer_audit.py's --pair result for two sessions of one prompt."""
    out = subprocess.run(
        [sys.executable, str(AUDIT / "producer_audit.py"), str(a), str(b), "--pair", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out)["pair"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True, help="random_prompts.py seed")
    parser.add_argument("--count", type=int, default=8)
    parser.add_argument("--seeds", default="1,2", help="the two pipeline seeds")
    parser.add_argument("--keep", type=Path, help="leave the sessions here")
    args = parser.parse_args(argv)
    first, second = (int(s) for s in args.seeds.split(","))

    prompts = draw(args.seed, args.count)
    root = args.keep or Path(tempfile.mkdtemp(prefix="muse-pairs-"))
    root.mkdir(parents=True, exist_ok=True)
    one = compose_all(prompts, root / f"seed{first}", first)
    two = compose_all(prompts, root / f"seed{second}", second)
    new = 0
    for n, ((prompt, a), (_, b)) in enumerate(zip(one, two, strict=True), 1):
        if a is None or b is None:
            print(f"{n}. not composed  {prompt}")
            continue
        result = pair(a, b, prompt)
        new += bool(result["new_song"])
        verdict = "new song " if result["new_song"] else "variation"
        print(
            f"{n}. {verdict} same progression {result['same_progression']!s:5} "
            f"same form {result['same_form']!s:5} {prompt}"
        )
        print(f"      {result['tracks']}")
    print(f"\nrandom_prompts.py --seed {args.seed}: {new}/{len(prompts)} new songs")
    if args.keep:
        print(f"sessions kept in {root}")
    else:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
