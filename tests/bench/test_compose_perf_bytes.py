"""A faster compose writes the same session: the files of a few composes are pinned by SHA-256.

The digests were taken after session 5's music merges (keys heard, grooves, motifs,
expression); the performance work was checked against main 247cddd's. The MIDI,
the progression, the notes and the song checkpoint must match byte for byte.
The pipeline checkpoint and the manifest carry ids, clock times, stage timings,
the sessions folder and the sizes that follow from them, so those are masked first; the
rest of their bytes (field order, compact JSON, every stage's output) is pinned.

A change to the MUSIC changes these digests by design: regenerate them with
`.venv/bin/python -m tests.bench.test_compose_perf_bytes` and say why in the
commit. A change meant only to make compose faster must leave them alone.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

import pytest

from muse_tui.contracts import PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages

#: (prompt, seed, bars): four tracks at 64 bars (the benchmark's song), then other
#: genres, lengths and instrument words so that every part writer and critic runs.
SONGS: list[tuple[str, int, int]] = [
    ("drill, 140, key of F#m", 1, 64),
    ("lofi hip hop with rhodes and vinyl crackle", 2, 32),
    ("deep house in A minor with a pad and a bassline", 3, 32),
    ("jazz ballad with piano, upright bass and brushes", 4, 16),
    ("big room trance anthem, 138, with a supersaw lead", 5, 48),
]

#: Values that differ between two composes of the same prompt and seed.
_VOLATILE = [
    (re.compile(rb'"(\w*(?:[Dd]urationMs|sizeBytes))":( ?)[0-9.e+-]+'), rb'"\1":\2 0'),
    (re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?\+00:00"), b"TIME"),
    (re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), b"UUID"),
    (re.compile(rb"session-\d{8}-[0-9a-z]{6}"), b"SESSION"),
]
_MASKED = {"state/pipeline-state.json", "manifest.json"}
#: The backups hold the checkpoint before the last one to land, and which one that is depends
#: on timing: the writer drops a checkpoint a newer one overtakes (S7's, on a busy machine, so
#: the backup is S6's). They are checked for being an earlier checkpoint of the run instead.
_BACKUPS = {"state/pipeline-state.json.bak", "state/song-state.json.bak"}


def _masked(data: bytes, root: Path) -> bytes:
    data = data.replace(str(root).encode(), b"ROOT")
    for pattern, replacement in _VOLATILE:
        data = pattern.sub(replacement, data)
    return data


def session_digests(root: Path, prompt: str, seed: int, bars: int) -> dict[str, str]:
    """Compose headless into `root`: per session file, its SHA-256 (first 40 hex digits).

    The volatile parts of the pipeline checkpoint and the manifest are masked first;
    the backups are left out (see `_BACKUPS`, and `test_the_backups_are_an_earlier_checkpoint`).
    """
    engine = Orchestrator(product_stages(), root)
    config = PipelineConfig(approval_gates=[])
    pipeline = run_blocking(
        engine.run(prompt, seed=seed, config=config, answers={"bars": str(bars)})
    )
    assert pipeline.status == "completed", pipeline.status
    folder = root / pipeline.session_id
    digests = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if not path.is_file() or name.startswith(".") or name in _BACKUPS:
            continue
        data = path.read_bytes()
        digests[name] = hashlib.sha256(
            _masked(data, root) if name in _MASKED else data
        ).hexdigest()[:40]
    return digests


def _key(prompt: str, seed: int, bars: int) -> str:
    return f"{prompt} | seed {seed} | {bars} bars"


PINNED: dict[str, dict[str, str]] = {
    "drill, 140, key of F#m | seed 1 | 64 bars": {
        "manifest.json": "53df3a5d103d2a1eff18221c5d14eaeded3fa017",
        "midi/chords.mid": "f4fbeb096a19827919a7246976d4f0304a0b6659",
        "midi/drums.mid": "ab71c86b11bee2baf6f12972abc9a8d8c76c210b",
        "midi/full-arrangement.mid": "cc1e6984aa771659146933e85664983c4bb378c3",
        "midi/lead.mid": "c02aa6df8136797b9be44feda5d28bdd6d585ae8",
        "midi/sub_bass.mid": "094b0ce14944b7a2b8702ad5ac62b6183d7dbe47",
        "notes/arrangement-map.md": "83603f216b3e5ff2cd1157889daeb3802e18c345",
        "notes/effect-chains.md": "e304a2a808697a636faa0992a4181c5f85a458d4",
        "notes/preset-assignments.md": "58f506f5e14c8c971d77f64ca693936fab21394c",
        "notes/producer-notes.md": "ca10093288cfc2256bab944e526e636ebfdf98b5",
        "progression/main.progression": "f1985069be1bd60a0455b5c03cdbde9e196cb5c4",
        "state/pipeline-state.json": "5cc49b3a8b294fe91c31680160212ae7a50ee460",
        "state/song-state.json": "e558164621b4e11a1ab72d15cd2139fb74989a66",
    },
    "lofi hip hop with rhodes and vinyl crackle | seed 2 | 32 bars": {
        "manifest.json": "d37d02320cdcf6d399aec19ab1abc2e0553a31cf",
        "midi/bass.mid": "df19b5d943d2b600ad24029edf3ea58492c14d77",
        "midi/drums.mid": "89c8a0e025084dfbc60f337a24816aaa4099ffb0",
        "midi/full-arrangement.mid": "c0b890b5258eede04314abb6c3fd64f98fa4da62",
        "midi/keys.mid": "f78bbf21d13b9675e8a0cbc6438ab0a27236c3d1",
        "midi/lead.mid": "047248ab1bb19cea1130351c5ff0ce53771262cc",
        "midi/texture.mid": "d31fa719ed60272987820d6bccfe7bbf630d2aac",
        "notes/arrangement-map.md": "a2a5d7a7c6b625896bfec5b3f69e636862758989",
        "notes/effect-chains.md": "0e0d95db0655890287c7c70ece1151608c1fe48d",
        "notes/preset-assignments.md": "f3b79d6f826f3c5c3fc3406ddf744e43c2a2eca7",
        "notes/producer-notes.md": "d5da11faa13a9a38e2d38cfaa9b8b34ad851f8ae",
        "progression/main.progression": "bb09e5e1d8905b6a611befd0b6e8e71559558292",
        "state/pipeline-state.json": "53f19723eca1ecd136fb61aadbfc5d38ccb6518f",
        "state/song-state.json": "3fc0d0bb58efdf0eca0a44e827896acfc5a0bf45",
    },
    "deep house in A minor with a pad and a bassline | seed 3 | 32 bars": {
        "manifest.json": "862625210245a37fb49f0bf297fb2ef3d9822935",
        "midi/bass.mid": "08f24d0c50c616cb4cd7aaab35aa93c267b4f8e0",
        "midi/chords.mid": "5cf32e5d541896af193d98b947de3e8c935b748b",
        "midi/drums.mid": "cb0eb154e60e7ca4a3f1e9587480dc1b23500de7",
        "midi/full-arrangement.mid": "3407d2121f740cff7e6601c5797b9d89118a6d56",
        "midi/pad.mid": "a22b1d60faebd2bf377b870c54c1484e0a4672d8",
        "midi/percussion.mid": "09fd0c81840e050d852ffd18733d648127897780",
        "notes/arrangement-map.md": "b03553d7923e38b12e388bbab4d3fd0c0135b98e",
        "notes/effect-chains.md": "2c8fd885b015be7fdd05b7d6347c2cf26cf243fb",
        "notes/preset-assignments.md": "5fda57ecd355c7148915f1bb1f8fe1323cb03cbb",
        "notes/producer-notes.md": "ac7aeb056fe375f987899aca3504ccd26e3ebf45",
        "progression/main.progression": "2bfcce95bb8fa49ff47e16c3c8a6048e8ccbe80d",
        "state/pipeline-state.json": "a31ea98f700c3c3185716a16d6de42b3a0e371fa",
        "state/song-state.json": "948642b17b826e1577e6d3468404f4a5e252374b",
    },
    "jazz ballad with piano, upright bass and brushes | seed 4 | 16 bars": {
        "manifest.json": "d82264b9f76876583ad2718b9b9b203e2abfc6fa",
        "midi/bass.mid": "0122e9e256658c08223a5703c05c8bd97a846499",
        "midi/chords.mid": "546c534eddfecd5fc7f65ffb5c4f43f67d1f6e87",
        "midi/drums.mid": "6f5865977c71c54bc3eeee343501a6a7121db60b",
        "midi/full-arrangement.mid": "fdf37831b54908541d3f85af4beb19d2ccd1add8",
        "midi/lead.mid": "8d3ef831d45224afbeb6d29074f3d710c5f42e64",
        "notes/arrangement-map.md": "3f17d25b7fecf758a3283f99fa8f6b6d67896482",
        "notes/effect-chains.md": "15ea9db60dbf22641e083bc3f294d10d6c1cb3c8",
        "notes/preset-assignments.md": "d3270715f8b8d5e16005ade75006a3f9f1d7d9d1",
        "notes/producer-notes.md": "b6f8a0bd3bb286672a0e01387396a6f98467c9f6",
        "progression/main.progression": "99609a56cca5adc0ea9049df463e0856477c6750",
        "state/pipeline-state.json": "b5c7b2800d7e9e1e46e2ec4f4ab6e7761bdbf71d",
        "state/song-state.json": "e9cc9292fd9027caa12add4ff8533b9463e5e6f1",
    },
    "big room trance anthem, 138, with a supersaw lead | seed 5 | 48 bars": {
        "manifest.json": "e487122073c23792c126f999ceee16290d9712bb",
        "midi/bass.mid": "77812f541adde243917da4d701c627cabb7cbf3e",
        "midi/chords.mid": "2ecd0051a99d995a5ffcc0987dc10511c9d133e7",
        "midi/drums.mid": "5f4fc0dd5e0af4e5f427cd4f82fb8cf2616648b7",
        "midi/full-arrangement.mid": "001e1baa23deb55419ec47be013282a2c6929f7e",
        "midi/lead.mid": "bfde52480d1eaebb2f6e0964e9d8a113794f8898",
        "midi/pad.mid": "97697408fb645715534b5f239a490da92bba12ec",
        "notes/arrangement-map.md": "b38d28c0e5050845033832989f5ac10752c2a8e6",
        "notes/effect-chains.md": "3e06baae7be57104a0b171965f19c212277122ac",
        "notes/preset-assignments.md": "ec22ef3a15b3188c7775c147664bb0b3b1a1f162",
        "notes/producer-notes.md": "8c02a87cfb5aca361be3e1e37094e4f4ddafdba7",
        "progression/main.progression": "2c6d46d2ecebf0b5051ca45bdabfa32e1ad1d924",
        "state/pipeline-state.json": "d3cdd6b950c8c027b967cd468bdb1ab87b3b774a",
        "state/song-state.json": "063e463595125cdefa81365570079c0a5d3a15df",
    },
}


@pytest.mark.parametrize(("prompt", "seed", "bars"), SONGS)
def test_a_compose_writes_the_pinned_bytes(
    tmp_path: Path, prompt: str, seed: int, bars: int
) -> None:
    expected = PINNED[_key(prompt, seed, bars)]
    actual = session_digests(tmp_path, prompt, seed, bars)
    assert sorted(actual) == sorted(expected), "the session lists other files"
    changed = [name for name in expected if actual[name] != expected[name]]
    assert not changed, f"these files' bytes moved: {changed}"


def test_the_backups_are_an_earlier_checkpoint_of_the_run(tmp_path: Path) -> None:
    """The backups are whole checkpoints of the same run, taken before the one in place."""
    prompt, seed, bars = SONGS[2]
    session_digests(tmp_path, prompt, seed, bars)
    (folder,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    state = folder / "state"
    final = json.loads((state / "pipeline-state.json").read_bytes())
    backup = json.loads((state / "pipeline-state.json.bak").read_bytes())
    assert backup["pipelineId"] == final["pipelineId"]
    assert backup["sessionId"] == final["sessionId"]
    assert 1 <= backup["currentStage"] < final["currentStage"]
    assert backup["songState"] == json.loads((state / "song-state.json.bak").read_bytes())


def _print_table() -> None:
    """Print the PINNED table for the current code (run when the music changes on purpose)."""
    import tempfile

    print("PINNED: dict[str, dict[str, str]] = {")
    for prompt, seed, bars in SONGS:
        with tempfile.TemporaryDirectory() as root:
            digests = session_digests(Path(root), prompt, seed, bars)
        print(f"    {_key(prompt, seed, bars)!r}: {{")
        for name, digest in digests.items():
            print(f"        {name!r}: {digest!r},")
        print("    },")
    print("}")


if __name__ == "__main__":
    _print_table()
    sys.exit(0)
