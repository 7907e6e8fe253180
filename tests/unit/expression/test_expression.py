"""Expression in the MIDI: pedal with the chords, vibrato and scoops on leads, swells, curves."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import mido
import pytest
from click.testing import CliRunner

from muse_tui.cli import main
from muse_tui.compose.assembly import arrange_for_playback
from muse_tui.compose.expression import PEDAL_LAG_BEATS, plan_expression
from muse_tui.compose.intent.expression_words import from_block, from_phrases, requested
from muse_tui.contracts.song import ExpressionRequest, SongState, Track
from muse_tui.store.checkpoint import load_checkpoint
from tests.io.songs import build_song, three_sections

SIXTEENTH_BEAT = 1 / 16


def _compose(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prompt: str) -> Path:
    monkeypatch.setenv("MUSE_SESSIONS_DIR", str(tmp_path / "sessions"))
    monkeypatch.setenv("MUSE_CONFIG_DIR", str(tmp_path / "config"))
    result = CliRunner().invoke(main, ["compose", prompt, "--yes", "--seed", "1"])
    assert result.exit_code == 0, result.output
    (session,) = (tmp_path / "sessions").iterdir()
    return session


def _events(
    path: Path,
) -> tuple[list[tuple[float, set[int]]], list[float], list[tuple[float, int]]]:
    """The file's chord strikes (onset, pitch classes), note-off beats and CC64 values."""
    midi = mido.MidiFile(path)
    tick, onsets, offs, pedal = 0, [], [], []
    for message in midi.tracks[1]:
        tick += message.time
        beat = tick / midi.ticks_per_beat
        if message.type == "note_on" and message.velocity:
            onsets.append((beat, message.note % 12))
        elif message.type in ("note_on", "note_off"):
            offs.append(beat)
        elif message.type == "control_change" and message.control == 64:
            pedal.append((beat, message.value))
    strikes: list[tuple[float, set[int]]] = []
    for beat, pitch_class in sorted(onsets):
        if strikes and beat - strikes[-1][0] < SIXTEENTH_BEAT:
            strikes[-1][1].add(pitch_class)
        else:
            strikes.append((beat, {pitch_class}))
    return strikes, offs, pedal


