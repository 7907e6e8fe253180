"""Voice leading of the harmony parts over a fresh random draw, against a hand-voiced reference.

Run: .venv/bin/python bench/voicing.py --seed N [--count 20]

Each prompt of `../shared/audit/random_prompts.py --seed N` is composed (as
`bench/audit_draw.py` does) and every harmony track (chords, keys, pad) is read
back from the file: its chords (two or more pitch classes struck in one 16th: an
octave is one note doubled, as a montuno's line plays it, not a chord), and at
each chord change (the pitch classes differ) the semitones its upper voices move
(`theory.spacing.upper_voice_motion`: the lowest note left out, voices paired
from the top). Prints the mean per change against `voiceLeading.motionBound` of
`skills/harmony/voicings.json`, and the same figure for two progressions voiced
by hand: I-vi-IV-V-I led by nearest notes (the bound must sit well above it) and
the same chords as parallel root-position triads (the bound must sit below it).
Also prints how often a comping track strikes one identical voicing for more
than a bar.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import mido  # noqa: E402

from bench.audit_draw import compose_all, draw  # noqa: E402
from muse_tui.knowledge.rhythm import rhythm_table  # noqa: E402
from muse_tui.knowledge.voicings import voicing_table  # noqa: E402
from muse_tui.theory.pitch import name_to_midi  # noqa: E402
from muse_tui.theory.spacing import upper_voice_motion  # noqa: E402

HARMONY = ("chords", "keys", "pad")
#: I-vi-IV-V-I in C, four voices, each led to the nearest notes (bass first).
HAND_LED = ["C3 E4 G4 C5", "A2 E4 A4 C5", "F2 F4 A4 C5", "G2 D4 G4 B4", "C3 E4 G4 C5"]
#: The same chords as root-position close triads over the bass, moved in parallel.
PARALLEL = ["C3 C4 E4 G4", "A2 A3 C4 E4", "F2 F3 A3 C4", "G2 G3 B3 D4", "C3 C4 E4 G4"]


def mean_motion(voicings: list[tuple[int, ...]]) -> float:
    """Mean upper-voice motion over the changes of a list of voicings."""
    moves = [upper_voice_motion(a, b) for a, b in pairwise(voicings)]
    return statistics.mean(moves) if moves else 0.0


def _voiced(names: list[str]) -> list[tuple[int, ...]]:
    return [tuple(name_to_midi(n) for n in chord.split()) for chord in names]


def chords_of(session: Path) -> dict[str, list[tuple[float, tuple[int, ...]]]]:
    """Harmony track name → its struck chords (beat, pitches), from the session's file."""
    state = json.loads((session / "state" / "song-state.json").read_text())
    roles = {t["name"]: t["role"] for t in state["tracks"]}
    midi = mido.MidiFile(str(session / "midi" / "full-arrangement.mid"))
    found: dict[str, list[tuple[float, tuple[int, ...]]]] = {}
    for smf in midi.tracks:
        name = next((m.name for m in smf if m.type == "track_name"), "")
        if roles.get(name) not in HARMONY:
            continue
        tick, steps = 0, defaultdict(set)
        for message in smf:
            tick += message.time
            if message.type == "note_on" and message.velocity:
                steps[round(tick / midi.ticks_per_beat * 4)].add(message.note)
        found[name] = [
            (s / 4, tuple(sorted(p)))
            for s, p in sorted(steps.items())
            if len({q % 12 for q in p}) >= 2
        ]
    return found


def changes(chords: list[tuple[float, tuple[int, ...]]]) -> list[float]:
    """Upper-voice motion at every chord change (pitch classes differ)."""
    moves = []
    for (_, a), (_, b) in pairwise(chords):
        if {p % 12 for p in a} != {p % 12 for p in b}:
            moves.append(upper_voice_motion(a, b))
    return moves


def long_runs(chords: list[tuple[float, tuple[int, ...]]], bar: float) -> tuple[int, int]:
    """(runs of one identical voicing struck again for more than a bar, runs in all); a bar or
    more of rest ends a run (a part coming back after it is not restriking)."""
    runs = long = 0
    index = 0
    while index < len(chords):
        end = index
        while (
            end + 1 < len(chords)
            and chords[end + 1][1] == chords[index][1]
            and chords[end + 1][0] - chords[end][0] < bar
        ):
            end += 1
        runs += 1
        long += end > index and chords[end][0] - chords[index][0] >= bar
        index = end + 1
    return long, runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True, help="a new seed every time")
    parser.add_argument("--count", type=int, default=20)
    args = parser.parse_args(argv)

    bound = voicing_table().voice_leading.motion_bound
    with tempfile.TemporaryDirectory(prefix="muse-voicing-") as folder:
        composed = compose_all(draw(args.seed, args.count), Path(folder), 1)
        moves: list[float] = []
        long = runs = songs = 0
        for _, session in composed:
            if session is None:
                continue
            state = json.loads((session / "state" / "song-state.json").read_text())
            numerator, denominator = state.get("timeSignature") or (4, 4)
            bar = numerator * 4 / denominator
            holders = rhythm_table().held_programs  # organs, strings: they hold their chords
            held = {
                t["name"]
                for t in state["tracks"]
                if t["role"] == "pad"
                or any(lo <= (t.get("program") or -1) <= hi for lo, hi in holders)
            }
            tracks = chords_of(session)
            songs += bool(tracks)
            for name, chords in tracks.items():
                moves += changes(chords)
                if name not in held:
                    more, total = long_runs(chords, bar)
                    long, runs = long + more, runs + total
    figure = statistics.mean(moves) if moves else 0.0
    print(f"random_prompts.py --seed {args.seed}: {songs} songs with harmony parts")
    print(f"  hand-led I-vi-IV-V-I (reference)   {mean_motion(_voiced(HAND_LED)):5.2f} semitones")
    print(f"  parallel root-position triads      {mean_motion(_voiced(PARALLEL)):5.2f} semitones")
    print(
        f"  harmony parts, {len(moves)} changes        {figure:5.2f} semitones   "
        f"bound < {bound:g}   {'ok' if figure < bound else 'MISSED'}"
    )
    share = long / runs if runs else 0.0
    print(
        f"  comping voicings struck unchanged for more than a bar (holders aside): "
        f"{long}/{runs} ({share:.0%})"
    )
    return 0 if figure < bound else 1


if __name__ == "__main__":
    sys.exit(main())
