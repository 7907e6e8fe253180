"""The genre table for reviewers: drum family, bass, comping, progressions and main bar per genre.

Run: .venv/bin/python bench/genres.py [--seeds 2] [--out genres.md]

Every genre of skills/harmony/genre-dna.json is composed from its first alias
("phonk", "afro house"…) through the real pipeline, 16 bars, at each seed; the
table shows what the DNA points at and what came out of the MIDI file: the
progression's numerals per seed and the main drum bar as a kick/snare/hat grid
(16th steps, K kick, S snare or clap, h hat, * two at once).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.listening.heard import read_session  # noqa: E402
from bench.listening.metrics import main_drum_bar  # noqa: E402
from muse_tui.contracts import PipelineConfig  # noqa: E402
from muse_tui.engine.orchestrator import Orchestrator, run_blocking  # noqa: E402
from muse_tui.engine.registry import product_stages  # noqa: E402
from muse_tui.knowledge import genre_table  # noqa: E402
from muse_tui.knowledge.lexicon import intent_lexicon  # noqa: E402
from muse_tui.knowledge.rhythm import rhythm_table  # noqa: E402

LETTERS = {"kick": "K", "snare": "S", "hat": "h"}


def grid(bar: frozenset[tuple[str, int]], steps: int = 16) -> str:
    """The main bar as one character per 16th step."""
    cells = ["."] * steps
    for voice, at in bar:
        if at < steps:
            letter = LETTERS.get(voice, "x")
            cells[at] = letter if cells[at] in (".", letter) else "*"
    return "".join(cells)


def numerals(folder: Path) -> str:
    state = json.loads((folder / "state" / "song-state.json").read_text())
    chords = (state.get("progression") or {}).get("chords") or []
    return " ".join(c["roman"] for c in chords)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--out", type=Path, help="also write the table here (markdown)")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="muse-genres-"))
    engine = Orchestrator(product_stages(), root)
    config = PipelineConfig(approval_gates=[])
    aliases = intent_lexicon().genre_aliases
    families = rhythm_table().drums.families
    rows = [
        "| genre | drum family (source) | bass | comping | progression per seed | main drum bar |",
        "|---|---|---|---|---|---|",
    ]
    started = time.perf_counter()
    for genre_id, dna in genre_table().genres.items():
        prompt = (aliases.get(genre_id) or [genre_id.replace("_", " ")])[0]
        progressions, bar = [], ""
        for seed in range(1, args.seeds + 1):
            pipeline = run_blocking(
                engine.run(prompt, seed=seed, config=config, answers={"bars": "16"})
            )
            folder = root / pipeline.session_id
            progressions.append(numerals(folder))
            if seed == 1:
                bar = grid(main_drum_bar(read_session(folder)))
        family = families.get(dna.drum_family)
        source = getattr(family, "source", "") or ""
        where = f"{dna.drum_family} ({source[:60]}…)" if source else dna.drum_family
        rows.append(
            f"| {genre_id} | {where} | {dna.bass_style} | {dna.chord_rhythm} | "
            f"{' / '.join(progressions)} | `{bar or '(no drums)'}` |"
        )
    shutil.rmtree(root, ignore_errors=True)
    table = "\n".join(rows)
    print(table)
    print(f"\n{len(rows) - 2} genres × {args.seeds} seeds in {time.perf_counter() - started:.0f} s")
    if args.out:
        args.out.write_text(table + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
