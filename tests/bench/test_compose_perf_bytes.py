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
        "manifest.json": "6892cbc4f467a802d8432dfcfdf0d1ac698a46ef",
        "midi/chords.mid": "cba739009b99b114dda264e4362a755a2ceaf5d5",
        "midi/drums.mid": "ab71c86b11bee2baf6f12972abc9a8d8c76c210b",
        "midi/full-arrangement.mid": "2ac99a5664660de0b8610617766f04e5f977dd57",
        "midi/lead.mid": "5e8dc9e77d0b5ecc490c01ee14e17349a2378062",
        "midi/sub_bass.mid": "c20d734dcf4ec98599bd16f8938fff1dff8f2f62",
        "notes/arrangement-map.md": "83603f216b3e5ff2cd1157889daeb3802e18c345",
        "notes/effect-chains.md": "e304a2a808697a636faa0992a4181c5f85a458d4",
        "notes/preset-assignments.md": "58f506f5e14c8c971d77f64ca693936fab21394c",
        "notes/producer-notes.md": "ac90b7e71e4701c3cd418d9b00846b9c429c3ed6",
        "progression/main.progression": "f571eb6bd52a5f0f418e0096251a21f9e3a44a19",
        "state/pipeline-state.json": "a16893ff3c8ed40b83298df7be590f76de6a8c89",
        "state/song-state.json": "8027c44743a186f5f35149ea842d3f4527443b2a",
    },
    "lofi hip hop with rhodes and vinyl crackle | seed 2 | 32 bars": {
        "manifest.json": "0ceeb919e3af02a4938360ad4d16d39a82f03bc4",
        "midi/bass.mid": "feff3c25833669c012f18caa5c031ca6c63000ae",
        "midi/drums.mid": "89c8a0e025084dfbc60f337a24816aaa4099ffb0",
        "midi/full-arrangement.mid": "30b277ef7a0c68a1829c06203c75e6bc41ea1daa",
        "midi/keys.mid": "416aa0f520c8f8fbbcce2eba91000a380d4879ce",
        "midi/texture.mid": "30979b95130bc6b110c55b0773cb0808b7060443",
        "notes/arrangement-map.md": "929fe3254865e7ddac558f139575a081b10274b9",
        "notes/effect-chains.md": "2fe2bcdb9d0d3972199638493041b74b5054fa96",
        "notes/preset-assignments.md": "78ad8c949bc8165e492cabe0c9f16c1fc0f9ddd0",
        "notes/producer-notes.md": "806d1e6f47ea030bd83543a294051dd9347dff9e",
        "progression/main.progression": "dd2778d283b4d12ba2f0f86fc4e5ebb543673897",
        "state/pipeline-state.json": "605541da6f3fb0f0a53bb6b60136a8cbbfce6767",
        "state/song-state.json": "a19ced913efed73ca2a2b67da265fff5a9c45c4e",
    },
    "deep house in A minor with a pad and a bassline | seed 3 | 32 bars": {
        "manifest.json": "e80020722be88bad4c6ed72ddf5a5c77fda8a123",
        "midi/bass.mid": "388fdc44ba149ab0e3df466036295c191cf521e4",
        "midi/chords.mid": "7ca1fa0855b372ba30c95665538c4ebfdb80695b",
        "midi/drums.mid": "cb0eb154e60e7ca4a3f1e9587480dc1b23500de7",
        "midi/full-arrangement.mid": "8fa2b8c3aa1282ecf3cef3786f0b6b7ab707aeee",
        "midi/pad.mid": "eab29a4da65284c4cf63611c42855b233396ab20",
        "midi/percussion.mid": "09fd0c81840e050d852ffd18733d648127897780",
        "notes/arrangement-map.md": "b03553d7923e38b12e388bbab4d3fd0c0135b98e",
        "notes/effect-chains.md": "2c8fd885b015be7fdd05b7d6347c2cf26cf243fb",
        "notes/preset-assignments.md": "5fda57ecd355c7148915f1bb1f8fe1323cb03cbb",
        "notes/producer-notes.md": "bde89568ef209ec913b6917a3e7aad86e98be88e",
        "progression/main.progression": "517c83e866f441d59a7fca4d034f6aa33074d931",
        "state/pipeline-state.json": "789c5b0857b57bcb8d5063373c8c41fb42b2de63",
        "state/song-state.json": "b2dc8ac3662d36682c1358765b80352d286c80bc",
    },
    "jazz ballad with piano, upright bass and brushes | seed 4 | 16 bars": {
        "manifest.json": "15dde5dbec6808c675bad8f6745751eb2db5abbb",
        "midi/bass.mid": "4c0da0d7320f6b00ae2118816c2f512212d925f9",
        "midi/drums.mid": "d2d6072479cc9448eb37a6ded2949137086a7e6b",
        "midi/full-arrangement.mid": "aca8967e9159ca4fdefec0d90b293d3ff030e450",
        "midi/keys.mid": "94be4a0d77f56a8abab66bc1e6649ebe48432803",
        "midi/lead.mid": "8c703d243d7626a1c761967543a7c111ada34245",
        "notes/arrangement-map.md": "aac8c1755b64c52418d0646df45c1b0fc43b89e2",
        "notes/effect-chains.md": "caf5682b494db0eaf1399823763f1f7c9180ad0e",
        "notes/preset-assignments.md": "fa49934ef78c0abd9b12074ccca45f0256869552",
        "notes/producer-notes.md": "0202417cb45363b9fc633104d190a8153ec1181a",
        "progression/main.progression": "ee68025233da38997d5a5c669f335c4f8439b159",
        "state/pipeline-state.json": "c04180ac1e0de36156f112ad6f6fc7e99d4ea7af",
        "state/song-state.json": "4f9cdfbb66c30e19e457956e126c37b8c7523860",
    },
    "big room trance anthem, 138, with a supersaw lead | seed 5 | 48 bars": {
        "manifest.json": "e487122073c23792c126f999ceee16290d9712bb",
        "midi/bass.mid": "0a9674d0682303ff655635c45c96b934f27c9924",
        "midi/chords.mid": "46f4c60234e9e9d354ebd77af6828822ba45bc5b",
        "midi/drums.mid": "5f4fc0dd5e0af4e5f427cd4f82fb8cf2616648b7",
        "midi/full-arrangement.mid": "c1f5af324df913ba9c8dd57c667ec5eb36bdbb17",
        "midi/lead.mid": "d52e9e66acd7982fd2a3189d8935ed20659e0d4a",
        "midi/pad.mid": "a91a0ba37d8240a1d97a6fda172c16f45145d5f7",
        "notes/arrangement-map.md": "b38d28c0e5050845033832989f5ac10752c2a8e6",
        "notes/effect-chains.md": "3e06baae7be57104a0b171965f19c212277122ac",
        "notes/preset-assignments.md": "ec22ef3a15b3188c7775c147664bb0b3b1a1f162",
        "notes/producer-notes.md": "16dd9370eb9d728a8675e4ff6704c02051373901",
        "progression/main.progression": "80cc54480c36be0930b92a03399ad2ec0256ebcf",
        "state/pipeline-state.json": "079da54b561aa74c824a8309358d610c7d3b2428",
        "state/song-state.json": "da80e6789799af392e2ec33b6e5596b947840e41",
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
