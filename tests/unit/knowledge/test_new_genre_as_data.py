"""A new genre with a new drum family is a data-only change (skills/rhythm/README.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import mido
import pytest

from muse_tui.contracts import PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages
from muse_tui.knowledge import BUNDLED_SKILLS, reload_all
from muse_tui.theory.drums import VOICE_PITCHES

#: The new family's signature: a triangle on every off-beat 8th, heard nowhere else.
TRIANGLE = ".." + "x..." * 3 + "x."
OOMPAH = {
    "displayName": "Oompah",
    "drumKit": 0,
    "groove": "straight",
    "swing": 50,
    "aliases": ["oompah"],
    "bassStyle": "root_fifth",
    "chordRhythm": "stabs",
    "fills": ["snare_4"],
    "patterns": {
        level: [{"voices": {"kick": "X.......X.......", "snare": "....X.......X...",
                            "triangle": TRIANGLE}}]
        for level in ("sparse", "base", "busy")
    },
}  # fmt: skip


def _edit(root: Path, name: str, change: Any) -> None:
    path = root / name
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def _add_polka(root: Path) -> None:
    """The three edits skills/rhythm/README.md lists, and nothing else."""

    def family(d: dict[str, Any]) -> None:
        d["families"] = {"oompah": OOMPAH}

    def genre(d: dict[str, Any]) -> None:
        polka = dict(d["genres"]["rock"], displayName="Polka", drumFamily="oompah")
        polka.update(tempoRange=[100, 130], tempoDefault=116, preferredModes=["major"])
        d["genres"]["polka"] = polka

    def words(d: dict[str, Any]) -> None:
        d["genreAliases"]["polka"] = ["polka"]
        d["genreMoods"]["polka"] = d["genreMoods"]["rock"]

    _edit(root, "rhythm/drum-families/polka.json", family)
    _edit(root, "harmony/genre-dna.json", genre)
    _edit(root, "harmony/intent-lexicon.json", words)


@pytest.fixture
def polka_skills(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "skills"
    shutil.copytree(BUNDLED_SKILLS, root)
    _add_polka(root)
    monkeypatch.setenv("MUSE_SKILLS_DIR", str(root))
    reload_all()
    yield root
    monkeypatch.delenv("MUSE_SKILLS_DIR")
    reload_all()


def test_a_genre_with_a_new_drum_family_composes_from_data_alone(
    polka_skills: Path, tmp_path: Path
) -> None:
    sessions = tmp_path / "sessions"
    engine = Orchestrator(product_stages(), sessions)
    pipeline = run_blocking(
        engine.run("a polka for the village fair", seed=5, config=PipelineConfig(approval_gates=[]))
    )
    assert pipeline.intent is not None and pipeline.intent.genre_dna is not None
    assert pipeline.intent.genre == ["polka"]
    assert pipeline.intent.genre_dna.drum_family == "oompah"
    assert pipeline.song_state.arrangement is not None
    (session,) = [p for p in sessions.iterdir() if p.is_dir()]
    drums = mido.MidiFile(session / "midi" / "drums.mid")
    per_beat = drums.ticks_per_beat
    triangle = VOICE_PITCHES["triangle"]
    onsets: list[int] = []
    for track in drums.tracks:
        tick = 0
        for message in track:
            tick += message.time
            if message.type == "note_on" and message.velocity and message.note == triangle:
                onsets.append(tick)
    # The family's triangle plays its off-beat 8ths, bar after bar (fills take a few).
    bars = pipeline.song_state.arrangement.total_bars
    assert len(onsets) >= bars * 2, f"{len(onsets)} triangle hits in {bars} bars"
    half = per_beat // 2
    off_beat = [t for t in onsets if abs((t % per_beat) - half) <= per_beat // 8]
    assert len(off_beat) >= 0.9 * len(onsets)
