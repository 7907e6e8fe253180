"""Guard for speed work: compose a fixed set of songs and compare every file with a reference.

`record DIR` composes each case through the CLI into DIR; `check DIR` composes them
again into a temporary folder and compares every file of every session byte for
byte. In JSON files the values that differ between any two runs (ids, timestamps,
durations, sizes, the session folder's name and path) are blanked first.

Run: .venv/bin/python bench/reference_outputs.py record /tmp/muse-reference
     .venv/bin/python bench/reference_outputs.py check /tmp/muse-reference
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROMPTS = {
    "trap": "dark trap beat in F minor",
    "lofi": "lofi hip hop, dusty and mellow",
    "house": "deep house groove, 124 bpm",
    "jazz": "late night jazz ballad in Bb",
    "dnb": "drum and bass, rolling, 174",
    "afrobeats": "afrobeats summer vibe",
    "neosoul": "neo-soul, warm chords, D major",
    "rock": "driving rock anthem in E",
    "drill": "drill, 140, key of F#m",
}
SEEDS = (1, 2)
# A few more shapes: a long song, and runs that may rewind stages for quality.
EXTRA = [
    ("drill", 7, ["--bars", "100"]),
    ("lofi", 3, ["--quality-gate"]),
    ("rock", 4, ["--quality-gate"]),
]


def cases() -> list[tuple[str, str, int, list[str]]]:
    """(folder name, prompt, seed, extra CLI options) for every song."""
    out = [(f"{g}-{s}", PROMPTS[g], s, []) for g in PROMPTS for s in SEEDS]
    out += [(f"{g}-{s}-{'-'.join(o).strip('-')}", PROMPTS[g], s, o) for g, s, o in EXTRA]
    return out


def compose(root: Path, name: str, prompt: str, seed: int, options: list[str]) -> Path:
    env = {**os.environ, "MUSE_CONFIG_DIR": str(root / ".config")}
    out = root / name
    command = [sys.executable, "-m", "muse_tui.cli", "compose", prompt, "--seed", str(seed)]
    command += ["--yes", "--out", str(out), *options]
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    if done.returncode not in (0, 3):  # 3: partial completion is an outcome, too
        raise SystemExit(f"{name}: exit {done.returncode}\n{done.stderr}")
    (session,) = [p for p in out.iterdir() if p.is_dir()]
    return session


def compose_all(root: Path) -> dict[str, Path]:
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        futures = {c[0]: pool.submit(compose, root, *c) for c in cases()}
    return {name: future.result() for name, future in futures.items()}


_VOLATILE = re.compile(
    rb'"(sessionId|pipelineId|sizeBytes|checkpointPath|\w*At|\w*[dD]urationMs)":(\s*)'
    rb'("[^"]*"|[-+0-9.eE]+|null)'
)


def comparable(path: Path, session: Path) -> bytes:
    """The file's bytes, with run-specific values in JSON blanked (keys, order and layout kept)."""
    data = path.read_bytes()
    if path.name.endswith((".json", ".json.bak")):
        data = _VOLATILE.sub(rb'"\1":\2_', data)
        data = data.replace(str(session).encode(), b"<session>")
        data = data.replace(session.name.encode(), b"<session>")
    return data


def check(reference: Path) -> int:
    with tempfile.TemporaryDirectory(prefix="muse-check-") as tmp:
        fresh = compose_all(Path(tmp))
        compared, differing = 0, []
        for name, session in fresh.items():
            (old,) = [p for p in (reference / name).iterdir() if p.is_dir()]
            old_files = sorted(p.relative_to(old) for p in old.rglob("*") if p.is_file())
            new_files = sorted(p.relative_to(session) for p in session.rglob("*") if p.is_file())
            if old_files != new_files:
                differing.append(f"{name}: file lists differ")
                continue
            for rel in new_files:
                compared += 1
                if comparable(old / rel, old) != comparable(session / rel, session):
                    differing.append(f"{name}/{rel}")
    print(f"{compared} files compared across {len(fresh)} songs; {len(differing)} differ")
    for line in differing:
        print("  DIFFERS", line)
    return 1 if differing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["record", "check"])
    parser.add_argument("reference", type=Path)
    args = parser.parse_args()
    if args.action == "record":
        args.reference.mkdir(parents=True, exist_ok=False)
        sessions = compose_all(args.reference)
        print(f"recorded {len(sessions)} songs in {args.reference}")
        return 0
    return check(args.reference)


if __name__ == "__main__":
    sys.exit(main())
