"""A faster compose writes the same session: the files of a few composes are pinned by SHA-256.

The digests were taken on main (247cddd) before any performance work. The MIDI,
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
        "manifest.json": "2c3ed410e82a3742133ce0d5ee01bc8050534cad",
        "midi/chords.mid": "293080d48667536575f19ead1cd57203014a35b8",
        "midi/drums.mid": "474d5744b5f5c9a1f44359da3d038872f0a98ede",
        "midi/full-arrangement.mid": "e96c25d0d44f20dec52d5854c7dd88b61d1cee5b",
        "midi/lead.mid": "61e333357da8d6b01b0c49ef82f5cf26da347287",
        "midi/sub_bass.mid": "b540e819fcb7fda7edbcce64bb6844e454b51a9b",
        "notes/arrangement-map.md": "f392ac54c9c19810524d3fc3ff5467a2930ecfab",
        "notes/effect-chains.md": "e304a2a808697a636faa0992a4181c5f85a458d4",
        "notes/preset-assignments.md": "58f506f5e14c8c971d77f64ca693936fab21394c",
        "notes/producer-notes.md": "bfd20e602f770781f1178065712dfbf46a202831",
        "progression/main.progression": "f571eb6bd52a5f0f418e0096251a21f9e3a44a19",
        "state/pipeline-state.json": "e12f598ffc5f5402ac3c5f58f206ff1839e47823",
        "state/pipeline-state.json.bak": "97aecd324a82d3146d857b27ffedc8b9cf2be882",
        "state/song-state.json": "a28d7e32cc4b36c5571acae45015e927f3af7bc3",
        "state/song-state.json.bak": "a28d7e32cc4b36c5571acae45015e927f3af7bc3",
    },
    "lofi hip hop with rhodes and vinyl crackle | seed 2 | 32 bars": {
        "manifest.json": "67d6ef52ca2ac14cee50f55e91e45e1a046ac790",
        "midi/bass.mid": "b351db181bd76bbeae7880b7b5ecf8c721d1b269",
        "midi/drums.mid": "abb4a48dd6bd8b16ee102e4e984bdac3366dcc5b",
        "midi/full-arrangement.mid": "dee16143914187d6ad9e16fc0a39fb5348c064ac",
        "midi/keys.mid": "25ce4b29bf4a20ee55673f1ecfc51dcff26f32aa",
        "midi/texture.mid": "fb19c1ab1ef0503fca0bd10f1f98495d87cb7db0",
        "notes/arrangement-map.md": "929fe3254865e7ddac558f139575a081b10274b9",
        "notes/effect-chains.md": "2fe2bcdb9d0d3972199638493041b74b5054fa96",
        "notes/preset-assignments.md": "78ad8c949bc8165e492cabe0c9f16c1fc0f9ddd0",
        "notes/producer-notes.md": "806d1e6f47ea030bd83543a294051dd9347dff9e",
        "progression/main.progression": "dd2778d283b4d12ba2f0f86fc4e5ebb543673897",
        "state/pipeline-state.json": "446f1d9bda89f6b860471c98c2af45c095a02f18",
        "state/pipeline-state.json.bak": "1c4decd597f53d949c38897b9d087a9cc313316c",
        "state/song-state.json": "56e9326378185e3455a842a06253f85c4305fbc3",
        "state/song-state.json.bak": "56e9326378185e3455a842a06253f85c4305fbc3",
    },
    "deep house in A minor with a pad and a bassline | seed 3 | 32 bars": {
        "manifest.json": "4bba960f587fcdf027f54b9090ee28b319771f96",
        "midi/bass.mid": "a01a57b28224a57ac9aeb1baa4fc1042d5a83f60",
        "midi/drums.mid": "b1036b6cf6dcf7e110115126a1bd62733c5f6e5f",
        "midi/full-arrangement.mid": "b6828ca5c198f47fe624afbb878707677e72acf9",
        "midi/pad.mid": "6fe0f8103834b77b58cd2852b3d30a021a4a1527",
        "midi/percussion.mid": "0414782773f9329aa918c5b24970956767c82044",
        "notes/arrangement-map.md": "57e4433e2cb9acfe1f977744d3591a8ee46a7ce3",
        "notes/effect-chains.md": "a9ec0fd2af16c9089334ef8a40eaefb69d92aa1d",
        "notes/preset-assignments.md": "feeeb3dba5cb82225f746a39521add7d7988f616",
        "notes/producer-notes.md": "594ce164685f3afc2f34504102ea6bbe21e43164",
        "progression/main.progression": "517c83e866f441d59a7fca4d034f6aa33074d931",
        "state/pipeline-state.json": "8aa7a91513f9efa6b8342e0f69fbd8c156bbeafd",
        "state/pipeline-state.json.bak": "19a84a370852acfebaf8f176e5118effd6319cfe",
        "state/song-state.json": "88e8e331ed10ab7a70d30a5a97faff78939db504",
        "state/song-state.json.bak": "88e8e331ed10ab7a70d30a5a97faff78939db504",
    },
    "jazz ballad with piano, upright bass and brushes | seed 4 | 16 bars": {
        "manifest.json": "6738b4c4852002fd8505ac0692e20040c3dc45dc",
        "midi/bass.mid": "766d61e1585cc4d22b9fa4127af1350f4990c11d",
        "midi/chords.mid": "f10d6125e6718c3b007d9963902f4622fbeb26da",
        "midi/drums.mid": "ba3281429ccbc170546948c19f1f10cf8643f493",
        "midi/full-arrangement.mid": "fead1bea141e81390ce982d3f9b9ca205e7c3af9",
        "midi/lead.mid": "1242b574679bc9fc1ea35cdb2007a2f73d34fe59",
        "notes/arrangement-map.md": "8cf761aadfe349d1b40b4e1fa3404fa4d874d71b",
        "notes/effect-chains.md": "0685f719d5647e21d821b1289b4704d7b06419cf",
        "notes/preset-assignments.md": "c58d88a3ee80f98136fbe25bdf3d2786efdaa0d9",
        "notes/producer-notes.md": "9c96d0d9bcbf5bf6fa803498c841bba4aa1ec307",
        "progression/main.progression": "ee68025233da38997d5a5c669f335c4f8439b159",
        "state/pipeline-state.json": "2fb1d21cea60a6ffbd4f647f7dff647ee70e5249",
        "state/pipeline-state.json.bak": "462883b6110b9d5d2e41204f22cc66ebe34b0bfc",
        "state/song-state.json": "992d2c2fce1cc31e1e6c1894839dd70b07bdc4c3",
        "state/song-state.json.bak": "992d2c2fce1cc31e1e6c1894839dd70b07bdc4c3",
    },
    "big room trance anthem, 138, with a supersaw lead | seed 5 | 48 bars": {
        "manifest.json": "cb3904d2958586d9351c191e1e600b0d491e8dc0",
        "midi/bass.mid": "47d93b631b4a55a28cba821db600cdf327694dcb",
        "midi/chords.mid": "dbcdc214376b584c16879ebd065ebd1795e19de3",
        "midi/drums.mid": "2da7eaa986fc5237cb1be18cf813566eccf6e06d",
        "midi/full-arrangement.mid": "454c9bf564f8205da09658c27c1c8d3ad16ec1af",
        "midi/lead.mid": "a7031cc85bb7dc4ae2afe2ddeda1413b88a19014",
        "midi/pad.mid": "d8a28b83566d7368a496cf7df66b5e5938d432fb",
        "midi/percussion.mid": "89d3be0e6397befa727c49a07f679ce3ba54e67f",
        "notes/arrangement-map.md": "dc6db555d605f177124b28c4532439b4fecc819c",
        "notes/effect-chains.md": "75adc29caa29af38a14c87fcddb0f340f3a33556",
        "notes/preset-assignments.md": "8cb7db6876d3f98832dedeab65ebb0a6cda2f722",
        "notes/producer-notes.md": "adc57e68d4596a791ae0e57327f870bbd5e6fbdf",
        "progression/main.progression": "146062623c71734696d788777e0712fa1d816db1",
        "state/pipeline-state.json": "19a7e0a462f5b3287c5c31d4f56ad907a2e06b1f",
        "state/pipeline-state.json.bak": "7722a4124e900691e8f0bbbd419a45fdbc3afa24",
        "state/song-state.json": "83ec45f5269d20451cbdf5a7460dd9105180a30b",
        "state/song-state.json.bak": "83ec45f5269d20451cbdf5a7460dd9105180a30b",
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
