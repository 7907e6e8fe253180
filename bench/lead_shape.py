"""How the leads of kept sessions are shaped: pitches per phrase, repeated notes, ranges, openings.

Run: .venv/bin/python bench/lead_shape.py DIR [DIR...]   (session folders, e.g. audit_draw --keep)

Reads each session's `midi/full-arrangement.mid` (through the producer audit's reader) and its
song state (which tracks are leads, where the sections are). Per lead, per section:

- distinct pitches in each 4-bar phrase (a phrase of three notes or more), and the share of
  phrases with three pitches or fewer (what a producer hears as "E-E-E-D-E");
- the repeated-note ratio: consecutive notes of a section on the same pitch;
- the share of sections (four notes or more) whose lead spans under a 7th (7 semitones);
- for each repeat of a section kind against its first statement (hooks apart from the rest,
  since a repeated hook keeps its pitches): whether its opening phrase is the first one's
  pasted (by 16th onset and pitch, Jaccard ≥ 0.9), and whether it keeps the first one's
  rhythm (onsets, Jaccard ≥ 0.6): recognisable, yet not a copy.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from itertools import pairwise
from pathlib import Path

AUDIT = Path(__file__).resolve().parent.parent.parent / "shared" / "audit"
sys.path.insert(0, str(AUDIT))

import producer_audit  # noqa: E402

PHRASE_BARS = 4
COPIED = 0.9
SAME_RHYTHM = 0.6
NARROW = 7
#: Section kinds whose lead is the hook: a repeat keeps its pitches (ornamented) by design.
HOOKS = frozenset({"chorus", "hook", "drop"})


def _jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def measure(session: Path) -> dict[str, list]:
    state = json.loads((session / "state" / "song-state.json").read_text())
    song = producer_audit.Song(str(session))
    bar = song.bar_beats
    leads = {t["name"] for t in state["tracks"] if t["role"] == "lead"}
    sections = state.get("arrangement", {}).get("sections", [])
    out: dict[str, list] = {"distinct": [], "repeats": [], "ranges": [], "openings": []}
    for track in song.tracks:
        if track.name not in leads:
            continue
        firsts: dict[str, list] = {}
        for sec in sections:
            start, end = sec["startBar"] * bar, (sec["startBar"] + sec["bars"]) * bar
            notes = [n for n in track.notes if start <= n.start < end]
            if len(notes) >= 4:
                pitches = [n.pitch for n in notes]
                out["ranges"].append(max(pitches) - min(pitches))
                pairs = list(pairwise(pitches))
                out["repeats"].append(sum(a == b for a, b in pairs) / len(pairs))
            for p in range(0, sec["bars"], PHRASE_BARS):
                lo, hi = start + p * bar, start + min(sec["bars"], p + PHRASE_BARS) * bar
                phrase = [n.pitch for n in notes if lo <= n.start < hi]
                if len(phrase) >= 3:
                    out["distinct"].append(len(set(phrase)))
            head = start + min(sec["bars"], PHRASE_BARS) * bar
            opening = [(round((n.start - start) * 4), n.pitch) for n in notes if n.start < head]
            if not opening:
                continue
            if sec["kind"] not in firsts:
                firsts[sec["kind"]] = opening
                continue
            first = firsts[sec["kind"]]
            copied = _jaccard(set(first), set(opening)) >= COPIED
            rhythm = _jaccard({o for o, _ in first}, {o for o, _ in opening}) >= SAME_RHYTHM
            out["openings"].append((copied, rhythm, sec["kind"] in HOOKS))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    args = parser.parse_args()
    sessions = [
        s
        for d in args.dirs
        for s in ([d] if (d / "midi").is_dir() else sorted(d.iterdir()))
        if (s / "midi" / "full-arrangement.mid").exists()
    ]
    total: dict[str, list] = {"distinct": [], "repeats": [], "ranges": [], "openings": []}
    for session in sessions:
        for key, values in measure(session).items():
            total[key] += values
    distinct, ranges, openings = total["distinct"], total["ranges"], total["openings"]
    print(f"{len(sessions)} sessions")
    if distinct:
        few = sum(d <= 3 for d in distinct)
        print(
            f"pitches per 4-bar phrase: mean {statistics.mean(distinct):.2f}, median "
            f"{statistics.median(distinct)}, ≤3 pitches in {few}/{len(distinct)} "
            f"({few / len(distinct):.0%})"
        )
    if total["repeats"]:
        print(f"repeated-note ratio (mean per section): {statistics.mean(total['repeats']):.1%}")
    if ranges:
        narrow = sum(r < NARROW for r in ranges)
        print(
            f"section range: median {statistics.median(ranges)}, under {NARROW} semitones in "
            f"{narrow}/{len(ranges)} ({narrow / len(ranges):.0%})"
        )
    for label, hook in (("hook", True), ("other", False)):
        kind = [(c, r) for c, r, h in openings if h == hook]
        if kind:
            copied = sum(c for c, _ in kind)
            kept = sum(r and not c for c, r in kind)
            print(
                f"repeat openings ({label}): pasted {copied}/{len(kind)}, "
                f"varied with the motif rhythm kept {kept}/{len(kind)}"
            )


if __name__ == "__main__":
    main()