def test_the_keys_pedal_goes_down_after_each_chord_change_and_up_before_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _compose(tmp_path, monkeypatch, "neo soul with rhodes, bass and drums, 16 bars")
    strikes, offs, pedal = _events(session / "midi" / "keys.mid")
    values = [v for _, v in pedal]
    assert len(values) >= 8 and values == [127, 0] * (len(values) // 2), "down, up, down, up…"
    changes = [b for i, (b, chord) in enumerate(strikes) if i == 0 or chord != strikes[i - 1][1]]
    assert len(changes) >= 4
    downs, ups = [b for b, v in pedal if v], [b for b, v in pedal if not v]
    for change in changes:  # every chord change: the pedal goes down just after it
        assert any(0 <= d - change <= SIXTEENTH_BEAT for d in downs), f"no pedal at {change}"
    for before, after in pairwise(changes):  # never across two chords
        assert any(before < u <= after for u in ups), f"held from {before} into {after}"
    onsets = [b for b, _ in strikes]
    for up in ups:  # up just before the next strike, or as the chord stops before a rest
        assert any(0 <= t - up <= SIXTEENTH_BEAT for t in onsets + offs), f"lifted at {up}"
    assert all(any(abs(d - b - PEDAL_LAG_BEATS) < 0.01 for b in onsets) for d in downs)


def test_expression_changes_no_note_and_arranging_twice_is_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _compose(tmp_path, monkeypatch, "lofi hip hop with rhodes, pad and lead, 16 bars")
    song = load_checkpoint(session).song_state
    assert song.expression
    bare = song.model_copy(update={"expression": []})
    assert [t.notes for t in arrange_for_playback(song).tracks] == [
        t.notes for t in arrange_for_playback(bare).tracks
    ]
    once = arrange_for_playback(song)
    assert arrange_for_playback(once) == once


def test_leads_get_delayed_vibrato_and_scoops_that_land_on_pitch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _compose(tmp_path, monkeypatch, "soul ballad with piano, strings and lead, 16 bars")
    midi = mido.MidiFile(session / "midi" / "lead.mid")
    tick, bends, mod = 0, [], []
    for message in midi.tracks[1]:
        tick += message.time
        if message.type == "pitchwheel":
            bends.append(message.pitch)
        elif message.type == "control_change" and message.control == 1:
            mod.append(message.value)
    assert mod and max(mod) > 0 and mod[-1] == 0
    assert bends and bends[0] < 0 and bends[-1] == 0


def test_a_filter_sweep_over_the_build_is_a_cc74_ramp_in_the_build() -> None:
    (request,) = from_phrases("big room house, filter sweep on the pad over the build, 32 bars")
    assert (request.kind, request.role, request.section, request.controller) == (
        "cc_curve",
        "pad",
        "build",
        74,
    )


def test_phrases_name_their_track() -> None:
    asked = from_phrases(
        "add sustain pedal to the keys and aftertouch on the pads; vibrato on the lead"
    )
    assert [(r.kind, r.role) for r in asked] == [
        ("sustain", "keys"),
        ("pressure", "pad"),
        ("vibrato", "lead"),
    ]


def test_phrases_read_section_and_part_words_as_edits_read_them() -> None:
    asked = from_phrases(
        "filter sweep on the pad over the choruses, vibrato on the topline in the pre-chorus"
    )
    assert [(r.kind, r.role, r.section) for r in asked] == [
        ("cc_curve", "pad", "chorus"),
        ("vibrato", "lead", "pre_chorus"),
    ]


def test_a_midi_expressiveness_block_becomes_requests() -> None:
    block = {
        "sustain_pedal": "keys",
        "aftertouch": ["pad", "lead"],
        "cc_curves": [{"cc": 74, "track": "pad", "from": 30, "to": 100, "section": "build"}],
        "nonsense": {"deep": [1, 2]},
        "vibrato": True,
    }
    asked = from_block(block)
    assert ExpressionRequest(kind="sustain", role="keys") in asked
    assert ExpressionRequest(kind="pressure", role="lead") in asked
    assert ExpressionRequest(kind="vibrato", role="lead") in asked
    curve = next(r for r in asked if r.kind == "cc_curve")
    assert (curve.controller, curve.start_value, curve.end_value, curve.section) == (
        74,
        30,
        100,
        "build",
    )


def test_the_structured_example_asks_for_pressure_on_the_pad() -> None:
    text = (Path(__file__).parents[2] / "data" / "structured" / "expressive.txt").read_text()
    assert ExpressionRequest(kind="pressure", role="pad") in requested(text)


def test_pressure_on_the_pad_lets_go_and_the_sweep_ramps_over_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _compose(
        tmp_path,
        monkeypatch,
        "edm with a pad, 32 bars, aftertouch on the pad, filter sweep on the pad over the build",
    )
    song = load_checkpoint(session).song_state
    builds = [s for s in song.arrangement.sections if s.kind == "build"] if song.arrangement else []
    assert builds, "the sweep is asked over the build: the song must have one to test it"
    midi = mido.MidiFile(session / "midi" / "pad.mid")
    tick, pressure, sweep = 0, [], []
    for message in midi.tracks[1]:
        tick += message.time
        beat = tick / midi.ticks_per_beat
        if message.type == "aftertouch":
            pressure.append(message.value)
        elif message.type == "control_change" and message.control == 74:
            sweep.append((beat, message.value))
    assert pressure and max(pressure) > 0 and pressure[-1] == 0
    for build in builds:
        start, end = build.start_bar * 4, build.end_bar * 4
        inside = [v for b, v in sweep if start <= b <= end]
        assert inside and inside == sorted(inside) and inside[-1] > inside[0] + 60


def _track(number: int, name: str, role: str, instrument: str, program: int) -> Track:
    """An empty track on channel `number + 1`, with a fixed id."""
    return Track(
        id=f"00000000-0000-4000-8000-{number:012d}",
        name=name,
        role=role,  # type: ignore[arg-type]
        channel=number + 1,
        instrument=instrument,
        program=program,
    )


def test_an_organ_gets_no_pedal() -> None:
    """Pedalling is planned for a piano-like instrument only, whatever the role."""
    organ = _track(1, "Organ", "keys", "organ", 16)
    piano = _track(2, "Piano", "chords", "piano", 0)
    pedalled = {
        r.role
        for r in plan_expression(SongState(tracks=[organ, piano]), []).expression or []
        if r.kind == "sustain"
    }
    assert "chords" in pedalled and "keys" not in pedalled
    assert plan_expression(SongState(tracks=[organ]), []).expression == []


def test_a_build_ramp_owns_the_mod_wheel_while_it_moves() -> None:
    """The lead's vibrato (CC1) steps aside where a build transition sweeps CC1."""
    arrangement = three_sections(
        verse=("drums", "bass", "chords", "lead"), verse_transition="build"
    )
    song = build_song(arrangement=arrangement)
    lead = song.track("lead")
    assert lead is not None
    long_notes = [n.model_copy(update={"duration_beats": 3.0}) for n in lead.notes[::2]]
    region = lead.regions[0].model_copy(update={"notes": long_notes})
    song = song.model_copy(
        update={
            "tracks": [
                t if t.role != "lead" else t.model_copy(update={"regions": [region]})
                for t in song.tracks
            ],
            "expression": [ExpressionRequest(kind="vibrato", role="lead")],
        }
    )
    played = arrange_for_playback(song).track("lead")
    assert played is not None
    wheel = sorted(
        (r.start_beat + c.beat, c.value)
        for r in played.regions
        for c in r.control_changes
        if c.controller == 1
    )
    build = [v for b, v in wheel if 8 * 4 <= b < 12 * 4]  # the verse's last four bars
    assert build and build == sorted(build), "only the ramp moves CC1 during the build"
    assert any(v for b, v in wheel if b >= 12 * 4), "vibrato comes back after it"
