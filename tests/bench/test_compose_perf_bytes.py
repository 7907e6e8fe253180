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
_MASKED = {"state/pipeline-state.json", "state/pipeline-state.json.bak", "manifest.json"}


def _masked(data: bytes, root: Path) -> bytes:
    data = data.replace(str(root).encode(), b"ROOT")
    for pattern, replacement in _VOLATILE:
        data = pattern.sub(replacement, data)
    return data


def session_digests(root: Path, prompt: str, seed: int, bars: int) -> dict[str, str]:
    """Compose headless into `root`: per session file, its SHA-256 (first 40 hex digits).

    The volatile parts of the pipeline checkpoint and the manifest are masked first.
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
        if not path.is_file() or name.startswith("."):
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
        "manifest.json": "8d4ab16bcdd2b94d86dcd5813065a8c1314cf686",
        "midi/chords.mid": "e0a6554df6ff2379dd849d686197bf0ec689d888",
        "midi/drums.mid": "ab71c86b11bee2baf6f12972abc9a8d8c76c210b",
        "midi/full-arrangement.mid": "dd574d8749ded1452483e77a5678410eb1beb329",
        "midi/lead.mid": "956e4accf5c1d43a516d3085c3a9128f27a6c209",
        "midi/sub_bass.mid": "393fe9474c2ca41a2a7aff29ffbef9fcc40083fc",
        "notes/arrangement-map.md": "f392ac54c9c19810524d3fc3ff5467a2930ecfab",
        "notes/effect-chains.md": "e304a2a808697a636faa0992a4181c5f85a458d4",
        "notes/preset-assignments.md": "58f506f5e14c8c971d77f64ca693936fab21394c",
        "notes/producer-notes.md": "bfd20e602f770781f1178065712dfbf46a202831",
        "progression/main.progression": "f571eb6bd52a5f0f418e0096251a21f9e3a44a19",
        "state/pipeline-state.json": "b639b069a06c379e4627fd601fa5ef10ccf36a20",
        "state/pipeline-state.json.bak": "fbb512911edeb9109dda9f33fa0cd01b263e879a",
        "state/song-state.json": "590cf0c146a96fbc482d222b0785fcce20c8a675",
        "state/song-state.json.bak": "590cf0c146a96fbc482d222b0785fcce20c8a675",
    },
    "lofi hip hop with rhodes and vinyl crackle | seed 2 | 32 bars": {
        "manifest.json": "67d6ef52ca2ac14cee50f55e91e45e1a046ac790",
        "midi/bass.mid": "3e71e438417bc9a47b770ad33b91c63f6a59c8a7",
        "midi/drums.mid": "89c8a0e025084dfbc60f337a24816aaa4099ffb0",
        "midi/full-arrangement.mid": "66488a83045a4d09ead91eda84500a8aad324303",
        "midi/keys.mid": "7658fcad0400b90e35e0750b8d153727a1dbd958",
        "midi/texture.mid": "24e28984deb41eed8adb8a240ec961e001361f8c",
        "notes/arrangement-map.md": "929fe3254865e7ddac558f139575a081b10274b9",
        "notes/effect-chains.md": "2fe2bcdb9d0d3972199638493041b74b5054fa96",
        "notes/preset-assignments.md": "78ad8c949bc8165e492cabe0c9f16c1fc0f9ddd0",
        "notes/producer-notes.md": "806d1e6f47ea030bd83543a294051dd9347dff9e",
        "progression/main.progression": "dd2778d283b4d12ba2f0f86fc4e5ebb543673897",
        "state/pipeline-state.json": "1bfd8efdc57380236977f6d47deca72a304471f5",
        "state/pipeline-state.json.bak": "b3aba7af0167698ac5a3c83deb00220c1ba56bcb",
        "state/song-state.json": "6dd14e7aab791bef5eb5a7bd47637175398aee7c",
        "state/song-state.json.bak": "6dd14e7aab791bef5eb5a7bd47637175398aee7c",
    },
    "deep house in A minor with a pad and a bassline | seed 3 | 32 bars": {
        "manifest.json": "d9271999df85959c3ace53f5305de693fb054b9d",
        "midi/bass.mid": "4149570e50f7f56dc25fbf918aa2e620d543ee9b",
        "midi/drums.mid": "cb0eb154e60e7ca4a3f1e9587480dc1b23500de7",
        "midi/full-arrangement.mid": "5d9d8724e50b65273b75389f96d056559fb5b59b",
        "midi/pad.mid": "5e09934bf2f38ef880723291154c0bf7e2e5b2df",
        "midi/percussion.mid": "09fd0c81840e050d852ffd18733d648127897780",
        "notes/arrangement-map.md": "dac68b2d046fe9c9d04ca9dd93c4020d93a6b37a",
        "notes/effect-chains.md": "2349a3a0c2d9682318c50f97408bd335ef1a4148",
        "notes/preset-assignments.md": "8b3de5c2f81c9389753ba70ad2abb994987b61d1",
        "notes/producer-notes.md": "e0aacf4dfb708ff18797e1447185b01d0de1ab88",
        "progression/main.progression": "517c83e866f441d59a7fca4d034f6aa33074d931",
        "state/pipeline-state.json": "a28ce7496f7f6bd6d496f73f58f480f1b3f886d8",
        "state/pipeline-state.json.bak": "1645f2f9eedde4a7b1dfb0085ae9205c3a46615d",
        "state/song-state.json": "4fd162f01bacce58deab7004464b81675630e2f2",
        "state/song-state.json.bak": "4fd162f01bacce58deab7004464b81675630e2f2",
    },
    "jazz ballad with piano, upright bass and brushes | seed 4 | 16 bars": {
        "manifest.json": "5eba96013e629cb2711089646a1d184dda996e24",
        "midi/bass.mid": "8122079ae27b05a396d9abcfc69ad8f7b0d13ca8",
        "midi/chords.mid": "fede8e3c96625b1a81aac57f545f46f2b93be6ba",
        "midi/drums.mid": "61935fae8fd12461dc6a489097719d28d352f973",
        "midi/full-arrangement.mid": "40b21c8850541c71cb39fe86e24cd1325eeda25d",
        "midi/lead.mid": "a105cd3fef4145815bc92fa12c1d9fc6de13bb03",
        "notes/arrangement-map.md": "8cf761aadfe349d1b40b4e1fa3404fa4d874d71b",
        "notes/effect-chains.md": "0685f719d5647e21d821b1289b4704d7b06419cf",
        "notes/preset-assignments.md": "c58d88a3ee80f98136fbe25bdf3d2786efdaa0d9",
        "notes/producer-notes.md": "9c96d0d9bcbf5bf6fa803498c841bba4aa1ec307",
        "progression/main.progression": "ee68025233da38997d5a5c669f335c4f8439b159",
        "state/pipeline-state.json": "52c3f10d1a52876b5804e087885e109fa28b3dd9",
        "state/pipeline-state.json.bak": "7a7279a8391d18aa7fb6e9d93c462d26f41976f8",
        "state/song-state.json": "41e3f265cc58dfbb0d7526ccb80d845a6b835347",
        "state/song-state.json.bak": "41e3f265cc58dfbb0d7526ccb80d845a6b835347",
    },
    "big room trance anthem, 138, with a supersaw lead | seed 5 | 48 bars": {
        "manifest.json": "e487122073c23792c126f999ceee16290d9712bb",
        "midi/bass.mid": "0a9674d0682303ff655635c45c96b934f27c9924",
        "midi/chords.mid": "76ef1afc6a34e849d72a57bf85e1378a4a048b9a",
        "midi/drums.mid": "5f4fc0dd5e0af4e5f427cd4f82fb8cf2616648b7",
        "midi/full-arrangement.mid": "63f8c0d20b8968e57e6c45c36b35e1f615c329aa",
        "midi/lead.mid": "50fe791f33076fb809126dff07db2591d153617d",
        "midi/pad.mid": "34ebd261d882642b979e6491186abb83cb456759",
        "notes/arrangement-map.md": "b38d28c0e5050845033832989f5ac10752c2a8e6",
        "notes/effect-chains.md": "3e06baae7be57104a0b171965f19c212277122ac",
        "notes/preset-assignments.md": "ec22ef3a15b3188c7775c147664bb0b3b1a1f162",
        "notes/producer-notes.md": "da41d5bc69ad1faa86e71451fdf0a3d52b6ed932",
        "progression/main.progression": "80cc54480c36be0930b92a03399ad2ec0256ebcf",
        "state/pipeline-state.json": "447ec8786b38f498613b442d928e1cdfd4cdc3d8",
        "state/pipeline-state.json.bak": "081a3350cee89040e5c390b021daa4bb89493843",
        "state/song-state.json": "287d23df407e02efd14fc505d0b920944adcf1a7",
        "state/song-state.json.bak": "287d23df407e02efd14fc505d0b920944adcf1a7",
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
