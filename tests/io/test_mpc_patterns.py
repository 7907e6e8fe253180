"""`mpc/*.mpcpattern`: the real format, the notes the MIDI files play, drums on MPC pads."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

import mido
import pytest
from click.testing import CliRunner

from muse_tui.cli import main
from muse_tui.contracts import ComposerPipeline, PipelineConfig, SongState
from muse_tui.knowledge.mpc import pad_table
from muse_tui.store.manifest import read_manifest
from muse_tui.store.session_writer import write_session
from muse_tui.store.settings import DRUM_MAPS, Settings, SettingsInvalid, save_settings
from tests.io.songs import build_song, pipeline_for, presets_for, three_sections

SESSION = "session-20261128-mpc001"
#: The legacy MPC pad layout, bank A, as the MPC3000 manual and every MPC since the MPC60
#: assign it (Assign Pads to Note Numbers: A01 = note 37 …): the oracle, not our table.
MPC_BANK_A = {
    "A01": 37,
    "A02": 36,
    "A03": 42,
    "A04": 82,
    "A05": 40,
    "A06": 38,
    "A07": 46,
    "A08": 44,
    "A09": 48,
    "A10": 47,
    "A11": 45,
    "A12": 43,
    "A13": 49,
    "A14": 55,
    "A15": 51,
    "A16": 53,
}
SET_UP_KEYS = {"type", "time", "len", "1", "2", "3", "mod", "modVal"}


def _write(tmp_path: Path, song: SongState | None = None, drum_map: str = "mpc") -> Path:
    song = song or build_song(arrangement=three_sections())
    pipeline: ComposerPipeline = pipeline_for(song, session_id=SESSION)
    pipeline = pipeline.model_copy(update={"config": PipelineConfig(drum_map=drum_map)})
    folder = tmp_path / SESSION
    write_session(folder, pipeline, presets=presets_for(song))
    return folder


def _events(path: Path) -> list[dict[str, float]]:
    pattern = json.loads(path.read_text())
    assert set(pattern) == {"pattern"} and set(pattern["pattern"]) == {"length", "events"}
    events = pattern["pattern"]["events"]
    assert all(set(e) == SET_UP_KEYS for e in events)
    assert [e["type"] for e in events[:3]] == [1, 1, 1], "three set-up events open it"
    assert all(e["time"] == 0 for e in events[:3])
    return events[3:]


def _pads(folder: Path, *, check_bank_a: bool = True) -> dict[str, tuple[str, int]]:
    """Drum name → (pad, note the patterns play it with), from the producer notes' table."""
    notes = (folder / "notes" / "producer-notes.md").read_text()
    rows = re.findall(r"^\| ([A-D]\d\d) \| ([^|]+) \| (\d+) \| (\d+) \|$", notes, re.MULTILINE)
    assert rows, "the producer notes list the pads"
    for pad, _, _, note in rows:
        if check_bank_a and pad in MPC_BANK_A:
            assert int(note) == MPC_BANK_A[pad], f"{pad} answers to {MPC_BANK_A[pad]} on an MPC"
    return {name: (pad, int(note)) for pad, name, _, note in rows}


def _section_notes(midi_path: Path, start_beat: float, end_beat: float) -> list[tuple[int, ...]]:
    """(tick at 960 from the section's start, length, note, velocity) of a MIDI file's notes."""
    midi = mido.MidiFile(midi_path)
    scale = 960 // midi.ticks_per_beat
    found, sounding = [], {}
    for track in midi.tracks:
        now = 0
        for message in track:
            now += message.time
            if message.type == "note_on" and message.velocity:
                sounding[(message.channel, message.note)] = (now, message.velocity)
            elif message.type in ("note_off", "note_on"):
                began, velocity = sounding.pop((message.channel, message.note))
                beat = began / midi.ticks_per_beat
                if start_beat <= beat < end_beat:
                    at = (began - round(start_beat * midi.ticks_per_beat)) * scale
                    found.append((at, (now - began) * scale, message.note, velocity))
    return sorted(found)


def test_every_pattern_plays_what_its_tracks_midi_plays_in_that_section(tmp_path: Path) -> None:
    folder = _write(tmp_path)
    song = SongState.from_json((folder / "state" / "song-state.json").read_bytes())
    gm_notes = {"Kick": 36, "Snare": 38, "Closed Hat": 42, "Open Hat": 46, "Clap": 39}
    pads = {gm_notes[name]: note for name, (_, note) in _pads(folder).items()}
    assert song.arrangement is not None
    checked = 0
    for number, section in enumerate(song.arrangement.sections, start=1):
        start, end = song.bar_beat(section.start_bar), song.bar_beat(section.end_bar)
        for role in ("drums", "bass", "chords", "lead"):
            path = folder / "mpc" / f"{number:02d}-{section.name.lower()}-{role}.mpcpattern"
            expected = _section_notes(folder / "midi" / f"{role}.mid", start, end)
            if role == "drums":
                expected = [(t, length, pads[n], v) for t, length, n, v in expected]
            if not expected:
                assert not path.exists(), f"{path.name}: no pattern where the track is silent"
                continue
            events = _events(path)
            assert all(e["type"] == 2 and e["3"] == 0 and e["modVal"] == 0.5 for e in events)
            played = sorted((e["time"], e["len"], e["1"], round(e["2"] * 127)) for e in events)
            assert played == expected, path.name
            checked += 1
    assert checked == 9


