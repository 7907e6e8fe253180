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
        "manifest.json": "24c986bde75aba0aca21814f927eb87634e85aa3",
        "midi/chords.mid": "e385843f7efc9030a861b79f0372263e2c63e7d0",
        "midi/drums.mid": "ab71c86b11bee2baf6f12972abc9a8d8c76c210b",
        "midi/full-arrangement.mid": "4b23481ac5375811fa190706e793c91c7e7f8ab0",
        "midi/lead.mid": "ffb2f74d47ca16dc35272fe34844da45de919a59",
        "midi/sub_bass.mid": "094b0ce14944b7a2b8702ad5ac62b6183d7dbe47",
        "notes/arrangement-map.md": "83603f216b3e5ff2cd1157889daeb3802e18c345",
        "notes/effect-chains.md": "e304a2a808697a636faa0992a4181c5f85a458d4",
        "notes/preset-assignments.md": "58f506f5e14c8c971d77f64ca693936fab21394c",
        "notes/producer-notes.md": "ca10093288cfc2256bab944e526e636ebfdf98b5",
        "progression/main.progression": "f1985069be1bd60a0455b5c03cdbde9e196cb5c4",
        "state/pipeline-state.json": "5402ba75e1ce349293521e265165314bd3895bac",
        "state/song-state.json": "ccf23f045cd64e79cac868e36abfbea48bc8ebaf",
    },
    "lofi hip hop with rhodes and vinyl crackle | seed 2 | 32 bars": {
        "manifest.json": "e3a717fb6263ae10eafd268b93c720eff79a080d",
        "midi/bass.mid": "df19b5d943d2b600ad24029edf3ea58492c14d77",
        "midi/drums.mid": "89c8a0e025084dfbc60f337a24816aaa4099ffb0",
        "midi/full-arrangement.mid": "b18a5467f4530fd84e29372c45ebf8d5a2049068",
        "midi/keys.mid": "2b8fc1652d2c8096cf705fa6c49c5e9034aa946f",
        "midi/texture.mid": "ef31f5a3ab346406471ad0a552d8d3bd820264d1",
        "notes/arrangement-map.md": "929fe3254865e7ddac558f139575a081b10274b9",
        "notes/effect-chains.md": "2fe2bcdb9d0d3972199638493041b74b5054fa96",
        "notes/preset-assignments.md": "78ad8c949bc8165e492cabe0c9f16c1fc0f9ddd0",
        "notes/producer-notes.md": "5b1b0ed2f76ef1c46cc22745e81ea7b16fa6f672",
        "progression/main.progression": "bb09e5e1d8905b6a611befd0b6e8e71559558292",
        "state/pipeline-state.json": "8e85ceb1f0a8094bf0bb8e3a6d5d45956efa265f",
        "state/song-state.json": "69f9ac29e31e24f455f835f95a3988f27091361c",
    },
    "deep house in A minor with a pad and a bassline | seed 3 | 32 bars": {
        "manifest.json": "e80020722be88bad4c6ed72ddf5a5c77fda8a123",
        "midi/bass.mid": "08f24d0c50c616cb4cd7aaab35aa93c267b4f8e0",
        "midi/chords.mid": "3a10c2efff8a9631031b4f746053210be23b3d51",
        "midi/drums.mid": "cb0eb154e60e7ca4a3f1e9587480dc1b23500de7",
        "midi/full-arrangement.mid": "638c0e0e73c7d95e97041c16e83bc0a8a1ad0a44",
        "midi/pad.mid": "ddd6aab91a0c8ecb926cce124be0b258351301ac",
        "midi/percussion.mid": "09fd0c81840e050d852ffd18733d648127897780",
        "notes/arrangement-map.md": "b03553d7923e38b12e388bbab4d3fd0c0135b98e",
        "notes/effect-chains.md": "2c8fd885b015be7fdd05b7d6347c2cf26cf243fb",
        "notes/preset-assignments.md": "5fda57ecd355c7148915f1bb1f8fe1323cb03cbb",
        "notes/producer-notes.md": "ac7aeb056fe375f987899aca3504ccd26e3ebf45",
        "progression/main.progression": "2bfcce95bb8fa49ff47e16c3c8a6048e8ccbe80d",
        "state/pipeline-state.json": "5babb958163472054cd19c01c800aed4a878e5dd",
        "state/song-state.json": "0bee6d2ba99a91b7a0cb1aff154c126e6acf153f",
    },
    "jazz ballad with piano, upright bass and brushes | seed 4 | 16 bars": {
        "manifest.json": "42d1a7bcf3c8d16aca5cfed8fb47788183a30037",
        "midi/bass.mid": "fac30f6431dadafbc3359cc0c8fbca1133e6753c",
        "midi/drums.mid": "d2d6072479cc9448eb37a6ded2949137086a7e6b",
        "midi/full-arrangement.mid": "c820712165be7402c95d6f412ac3ceb4183a7d49",
        "midi/keys.mid": "5db46c66d2bee2cbfbc2c35f6d91b90bc312bf0d",
        "midi/lead.mid": "5f1c30c95565dac8406121ae7a8180deaf2cd9c4",
        "notes/arrangement-map.md": "aac8c1755b64c52418d0646df45c1b0fc43b89e2",
        "notes/effect-chains.md": "caf5682b494db0eaf1399823763f1f7c9180ad0e",
        "notes/preset-assignments.md": "fa49934ef78c0abd9b12074ccca45f0256869552",
        "notes/producer-notes.md": "856355285ecdf25ff1f883db4c64d70150d575a9",
        "progression/main.progression": "660d790ea1fde2395a0d0aba6a93452e1843cc65",
        "state/pipeline-state.json": "b5ba1caa156dff59edcf3433a98294a24b4353e9",
        "state/song-state.json": "e5b8eb8ae9d39dcfc0b5d9eeb5e87d32dccf5a17",
    },
    "big room trance anthem, 138, with a supersaw lead | seed 5 | 48 bars": {
        "manifest.json": "e487122073c23792c126f999ceee16290d9712bb",
        "midi/bass.mid": "77812f541adde243917da4d701c627cabb7cbf3e",
        "midi/chords.mid": "7fb05550567938ae7dc8e9526fd8deb923745031",
        "midi/drums.mid": "5f4fc0dd5e0af4e5f427cd4f82fb8cf2616648b7",
        "midi/full-arrangement.mid": "a991140a23912646bea55594cb2a79ac74f295a4",
        "midi/lead.mid": "5ec958ae0e60dc4c778670a7bdeb610f6debd553",
        "midi/pad.mid": "13299caa2e80962877836cb1b00ee605a5979074",
        "notes/arrangement-map.md": "b38d28c0e5050845033832989f5ac10752c2a8e6",
        "notes/effect-chains.md": "3e06baae7be57104a0b171965f19c212277122ac",
        "notes/preset-assignments.md": "ec22ef3a15b3188c7775c147664bb0b3b1a1f162",
        "notes/producer-notes.md": "8c02a87cfb5aca361be3e1e37094e4f4ddafdba7",
        "progression/main.progression": "2c6d46d2ecebf0b5051ca45bdabfa32e1ad1d924",
        "state/pipeline-state.json": "1bfac23b958f2255468a47dd2b2f0b2235bb04d4",
        "state/song-state.json": "596577244e6d87766f2dc1b8bfa872f49650b466",
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
