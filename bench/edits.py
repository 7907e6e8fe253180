"""Everyday edits (issue 15): how many of sixty requests are understood and heard in the MIDI.

Composes the four seeded songs of `tests/iteration/everyday.py` once, runs every
request on a fresh copy of its session, and prints understood N/60 and effect
verified N/60, then each request that falls short and why. `--all` prints every
request with its summary.

    .venv/bin/python bench/edits.py [--all]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.iteration.everyday import EVERYDAY, compose_songs, run_case


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        songs = compose_songs(root / "songs")
        outcomes = [run_case(case, songs, root / "edits") for case in EVERYDAY]
    total = len(outcomes)
    understood = sum(o.understood for o in outcomes)
    heard = sum(o.heard for o in outcomes)
    print(f"understood       {understood}/{total} ({understood / total:.0%})")
    print(f"effect verified  {heard}/{total} ({heard / total:.0%})")
    for o in outcomes:
        if "--all" in argv or not o.heard:
            mark = "ok " if o.heard else ("?? " if o.understood else "-- ")
            print(f"{mark}{o.case.song:5} {o.case.text!r}: {o.why or o.summary}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
