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
        "midi/chords.mid": "fb415d25d8442d19dc1276015c7187d901bee3e5",
        "midi/drums.mid": "ab71c86b11bee2baf6f12972abc9a8d8c76c210b",
        "midi/full-arrangement.mid": "ef3be33df017262012e62b0e3ac5a84d7e1c28a3",
        "midi/lead.mid": "e11349ee0fc95eed42ddd8496acc8ee027656ab7",
        "midi/sub_bass.mid": "69486d525a73b776abe25f59bee0b4747fcb3525",
        "notes/arrangement-map.md": "f392ac54c9c19810524d3fc3ff5467a2930ecfab",
        "notes/effect-chains.md": "e304a2a808697a636faa0992a4181c5f85a458d4",
        "notes/preset-assignments.md": "58f506f5e14c8c971d77f64ca693936fab21394c",
        "notes/producer-notes.md": "ac90b7e71e4701c3cd418d9b00846b9c429c3ed6",
        "progression/main.progression": "f571eb6bd52a5f0f418e0096251a21f9e3a44a19",
        "state/pipeline-state.json": "528ab2d71316e28396aae73f8e15d6e7b5aeb57f",
        "state/song-state.json": "e4918cf811706d5a167c4b80d74263e08f3ff482",
    },
    "lofi hip hop with rhodes and vinyl crackle | seed 2 | 32 bars": {
        "manifest.json": "67d6ef52ca2ac14cee50f55e91e45e1a046ac790",
        "midi/bass.mid": "3e71e438417bc9a47b770ad33b91c63f6a59c8a7",
        "midi/drums.mid": "89c8a0e025084dfbc60f337a24816aaa4099ffb0",
        "midi/full-arrangement.mid": "165c4eba6af650b0c310185fbdafdbff74ed51bf",
        "midi/keys.mid": "9ca602018ed7d257540865478cd89daacd890b1e",
        "midi/texture.mid": "24e28984deb41eed8adb8a240ec961e001361f8c",
        "notes/arrangement-map.md": "929fe3254865e7ddac558f139575a081b10274b9",
        "notes/effect-chains.md": "2fe2bcdb9d0d3972199638493041b74b5054fa96",
        "notes/preset-assignments.md": "78ad8c949bc8165e492cabe0c9f16c1fc0f9ddd0",
        "notes/producer-notes.md": "806d1e6f47ea030bd83543a294051dd9347dff9e",
        "progression/main.progression": "dd2778d283b4d12ba2f0f86fc4e5ebb543673897",
        "state/pipeline-state.json": "342eef56f623fc4ddd06908b793ba3c82c88a449",
        "state/song-state.json": "5f0ecf24e01fc60a8bd7ddfa8ea87231df583e12",
    },
    "deep house in A minor with a pad and a bassline | seed 3 | 32 bars": {
        "manifest.json": "862625210245a37fb49f0bf297fb2ef3d9822935",
        "midi/bass.mid": "388fdc44ba149ab0e3df466036295c191cf521e4",
        "midi/chords.mid": "bb25967bf7f357a37e16b59d4630e1ec72a67c19",
        "midi/drums.mid": "cb0eb154e60e7ca4a3f1e9587480dc1b23500de7",
        "midi/full-arrangement.mid": "4f23098be76b0d6b4fc2054205843f97b72e1786",
        "midi/pad.mid": "846705cae3c54284dcbb7f3e78d76803a7524b3e",
        "midi/percussion.mid": "09fd0c81840e050d852ffd18733d648127897780",
        "notes/arrangement-map.md": "b03553d7923e38b12e388bbab4d3fd0c0135b98e",
        "notes/effect-chains.md": "2c8fd885b015be7fdd05b7d6347c2cf26cf243fb",
        "notes/preset-assignments.md": "5fda57ecd355c7148915f1bb1f8fe1323cb03cbb",
        "notes/producer-notes.md": "bde89568ef209ec913b6917a3e7aad86e98be88e",
        "progression/main.progression": "517c83e866f441d59a7fca4d034f6aa33074d931",
        "state/pipeline-state.json": "ae383941c647ab61cd56328e31f7210f76cfb3a6",
        "state/song-state.json": "fe35030bc8903c044c732cc8a2ff7bafa3166996",
    },
    "jazz ballad with piano, upright bass and brushes | seed 4 | 16 bars": {
        "manifest.json": "15dde5dbec6808c675bad8f6745751eb2db5abbb",
        "midi/bass.mid": "0c3040ca34f8a6407aae83a2aaf3a5ee52f8b832",
        "midi/drums.mid": "d2d6072479cc9448eb37a6ded2949137086a7e6b",
        "midi/full-arrangement.mid": "8439e0b617c87d2e5a33a89cd4d7e847b6e8dd0e",
        "midi/keys.mid": "817ccfa7b2225e3728e05bb51ea3cdcca747285e",
        "midi/lead.mid": "fb2cb4b78b2079aac70fb6b582a09886c4e26b72",
        "notes/arrangement-map.md": "aac8c1755b64c52418d0646df45c1b0fc43b89e2",
        "notes/effect-chains.md": "caf5682b494db0eaf1399823763f1f7c9180ad0e",
        "notes/preset-assignments.md": "fa49934ef78c0abd9b12074ccca45f0256869552",
        "notes/producer-notes.md": "0202417cb45363b9fc633104d190a8153ec1181a",
        "progression/main.progression": "ee68025233da38997d5a5c669f335c4f8439b159",
        "state/pipeline-state.json": "bb8b1f25b85edba45652eb1e79677881f90c9011",
        "state/song-state.json": "eaaf2cc632491b8484d40c4746e8e826db40156e",
    },
    "big room trance anthem, 138, with a supersaw lead | seed 5 | 48 bars": {
        "manifest.json": "e487122073c23792c126f999ceee16290d9712bb",
        "midi/bass.mid": "0a9674d0682303ff655635c45c96b934f27c9924",
        "midi/chords.mid": "d809d564b98c52ce3b61fb4e6cca561a557de08d",
        "midi/drums.mid": "5f4fc0dd5e0af4e5f427cd4f82fb8cf2616648b7",
        "midi/full-arrangement.mid": "d0c566a4e67931a0c7a00a6c935161119698b3dc",
        "midi/lead.mid": "d52e9e66acd7982fd2a3189d8935ed20659e0d4a",
        "midi/pad.mid": "3d0d6c1c2ec93e16d6434d5e7ccb3cb3fe1bc593",
        "notes/arrangement-map.md": "b38d28c0e5050845033832989f5ac10752c2a8e6",
        "notes/effect-chains.md": "3e06baae7be57104a0b171965f19c212277122ac",
        "notes/preset-assignments.md": "ec22ef3a15b3188c7775c147664bb0b3b1a1f162",
        "notes/producer-notes.md": "16dd9370eb9d728a8675e4ff6704c02051373901",
        "progression/main.progression": "80cc54480c36be0930b92a03399ad2ec0256ebcf",
        "state/pipeline-state.json": "ba975f08ae7827a792239b7e35f147b889df6f22",
        "state/song-state.json": "efcd7cd40645864234be20682e0db1450ffe970b",
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
