"""Key-heard benchmark: does music21 name the key each prompt asks for (tonic and mode)?

Run: .venv/bin/python bench/keys.py [--prompts FILE] [--seeds N] [--keep DIR]

Composes every prompt of `bench/prompts/keys.json` (or of the listening set, whose
entries also carry a `key`) through the real pipeline, as `compose --yes` does, and
reads the key with the listening benchmark's own music21 helper. One line a song:
the key asked, the key heard and how the two relate (relative, iv, v…), the genre and
the progression's numerals, so a failure says where to look.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.listen import compose, scratch_root  # noqa: E402
from bench.listening.heard import read_session  # noqa: E402
from bench.listening.metrics import heard_key, parse_key  # noqa: E402
from muse_tui.engine.orchestrator import Orchestrator  # noqa: E402
from muse_tui.engine.registry import product_stages  # noqa: E402
from muse_tui.theory.key import tonic_name  # noqa: E402

KEYS_FILE = ROOT / "bench" / "prompts" / "keys.json"


def relation(asked: tuple[int, str], heard: tuple[int, str]) -> str:
    """How the heard key stands to the asked one: 'ok', 'relative', 'iv', 'v', 'parallel'…"""
    if heard == asked:
        return "ok"
    step = (heard[0] - asked[0]) % 12
    if heard[1] == asked[1]:
        return {5: "iv/IV", 7: "v/V", 2: "ii", 10: "bVII"}.get(step, f"+{step}")
    if step == 0:
        return "parallel"
    relative = 9 if asked[1] == "major" else 3
    if step == relative:
        return "relative"
    return f"{heard[1]} +{step}"


def key_name(key: tuple[int, str]) -> str:
    """The key as it is written: "C# minor", "Db major" (the simpler key signature)."""
    return f"{tonic_name(*key)} {key[1]}"


def load(path: Path) -> list[tuple[str, str]]:
    """(prompt, key) pairs of a prompt file; entries without a key are left out."""
    data = json.loads(path.read_text())
    return [(p["prompt"], p["key"]) for p in data["prompts"] if p.get("key")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prompts", type=Path, default=KEYS_FILE)
    parser.add_argument("--seeds", type=int, default=1, help="seeds per prompt (from 1)")
    parser.add_argument("--keep", type=Path, help="keep the session folders here")
    args = parser.parse_args(argv)
    root = args.keep or scratch_root()
    root.mkdir(parents=True, exist_ok=True)
    engine = Orchestrator(product_stages(), root)
    right = total = 0
    misses: dict[str, int] = {}
    for prompt, key in load(args.prompts):
        asked = parse_key(key)
        for seed in range(1, args.seeds + 1):
            song = read_session(compose(engine, prompt, seed))
            heard = heard_key(song)
            how = relation(asked, heard) if heard else "silent"
            total += 1
            right += how == "ok"
            if how != "ok":
                misses[song.genre] = misses.get(song.genre, 0) + 1
            chords = " ".join(song.progression)
            print(
                f"{prompt[:40]:<40} s{seed} {song.genre:<13} asked {key_name(asked):<9} "
                f"heard {key_name(heard) if heard else '-':<9} {how:<10} {chords}"
            )
    print(f"\nmusic21 key == key asked: {right}/{total} ({right / max(total, 1):.0%})")
    if misses:
        print("misses by genre: " + ", ".join(f"{g} {n}" for g, n in sorted(misses.items())))
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
