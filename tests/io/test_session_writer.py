"""S8 output: the spec's seven cases (P6-T4), crash safety and names from user text."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from muse_tui import __version__
from muse_tui.contracts import (
    ComposerPipeline,
    QualityScore,
    SessionManifest,
    SongState,
    ValidationOutput,
)
from muse_tui.store.atomic import WriteFailed, leftover_temp_files
from muse_tui.store.manifest import read_manifest
from muse_tui.store.session_writer import record_run_in_manifest, write_session
from muse_tui.store.sessions import clean_sessions, list_sessions
from tests.io.disk import age, files_under, full_disk_for, make_session
from tests.io.songs import build_song, pipeline_for, presets_for, three_sections

ROOT = Path(__file__).resolve().parents[2]
SESSION = "session-20261122-n0tes1"
EXPECTED_FILES = [
    "manifest.json",
    "midi/bass.mid",
    "midi/chords.mid",
    "midi/drums.mid",
    "midi/full-arrangement.mid",
    "midi/lead.mid",
    "mpc/01-intro-chords.mpcpattern",
    "mpc/01-intro-drums.mpcpattern",
    "mpc/02-verse-bass.mpcpattern",
    "mpc/02-verse-chords.mpcpattern",
    "mpc/02-verse-drums.mpcpattern",
    "mpc/03-chorus-bass.mpcpattern",
    "mpc/03-chorus-chords.mpcpattern",
    "mpc/03-chorus-drums.mpcpattern",
    "mpc/03-chorus-lead.mpcpattern",
    "notes/arrangement-map.md",
    "notes/effect-chains.md",
    "notes/preset-assignments.md",
    "notes/producer-notes.md",
    "progression/main.progression",
    "state/pipeline-state.json",
    "state/song-state.json",
]


def _pipeline(song: SongState | None = None, **kwargs: object) -> ComposerPipeline:
    song = song or build_song(arrangement=three_sections(verse_transition="fade"))
    return pipeline_for(song, session_id=SESSION, **kwargs)  # type: ignore[arg-type]


def _write(
    tmp_path: Path, pipeline: ComposerPipeline | None = None
) -> tuple[Path, SessionManifest]:
    pipeline = pipeline or _pipeline()
    folder = tmp_path / SESSION
    return folder, write_session(folder, pipeline, presets=presets_for(pipeline.song_state))


def test_1_a_full_write_makes_every_file_and_the_song_round_trips(tmp_path: Path) -> None:
    pipeline = _pipeline()
    folder, manifest = _write(tmp_path, pipeline)
    assert files_under(folder) == EXPECTED_FILES
    assert read_manifest(folder) == manifest
    song = SongState.from_json((folder / "state" / "song-state.json").read_bytes())
    assert song == pipeline.song_state
    assert (
        ComposerPipeline.from_json((folder / "state" / "pipeline-state.json").read_bytes())
        == pipeline
    )


@pytest.mark.parametrize("stall_in", ["full-arrangement.mid", "manifest.json"])
def test_2_a_writer_killed_mid_write_leaves_only_temp_files_that_clean_removes(
    tmp_path: Path, stall_in: str
) -> None:
    folder = tmp_path / SESSION
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.io.run_slow_writer", str(folder), stall_in],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "stalled"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL

    # The files are written in one batch: the temps of the files before the stalled one are
    # left too, none of them renamed yet.
    leftovers = leftover_temp_files(folder)
    (leftover,) = [p for p in leftovers if p.name.startswith(f".{stall_in}.")]
    assert all(p.name.endswith(".tmp") and p.name.startswith(".") for p in leftovers)
    assert not (folder / "manifest.json").exists(), "no manifest: the session is incomplete"
    assert not (leftover.parent / stall_in).exists(), "no partial final file"
    for path in folder.rglob("*.json"):
        json.loads(path.read_text())  # every final file is whole
    assert [s.complete for s in list_sessions(tmp_path)] == [False]

    later = datetime.now(UTC) + timedelta(minutes=5)
    report = clean_sessions(tmp_path, now=later)
    assert report.temp_files == leftovers and not report.sessions
    assert leftover_temp_files(folder) == []
    assert folder.is_dir(), "cleaning temp files never deletes the session"
    clean_sessions(tmp_path, incomplete=True, now=later)
    assert not folder.exists()


def test_3_producer_notes_give_tempo_key_tracks_and_presets(tmp_path: Path) -> None:
    folder, _ = _write(tmp_path)
    notes = (folder / "notes" / "producer-notes.md").read_text()
    assert notes.startswith("# Session: Late Night\n")
    assert "**Prompt**: late-night neo-soul, Frank Ocean meets Burial" in notes
    assert "**Genre**: neo-soul | **Key**: A minor | **Tempo**: 92 BPM" in notes
    assert "**Bars**: 20" in notes
    assert "Set the tempo to **92 BPM**." in notes
    for line in (
        '**Track 1 — Drums (drums)**: load DrumSynth → preset "Dusty Neo-Soul Kit", MIDI channel',
        "MIDI channel 10.",
        '**Track 2 — Bass (bass)**: load TubeSynth → preset "Round Finger Bass", MIDI channel 2',
        '**Track 3 — Keys (chords)**: load Electric → preset "Warm Rhodes Mk I"',
        '**Track 4 — Lead (lead)**: load Bassline → preset "Soft Square Lead"',
        "Import `midi/bass.mid`.",
        "Intro at bar 1, Verse at bar 5, Chorus at bar 13",
    ):
        assert line in notes
    steps = re.findall(r"^(\d+)\. ", notes, flags=re.MULTILINE)
    assert steps == [str(n) for n in range(1, len(steps) + 1)] and len(steps) >= 5
    _assert_tables_are_well_formed(notes)
    table_files = re.findall(r"^\| `([^`]+)` \|", notes, flags=re.MULTILINE)
    patterns = [f for f in EXPECTED_FILES if f.startswith("mpc/")]
    assert sorted(table_files) == sorted({*EXPECTED_FILES, "mpc/"} - {*patterns})
    assert f"| `mpc/` | {len(patterns)} MPC patterns" in notes, "the folder in one line"

    presets = (folder / "notes" / "preset-assignments.md").read_text()
    assert "Warm Rhodes Mk I" in presets and "80%" in presets
    arrangement = (folder / "notes" / "arrangement-map.md").read_text()
    _assert_tables_are_well_formed(arrangement)
    assert "| 2 | Verse | 5–12 | 8 | 50% | drums, bass, chords | fade |" in arrangement


def _assert_tables_are_well_formed(markdown: str) -> None:
    tables = [
        block.splitlines() for block in re.findall(r"(?m)(?:^\|.*\n?)+", markdown)
    ]  # runs of table rows: each run is one table
    assert tables
    for rows in tables:
        widths = {len(re.split(r"(?<!\\)\|", row)) for row in rows}
        assert len(widths) == 1, f"every row of a table has as many cells as its header: {rows}"


def test_4_the_manifest_lists_every_file_with_its_real_size(tmp_path: Path) -> None:
    pipeline = _pipeline()
    report = QualityScore(
        harmony=0.9, rhythm=0.8, arrangement=0.7, vibe=0.8, composite=0.8, passed=True
    )
    pipeline.stages[7].output = ValidationOutput(quality_report=report, passed=True)
    folder, manifest = _write(tmp_path, pipeline)
    listed = {f.path: f for f in manifest.files}
    assert sorted(listed) == EXPECTED_FILES
    for path, entry in listed.items():
        assert entry.size_bytes == (folder / path).stat().st_size > 0, path
        assert entry.description
    assert {f.type for f in manifest.files} == {
        "manifest",
        "state",
        "progression",
        "midi",
        "pattern",
        "notes",
    }
    assert [t.stage for t in manifest.stage_timings] == list(range(1, 9))
    assert manifest.stage_timings[3].duration_ms == 40
    assert (
        manifest.quality_score_summary is not None
        and manifest.quality_score_summary.composite == 0.8
    )
    assert manifest.muse_version == __version__
    assert (manifest.genre, manifest.key, manifest.tempo, manifest.total_bars) == (
        "neo-soul",
        "A minor",
        92,
        20,
    )
    assert manifest.track_count == 4 and manifest.status == "completed"


def test_4b_updating_the_status_keeps_the_manifest_size_right(tmp_path: Path) -> None:
    folder, _ = _write(tmp_path, _pipeline(status="running"))
    record_run_in_manifest(folder, _pipeline(status="completed_partial"))
    manifest = read_manifest(folder)
    assert manifest.status == "completed_partial"
    own = next(f for f in manifest.files if f.path == "manifest.json")
    assert own.size_bytes == (folder / "manifest.json").stat().st_size


def test_5_three_sessions_are_listed_newest_first(tmp_path: Path) -> None:
    made = [
        ("session-20261120-aaaaaa", "2026-11-20T10:00:00+00:00", "lo-fi"),
        ("session-20261122-cccccc", "2026-11-22T09:30:00+00:00", "house"),
        ("session-20261121-bbbbbb", "2026-11-21T23:00:00+00:00", "neo-soul"),
    ]
    for session_id, created, genre in made:
        make_session(tmp_path, session_id, created_at=created, genre=genre)
    found = list_sessions(tmp_path)
    assert [(s.session_id, s.date_text, s.genre) for s in found] == [
        ("session-20261122-cccccc", "2026-11-22 09:30", "house"),
        ("session-20261121-bbbbbb", "2026-11-21 23:00", "neo-soul"),
        ("session-20261120-aaaaaa", "2026-11-20 10:00", "lo-fi"),
    ]
    assert all(s.complete and s.key == "A minor" and s.tempo == 92 for s in found)


def test_6_cleaning_removes_an_incomplete_session_and_nothing_else(tmp_path: Path) -> None:
    kept = make_session(tmp_path, "session-20261101-aaaaaa", created_at="2026-11-01T10:00:00+00:00")
    broken = make_session(tmp_path, "session-20261122-bbbbbb", complete=False)
    age(tmp_path)
    assert clean_sessions(tmp_path).is_empty, "without a flag only temp files go"
    plan = clean_sessions(tmp_path, incomplete=True, dry_run=True)
    assert [s.session_id for s in plan.sessions] == [broken.name] and broken.exists()
    clean_sessions(tmp_path, incomplete=True)
    assert not broken.exists() and kept.exists()
    assert files_under(kept) == [
        *EXPECTED_FILES[:-2],
        "state/pipeline-state.json",
        "state/song-state.json",
    ]


def test_6b_a_complete_session_goes_only_by_age_and_a_busy_one_stays(tmp_path: Path) -> None:
    now = datetime.now(UTC)
    days_ago = [(now - timedelta(days=d)).isoformat() for d in (60, 2, 60)]
    old = make_session(tmp_path, "session-20261001-aaaaaa", created_at=days_ago[0])
    fresh = make_session(tmp_path, "session-20261120-bbbbbb", created_at=days_ago[1])
    running = make_session(
        tmp_path, "session-20261001-cccccc", complete=False, created_at=days_ago[2]
    )
    age(old)
    age(fresh)
    report = clean_sessions(tmp_path, older_than_days=30, now=now)
    assert [s.session_id for s in report.sessions] == [old.name]
    assert [s.session_id for s in report.busy] == [running.name], (
        "just written: maybe still running"
    )
    assert not old.exists() and fresh.exists() and running.exists()


def test_7_writing_the_same_session_twice_gives_the_same_files(tmp_path: Path) -> None:
    pipeline = _pipeline()
    folder, first = _write(tmp_path, pipeline)
    before = {p: (folder / p).read_bytes() for p in files_under(folder)}
    _, second = _write(tmp_path, pipeline)
    after = {p: (folder / p).read_bytes() for p in files_under(folder) if not p.endswith(".bak")}
    assert after == before and second == first
    assert leftover_temp_files(folder) == []


def test_7b_a_track_removed_since_the_last_write_leaves_no_stale_file(tmp_path: Path) -> None:
    song = build_song(arrangement=three_sections())
    folder, _ = _write(tmp_path, _pipeline(song))
    smaller = song.model_copy(update={"tracks": song.tracks[:3]})
    _, manifest = _write(tmp_path, _pipeline(smaller))
    assert not (folder / "midi" / "lead.mid").exists()
    assert "midi/lead.mid" not in {f.path for f in manifest.files}


def test_a_full_disk_is_one_sentence_and_no_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    full_disk_for(monkeypatch, ".mid")
    with pytest.raises(WriteFailed) as caught:
        _write(tmp_path)
    message = str(caught.value)
    assert "No space left on device" in message and "full-arrangement.mid" in message
    assert "\n" not in message
    folder = tmp_path / SESSION
    assert not (folder / "manifest.json").exists()
    assert leftover_temp_files(folder) == []


@pytest.mark.parametrize(
    "title", ["../../etc/passwd", "CON", "/tmp/evil", "..", "a\x00b", "nul.txt"]
)
def test_titles_and_prompts_from_user_text_never_escape_the_session(
    tmp_path: Path, title: str
) -> None:
    song = build_song(arrangement=three_sections(), title=title)
    track = song.tracks[0].model_copy(update={"name": title})
    song = song.model_copy(update={"tracks": [track, *song.tracks[1:]]})
    pipeline = pipeline_for(song, title, session_id=SESSION)
    before = set(tmp_path.parent.iterdir())
    folder, manifest = _write(tmp_path, pipeline)
    assert set(tmp_path.parent.iterdir()) == before
    assert [p.relative_to(tmp_path).parts[0] for p in tmp_path.rglob("*")] == [SESSION] * len(
        list(tmp_path.rglob("*"))
    )
    assert files_under(folder) == EXPECTED_FILES
    assert sorted(f.path for f in manifest.files) == EXPECTED_FILES
