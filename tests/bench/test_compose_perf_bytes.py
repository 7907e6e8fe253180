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
        "manifest.json": "2bc2ae0eb7c7934fe4c072aa8ee43d1bfb65e28d",
        "midi/chords.mid": "32c916e756a6cc5f8746399cd12e18c918632307",
        "midi/drums.mid": "ab71c86b11bee2baf6f12972abc9a8d8c76c210b",
        "midi/full-arrangement.mid": "51083c8757c4cf335f85a20e42de79e4a9c1274a",
        "midi/lead.mid": "e11349ee0fc95eed42ddd8496acc8ee027656ab7",
        "midi/sub_bass.mid": "69486d525a73b776abe25f59bee0b4747fcb3525",
        "notes/arrangement-map.md": "f392ac54c9c19810524d3fc3ff5467a2930ecfab",
        "notes/effect-chains.md": "e304a2a808697a636faa0992a4181c5f85a458d4",
        "notes/preset-assignments.md": "58f506f5e14c8c971d77f64ca693936fab21394c",
        "notes/producer-notes.md": "ac90b7e71e4701c3cd418d9b00846b9c429c3ed6",
        "progression/main.progression": "f571eb6bd52a5f0f418e0096251a21f9e3a44a19",
        "state/pipeline-state.json": "9182eb6e65439ac65f9be5e1886395b800625a96",
        "state/song-state.json": "2272db27a5e61a4a2179e1bc27f46dd7d5297913",
    },
    "lofi hip hop with rhodes and vinyl crackle | seed 2 | 32 bars": {
        "manifest.json": "dcdea2be8c23f06373bdc6d8e88fa3ae8cec8c82",
        "midi/bass.mid": "3e71e438417bc9a47b770ad33b91c63f6a59c8a7",
        "midi/drums.mid": "89c8a0e025084dfbc60f337a24816aaa4099ffb0",
        "midi/full-arrangement.mid": "71ffdc9c972e6440e00313ac698d64a198c6d271",
        "midi/keys.mid": "7658fcad0400b90e35e0750b8d153727a1dbd958",
        "midi/lead.mid": "2b85b8076dec5db6507b82aa87644dda58df7138",
        "midi/texture.mid": "e0992cf1c0cf1137c6a6700124a8414102dc9ac2",
        "notes/arrangement-map.md": "a2a5d7a7c6b625896bfec5b3f69e636862758989",
        "notes/effect-chains.md": "0e0d95db0655890287c7c70ece1151608c1fe48d",
        "notes/preset-assignments.md": "f3b79d6f826f3c5c3fc3406ddf744e43c2a2eca7",
        "notes/producer-notes.md": "09df833ef8f818c461c27925eb82b0b451e09dc8",
        "progression/main.progression": "dd2778d283b4d12ba2f0f86fc4e5ebb543673897",
        "state/pipeline-state.json": "26313f09b8f9377aeeb1f3eac686dd5a358caedb",
        "state/song-state.json": "3cc246f0a48ed35cd48e1b7c1d06333dba4d40d0",
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
        "manifest.json": "3dc57a907193857141b6bd321849a93472c4357c",
        "midi/bass.mid": "0c3040ca34f8a6407aae83a2aaf3a5ee52f8b832",
        "midi/chords.mid": "6d1db2b79caa2c1004dfe08abbd40cce293fc0d7",
        "midi/drums.mid": "1e4637c539c43d28457c558e330524c1de0b9742",
        "midi/full-arrangement.mid": "60fbfed667d08bb2f1a2903bbeebc14bb6bee0ad",
        "midi/lead.mid": "917fb982d2da5e64e2325a60b7e7bf32f38b5e0b",
        "notes/arrangement-map.md": "8cf761aadfe349d1b40b4e1fa3404fa4d874d71b",
        "notes/effect-chains.md": "15ea9db60dbf22641e083bc3f294d10d6c1cb3c8",
        "notes/preset-assignments.md": "d3270715f8b8d5e16005ade75006a3f9f1d7d9d1",
        "notes/producer-notes.md": "43819dfb17e91127829584b63fc66872d46ec17d",
        "progression/main.progression": "ee68025233da38997d5a5c669f335c4f8439b159",
        "state/pipeline-state.json": "aa102ef4d88ab0028c9cae7167e78ffdd0317e6d",
        "state/song-state.json": "b97f03d62bf8e37c335ae1c9c868f2bb720d3518",
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
