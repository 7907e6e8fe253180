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
        "manifest.json": "78fc2b06262c2300039f3aae87bf8f6cfaa29e04",
        "midi/chords.mid": "f4fbeb096a19827919a7246976d4f0304a0b6659",
        "midi/drums.mid": "ab71c86b11bee2baf6f12972abc9a8d8c76c210b",
        "midi/full-arrangement.mid": "cc1e6984aa771659146933e85664983c4bb378c3",
        "midi/lead.mid": "c02aa6df8136797b9be44feda5d28bdd6d585ae8",
        "midi/sub_bass.mid": "094b0ce14944b7a2b8702ad5ac62b6183d7dbe47",
        "mpc/01-intro-chords.mpcpattern": "b14c405edb34b9003cfddab858437576a4067d6a",
        "mpc/01-intro-lead.mpcpattern": "d4148f260c47d6d28276d84c01869972cccbe100",
        "mpc/02-hook-1-chords.mpcpattern": "3a2df76d8f4b9a1e7833f6003176b4210955836a",
        "mpc/02-hook-1-drums.mpcpattern": "72fca9c1d2eac8f82442107884cf01ee2bae0b1f",
        "mpc/02-hook-1-lead.mpcpattern": "fb881798ad3c91623fc11062d3a9a8d598897893",
        "mpc/02-hook-1-sub_bass.mpcpattern": "60ef46d98b2c6cbb991c1984823a9f135f1eb791",
        "mpc/03-verse-1-chords.mpcpattern": "a73d101ee88917187521041df2911259b6b3ff18",
        "mpc/03-verse-1-drums.mpcpattern": "a1e779f2a43171f30e40e4a3debf1396eae50462",
        "mpc/03-verse-1-lead.mpcpattern": "73e21ad7de6c48e172d2b216bfa5a2b36d078d9f",
        "mpc/03-verse-1-sub_bass.mpcpattern": "0bd7be6ec33dcc4b0c81caf8ea935d2289a206d8",
        "mpc/04-hook-2-chords.mpcpattern": "b2c4f0b900f2c33454cda282bf4ef1918888895c",
        "mpc/04-hook-2-drums.mpcpattern": "fa7a04186c28255a098b39a477c5a39cd6734f23",
        "mpc/04-hook-2-lead.mpcpattern": "f8bbafacbe26bd5a4cc4c0ff9be4e1f52c894048",
        "mpc/04-hook-2-sub_bass.mpcpattern": "88e613c6ac204a4ef77a52b033475092f42f7e39",
        "mpc/05-verse-2-drums.mpcpattern": "696e446f985146a1d01a5dd63b064d0451534c2a",
        "mpc/05-verse-2-lead.mpcpattern": "71008ac800f130209b24e51f62e4340edeccf733",
        "mpc/05-verse-2-sub_bass.mpcpattern": "17022647f9decd71ad91967f46ed749404b40969",
        "mpc/06-hook-3-chords.mpcpattern": "27e0f2b5a55b6144fad1add0d999c57646c52887",
        "mpc/06-hook-3-drums.mpcpattern": "1ed6231fde6e815f20a8f681db7111249fc5f05e",
        "mpc/06-hook-3-lead.mpcpattern": "f8253370072592603f69c3d468507c72a1b1dde7",
        "mpc/06-hook-3-sub_bass.mpcpattern": "d32301e88ebc30b97e0ece8df09c9ba40125d47d",
        "mpc/07-outro-chords.mpcpattern": "0aceda77ce00ed776ad0fd1150fd685b851c76d2",
        "mpc/07-outro-lead.mpcpattern": "41077de79cd20ee10bc9145754f5729c2f7ee539",
        "notes/arrangement-map.md": "83603f216b3e5ff2cd1157889daeb3802e18c345",
        "notes/effect-chains.md": "e304a2a808697a636faa0992a4181c5f85a458d4",
        "notes/preset-assignments.md": "58f506f5e14c8c971d77f64ca693936fab21394c",
        "notes/producer-notes.md": "09bb1bd847bd66f597955c24311c4e5d7563b541",
        "progression/main.progression": "f1985069be1bd60a0455b5c03cdbde9e196cb5c4",
        "state/pipeline-state.json": "f71440694249f46c34f741969f263c9b087d21ec",
        "state/song-state.json": "e558164621b4e11a1ab72d15cd2139fb74989a66",
    },
    "lofi hip hop with rhodes and vinyl crackle | seed 2 | 32 bars": {
        "manifest.json": "4fc15830f11550129d858601c12eed8a15556560",
        "midi/bass.mid": "df19b5d943d2b600ad24029edf3ea58492c14d77",
        "midi/drums.mid": "89c8a0e025084dfbc60f337a24816aaa4099ffb0",
        "midi/full-arrangement.mid": "bc9293351fe53f9d9fe424832906dd1b73cd3592",
        "midi/keys.mid": "f78bbf21d13b9675e8a0cbc6438ab0a27236c3d1",
        "midi/lead.mid": "047248ab1bb19cea1130351c5ff0ce53771262cc",
        "midi/texture.mid": "7fe977e880a831007737e8f5e110ef832bbe78e5",
        "mpc/01-intro-keys.mpcpattern": "075b28845178777f5f68479c04dac23181f556c6",
        "mpc/01-intro-texture.mpcpattern": "4ee32c40bb7d03407043c5904eb25d2bcd0096c9",
        "mpc/02-loop-a-bass.mpcpattern": "a4419d3f2bdd03a8e06795ea51f52527dfae1482",
        "mpc/02-loop-a-drums.mpcpattern": "4bdbe8b62c02f4f78d0d51c56483b0b17a817b41",
        "mpc/02-loop-a-keys.mpcpattern": "0b74c80a2638b77ef1044d1f717fe30c3ac9dda9",
        "mpc/02-loop-a-texture.mpcpattern": "002e3e3a615267712c54fe0dc5e3a49e191e09e7",
        "mpc/03-loop-b-bass.mpcpattern": "79bac7019afa3b682aec07803bbb81d80396da6b",
        "mpc/03-loop-b-drums.mpcpattern": "cb7a0fba2f7c11027011e04f4c30ae78bbf39508",
        "mpc/03-loop-b-keys.mpcpattern": "8f50ef9fbbc01a4148c06bead5f5b60782db86e2",
        "mpc/03-loop-b-lead.mpcpattern": "10d9d44245659c7dbf9729a23e04f37edb517943",
        "mpc/03-loop-b-texture.mpcpattern": "bbba61238122df187747b59f9ccc02252994bbb5",
        "mpc/04-outro-keys.mpcpattern": "e2a6b8607f23ad748699f56550d0a66f6ae886db",
        "mpc/04-outro-texture.mpcpattern": "5ce992e03563cd94d66f2b5edc6ce0c2403a1ed4",
        "notes/arrangement-map.md": "a2a5d7a7c6b625896bfec5b3f69e636862758989",
        "notes/effect-chains.md": "0e0d95db0655890287c7c70ece1151608c1fe48d",
        "notes/preset-assignments.md": "f3b79d6f826f3c5c3fc3406ddf744e43c2a2eca7",
        "notes/producer-notes.md": "3c45eede995dc9e0b86837514edbd528f926ca52",
        "progression/main.progression": "bb09e5e1d8905b6a611befd0b6e8e71559558292",
        "state/pipeline-state.json": "54366a26cfcc11ce65e1ae0c825be054fc739782",
        "state/song-state.json": "bece8d38fdfd239634a825cec87ca06052a68a6e",
    },
    "deep house in A minor with a pad and a bassline | seed 3 | 32 bars": {
        "manifest.json": "5bc467c885785c759adc3fa842c07f872182f63b",
        "midi/bass.mid": "08f24d0c50c616cb4cd7aaab35aa93c267b4f8e0",
        "midi/chords.mid": "5cf32e5d541896af193d98b947de3e8c935b748b",
        "midi/drums.mid": "cb0eb154e60e7ca4a3f1e9587480dc1b23500de7",
        "midi/full-arrangement.mid": "3407d2121f740cff7e6601c5797b9d89118a6d56",
        "midi/pad.mid": "a22b1d60faebd2bf377b870c54c1484e0a4672d8",
        "midi/percussion.mid": "09fd0c81840e050d852ffd18733d648127897780",
        "mpc/01-intro-drums.mpcpattern": "5f96ef19e9c1f035ab1a798ccfa70f3dc588dbdd",
        "mpc/02-groove-1-bass.mpcpattern": "d964cfe7b7915156bf84a2269b4dc609dee0ecc0",
        "mpc/02-groove-1-chords.mpcpattern": "e06b3dbff75d998d826fa410dc6a01ea610c9e3a",
        "mpc/02-groove-1-drums.mpcpattern": "d0d8a374d2f7305c5862e1776dca88b37b8f7a98",
        "mpc/02-groove-1-pad.mpcpattern": "9b31e77b4a061b901a1ac56d4e921172a4a6548b",
        "mpc/02-groove-1-percussion.mpcpattern": "f7b6f72af4f6ec87745e9fc90c51d14ec67c553d",
        "mpc/03-drop-bass.mpcpattern": "02a8c33f6f4429feb219342357faf7dffc329679",
        "mpc/03-drop-chords.mpcpattern": "220cb332263558dfb0ffbf409694ddd256c7a7a4",
        "mpc/03-drop-drums.mpcpattern": "56ede608cbca5e05f458f729cebe4f93b8aebb39",
        "mpc/03-drop-pad.mpcpattern": "dd887e123fa9a49d2957c6aeeb81bb18b426736a",
        "mpc/03-drop-percussion.mpcpattern": "db409674317d4c94824410c2aa72cd20c2ef75a8",
        "mpc/04-outro-drums.mpcpattern": "de7f5738a7f9a536591e89a231707b78299108f7",
        "notes/arrangement-map.md": "b03553d7923e38b12e388bbab4d3fd0c0135b98e",
        "notes/effect-chains.md": "2c8fd885b015be7fdd05b7d6347c2cf26cf243fb",
        "notes/preset-assignments.md": "5fda57ecd355c7148915f1bb1f8fe1323cb03cbb",
        "notes/producer-notes.md": "7425bfd186ee3e4207aedd000e5d7223882e92ba",
        "progression/main.progression": "2bfcce95bb8fa49ff47e16c3c8a6048e8ccbe80d",
        "state/pipeline-state.json": "0c3af5694bed9a65e478ef2a09ff0cc2556e1ed3",
        "state/song-state.json": "948642b17b826e1577e6d3468404f4a5e252374b",
    },
    "jazz ballad with piano, upright bass and brushes | seed 4 | 16 bars": {
        "manifest.json": "6e06c4a63a9bbd654fe2e11eac0661cd8934835e",
        "midi/bass.mid": "0122e9e256658c08223a5703c05c8bd97a846499",
        "midi/chords.mid": "546c534eddfecd5fc7f65ffb5c4f43f67d1f6e87",
        "midi/drums.mid": "6f5865977c71c54bc3eeee343501a6a7121db60b",
        "midi/full-arrangement.mid": "fdf37831b54908541d3f85af4beb19d2ccd1add8",
        "midi/lead.mid": "8d3ef831d45224afbeb6d29074f3d710c5f42e64",
        "mpc/01-head-bass.mpcpattern": "d2cf10839afa3d11931a97da4813d492db513f86",
        "mpc/01-head-chords.mpcpattern": "d541a5afa888e18d77fe1f5c292467d9dac083e1",
        "mpc/01-head-drums.mpcpattern": "81d23328c46a8953089a4201bb98916f75c26420",
        "mpc/01-head-lead.mpcpattern": "33ad4a8bec4e1e383569a77533e7edbcdb0e90b6",
        "mpc/02-head-out-bass.mpcpattern": "e9e2d14f04ad802e624f0feb42a2a823342ea5dd",
        "mpc/02-head-out-chords.mpcpattern": "d30431232d7137b6e0c3fd105e16db31700cb089",
        "mpc/02-head-out-drums.mpcpattern": "fbed779d40b8e2f8b0d3f35b028dd4ef051740c5",
        "mpc/02-head-out-lead.mpcpattern": "868c4ff8b1d2d484da19bf618c1013552b77d14a",
        "mpc/03-tag-bass.mpcpattern": "5bc63fb90ceed852e6b854aaf51dffcad2d975e3",
        "mpc/03-tag-chords.mpcpattern": "dcf336689652240376bacd0b16a042a0f9c0a629",
        "mpc/03-tag-drums.mpcpattern": "c909da33c4cf657d41c9588dd52a5e481d43d2eb",
        "notes/arrangement-map.md": "3f17d25b7fecf758a3283f99fa8f6b6d67896482",
        "notes/effect-chains.md": "15ea9db60dbf22641e083bc3f294d10d6c1cb3c8",
        "notes/preset-assignments.md": "d3270715f8b8d5e16005ade75006a3f9f1d7d9d1",
        "notes/producer-notes.md": "f4782114029fa23f1c6243d4109d88734ba9b3dd",
        "progression/main.progression": "99609a56cca5adc0ea9049df463e0856477c6750",
        "state/pipeline-state.json": "1acb1a87cc8ee459943d776fc95106a01c4c0dd0",
        "state/song-state.json": "e9cc9292fd9027caa12add4ff8533b9463e5e6f1",
    },
    "big room trance anthem, 138, with a supersaw lead | seed 5 | 48 bars": {
        "manifest.json": "34f66ca9870cc5c59d71faf265f2351c26576612",
        "midi/bass.mid": "77812f541adde243917da4d701c627cabb7cbf3e",
        "midi/chords.mid": "2ecd0051a99d995a5ffcc0987dc10511c9d133e7",
        "midi/drums.mid": "5f4fc0dd5e0af4e5f427cd4f82fb8cf2616648b7",
        "midi/full-arrangement.mid": "001e1baa23deb55419ec47be013282a2c6929f7e",
        "midi/lead.mid": "bfde52480d1eaebb2f6e0964e9d8a113794f8898",
        "midi/pad.mid": "97697408fb645715534b5f239a490da92bba12ec",
        "mpc/01-intro-drums.mpcpattern": "7beeecd5587576e8aabed8bf26a7057b10084186",
        "mpc/02-build-1-chords.mpcpattern": "91277972f0dec4eac0fcc8447048cf76e0e9ed7e",
        "mpc/02-build-1-drums.mpcpattern": "3ef2b9e4aa0e9712cb0f883ac3f3f23585410d00",
        "mpc/02-build-1-lead.mpcpattern": "17563a6cc8539b7de98afd008e2e52aaac9256d2",
        "mpc/02-build-1-pad.mpcpattern": "bc5cda8c54af811631bc212ca5409bb6c91f325d",
        "mpc/03-drop-1-bass.mpcpattern": "c869c58603a71c73822276e200eee7d412513cee",
        "mpc/03-drop-1-chords.mpcpattern": "eab6717c7cda665a465ca9c62d7dd80990e98a1a",
        "mpc/03-drop-1-drums.mpcpattern": "bdc8a3e562560b7968f8dddfceeb097f5e0bb597",
        "mpc/03-drop-1-lead.mpcpattern": "689b4f66e3d7858f765dabc0dec0e0cb9a5ad42d",
        "mpc/03-drop-1-pad.mpcpattern": "1fe0d6d0ef4605fcbc3341fbdbdddbc3af00d6fa",
        "mpc/04-outro-bass.mpcpattern": "625c2197f17fb35484f17bf79e8e29d9c547b31c",
        "mpc/04-outro-drums.mpcpattern": "549848ee5e668d2596a89989e7fbaab51902e814",
        "notes/arrangement-map.md": "b38d28c0e5050845033832989f5ac10752c2a8e6",
        "notes/effect-chains.md": "3e06baae7be57104a0b171965f19c212277122ac",
        "notes/preset-assignments.md": "ec22ef3a15b3188c7775c147664bb0b3b1a1f162",
        "notes/producer-notes.md": "a62f553f284bf233ec6b7b4d83b7403d81940694",
        "progression/main.progression": "2c6d46d2ecebf0b5051ca45bdabfa32e1ad1d924",
        "state/pipeline-state.json": "17edb58d04b259988b9c868b2351a7e96ea2a368",
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
