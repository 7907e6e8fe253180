"""Issue 31: how many of the request table's 150 requests do exactly what was asked, per family.

Composes the songs of `tests/unit/conversation/requests.yaml` once, runs every
request through `modify` on a fresh copy of its session, and checks the MIDI
before and after (`tests/unit/conversation/harness.py`): the change heard in the
target and scope, nothing outside them moved, an unresolvable scope asked back.
Rows marked xfail are counted as they are. Prints passed N/30 per family, the
total, then each failing request and why (`--quiet` leaves the list out).

    .venv/bin/python bench/requests.py [--quiet] [--family drums] [--grep WORDS]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.unit.conversation.harness import FAMILIES, compose_songs, row_id, rows, run_row


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--family")
    parser.add_argument("--grep")
    args = parser.parse_args(argv)
    chosen = [
        (i, r)
        for i, r in enumerate(rows())
        if (not args.family or r["family"] == args.family)
        and (not args.grep or args.grep in r["say"])
    ]
    by_family: dict[str, list] = defaultdict(list)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        songs = compose_songs(root / "songs")
        for index, row in chosen:
            by_family[row["family"]].append(run_row(row, songs, root / "runs", index))
    total = passed = 0
    for family in FAMILIES:
        found = by_family.get(family, [])
        if not found:
            continue
        ok = sum(o.passed for o in found)
        total, passed = total + len(found), passed + ok
        print(f"{family:<18} {ok:>3}/{len(found)} ({ok / len(found):.0%})")
    print(f"{'all':<18} {passed:>3}/{total} ({passed / max(total, 1):.0%})")
    if not args.quiet:
        for family in FAMILIES:
            for outcome in by_family.get(family, []):
                if not outcome.passed:
                    mark = " [xfail]" if outcome.row.get("xfail") else ""
                    print(f"  ✗ {family}: {row_id(outcome.row)}{mark} — {outcome.why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