#: Where a kit laid out as producers do it (kick, snare, hats on A01–A03) plays, per layout:
#: the MPC's legacy notes, Chromatic C1 (A01 = 36 upward), or General MIDI unchanged.
PADS_PER_LAYOUT = {
    "mpc": {"Kick": ("A01", 37), "Snare": ("A02", 36), "Closed Hat": ("A03", 42)},
    "chromatic": {"Kick": ("A01", 36), "Snare": ("A02", 37), "Closed Hat": ("A03", 38)},
    "gm": {"Kick": ("A01", 36), "Snare": ("A02", 38), "Closed Hat": ("A03", 42)},
}


@pytest.mark.parametrize(
    ("layout", "drum"),
    [(layout, drum) for layout, drums in PADS_PER_LAYOUT.items() for drum in drums],
)
def test_the_drums_land_on_the_pads_the_notes_name(tmp_path: Path, layout: str, drum: str) -> None:
    folder = _write(tmp_path, drum_map=layout)
    pad, note = PADS_PER_LAYOUT[layout][drum]
    rows = _pads(folder, check_bank_a=layout == "mpc")
    assert rows[drum] == (pad, note)
    hits = [e for e in _events(folder / "mpc" / "03-chorus-drums.mpcpattern") if e["1"] == note]
    assert hits, f"the chorus plays the {drum.lower()} on {pad} (note {note})"
    gm = {"Kick": 36, "Snare": 38, "Closed Hat": 42}[drum]
    midi = _section_notes(folder / "midi" / "drums.mid", 48.0, 80.0)
    assert any(n == gm for _, _, n, _ in midi), "the MIDI file keeps General MIDI"


def test_a_track_gone_from_a_section_takes_its_pattern_with_it(tmp_path: Path) -> None:
    folder = _write(tmp_path)
    assert (folder / "mpc" / "03-chorus-lead.mpcpattern").exists()
    song = build_song(arrangement=three_sections(chorus=("drums", "bass", "chords")))
    _write(tmp_path, song)
    on_disk = sorted(p.name for p in (folder / "mpc").iterdir())
    assert "03-chorus-lead.mpcpattern" not in on_disk
    listed = sorted(
        f.path.removeprefix("mpc/") for f in read_manifest(folder).files if f.type == "pattern"
    )
    assert listed == on_disk


def test_a_second_track_of_a_role_gets_its_own_pattern(tmp_path: Path) -> None:
    song = build_song(arrangement=three_sections())
    lead = song.track("lead")
    assert lead is not None
    regions = [r.model_copy(update={"id": str(uuid.uuid4())}) for r in lead.regions]
    twin = lead.model_copy(update={"id": str(uuid.uuid4()), "name": "Lead 2", "regions": regions})
    folder = _write(tmp_path, song.model_copy(update={"tracks": [*song.tracks, twin]}))
    assert (folder / "mpc" / "03-chorus-lead.mpcpattern").exists()
    assert (folder / "mpc" / "03-chorus-lead-2.mpcpattern").exists()


def test_the_layout_names_the_settings_take_are_the_skill_files(tmp_path: Path) -> None:
    assert sorted(pad_table().maps) == sorted(DRUM_MAPS)
    with pytest.raises(SettingsInvalid, match=r"drum_map.*mpc, chromatic, gm"):
        Settings(drum_map="akai")


@pytest.mark.slow
def test_compose_takes_the_layout_from_the_flag_and_else_from_the_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MUSE_SESSIONS_DIR", str(tmp_path / "sessions"))
    monkeypatch.setenv("MUSE_CONFIG_DIR", str(tmp_path / "config"))
    save_settings(Settings(drum_map="chromatic"))
    kicks = {}
    for flag in ([], ["--drum-map", "gm"]):
        args = ["compose", "boom bap, 90, key of Dm", "--yes", "--bars", "8", *flag]
        done = CliRunner().invoke(main, args)
        assert done.exit_code == 0, done.output
        (session,) = [p for p in (tmp_path / "sessions").iterdir() if p.name not in kicks]
        rows = _pads(session, check_bank_a=False)
        kicks[session.name] = rows["Kick"]
        drums = sorted((session / "mpc").glob("*-drums.mpcpattern"))
        assert drums and all(
            any(e["1"] == rows["Kick"][1] for e in _events(path)) for path in drums[-1:]
        )
    assert sorted(kicks.values()) == [("A01", 36), ("A01", 36)]  # C1 from the settings; GM 36
    layouts = [
        (tmp_path / "sessions" / name / "notes" / "producer-notes.md").read_text()
        for name in sorted(kicks)
    ]
    assert sum("Chromatic C1" in text for text in layouts) == 1
    assert sum("General MIDI;" in text for text in layouts) == 1
