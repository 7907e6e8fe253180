"""S6 assembly: the spec's seven cases (P6-T5) and what a DAW or MPC would trip over."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import mido
import pretty_midi
import pytest

from muse_tui.compose.assembly import arrange_for_playback, assign_channels
from muse_tui.contracts import Note, Region, SongState, Track, new_id
from muse_tui.store.smf import (
    key_signature_name,
    midifile_markers,
    midifile_to_notes,
    song_to_midifile,
    write_song_midi,
)
from tests.io.songs import FOUR_ROLES, build_song, ids, notes_in_active_sections, three_sections

TICKS_PER_BAR = 4 * 480


def _absolute(track: mido.MidiTrack) -> list[tuple[int, mido.Message]]:
    tick, events = 0, []
    for msg in track:
        tick += msg.time
        events.append((tick, msg))
    return events


def _assembled(tmp_path: Path, song: SongState) -> mido.MidiFile:
    write_song_midi(tmp_path, song)
    return mido.MidiFile(tmp_path / "midi" / "full-arrangement.mid", clip=False)


@pytest.fixture
def song() -> SongState:
    return build_song(arrangement=three_sections(verse_transition="fade"))


def test_1_four_tracks_parse_back_as_conductor_plus_four(tmp_path: Path, song: SongState) -> None:
    midi = _assembled(tmp_path, song)
    assert midi.type == 1 and midi.ticks_per_beat == 480
    assert len(midi.tracks) == 5
    conductor = midi.tracks[0]
    assert {m.type for m in conductor} == {
        "set_tempo",
        "time_signature",
        "key_signature",
        "marker",
        "end_of_track",
    }
    assert list(midifile_to_notes(midi)) == ["Drums", "Bass", "Keys", "Lead"]
    pm = pretty_midi.PrettyMIDI(str(tmp_path / "midi" / "full-arrangement.mid"))
    assert [i.name for i in pm.instruments] == ["Drums", "Bass", "Keys", "Lead"]
    assert pm.instruments[0].is_drum
    assert round(pm.get_tempo_changes()[1][0]) == 92


def test_2_bass_is_silent_in_an_intro_where_it_is_inactive(tmp_path: Path, song: SongState) -> None:
    midi = _assembled(tmp_path, song)
    bass = next(t for t in midi.tracks if t.name == "Bass")
    onsets = [tick for tick, m in _absolute(bass) if m.type == "note_on" and m.velocity]
    assert onsets, "the bass plays after the intro"
    assert min(onsets) >= 4 * TICKS_PER_BAR
    sounding_in_intro = [
        t for t, m in _absolute(bass) if m.type == "note_off" and t <= 4 * TICKS_PER_BAR
    ]
    assert not sounding_in_intro
    assert song.track("bass").notes[0].start_beat == 0, "the song itself keeps the intro notes"


def test_3_section_markers_sit_on_their_first_bar(tmp_path: Path, song: SongState) -> None:
    midi = _assembled(tmp_path, song)
    markers = [(t, m.text) for t, m in _absolute(midi.tracks[0]) if m.type == "marker"]
    assert markers == [(0, "Intro"), (4 * TICKS_PER_BAR, "Verse"), (12 * TICKS_PER_BAR, "Chorus")]
    assert midifile_markers(midi) == [(0.0, "Intro"), (16.0, "Verse"), (48.0, "Chorus")]


def test_4_each_track_keeps_its_channel_and_drums_are_on_ten(
    tmp_path: Path, song: SongState
) -> None:
    midi = _assembled(tmp_path, song)
    channels = {}
    for track in midi.tracks[1:]:
        used = {m.channel for m in track if hasattr(m, "channel")}
        assert len(used) == 1, f"{track.name} uses channels {used}"
        channels[track.name] = used.pop()
    assert channels == {"Drums": 9, "Bass": 1, "Keys": 2, "Lead": 3}
    programs = {t.name: m.program for t in midi.tracks[1:] for m in t if m.type == "program_change"}
    assert "Drums" not in programs and programs["Bass"] == 33


def test_4b_clashing_channels_are_made_distinct() -> None:
    rng = ids(3)
    roles = ["bass", "chords", "drums", "lead", "pad"]
    tracks = [Track(id=new_id(rng), name=r, role=r, channel=0) for r in roles]  # type: ignore[arg-type]
    channels = assign_channels(tracks)
    assert channels[2] == 9
    melodic = [c for c, r in zip(channels, roles, strict=True) if r != "drums"]
    assert len(set(melodic)) == 4 and 9 not in melodic
    assert channels[0] == 0, "the first track keeps the channel it asked for"


def test_5_fade_ramps_volume_down_over_the_last_two_bars(tmp_path: Path, song: SongState) -> None:
    midi = _assembled(tmp_path, song)
    verse_end = 12 * TICKS_PER_BAR
    for name in ("Drums", "Bass", "Keys"):
        track = next(t for t in midi.tracks if t.name == name)
        volume = [
            (t, m.value)
            for t, m in _absolute(track)
            if m.type == "control_change" and m.control == 7
        ]
        ramp = [(t, v) for t, v in volume if verse_end - 2 * TICKS_PER_BAR <= t < verse_end]
        assert ramp[0] == (verse_end - 2 * TICKS_PER_BAR, 100), "starts at the track's volume"
        assert ramp[-1][1] == 0
        values = [v for _, v in ramp]
        assert values == sorted(values, reverse=True) and len(set(values)) > 8
        assert (verse_end, 100) in volume, "the chorus comes back at full volume"
    lead = next(t for t in midi.tracks if t.name == "Lead")
    assert [m.value for m in lead if m.type == "control_change" and m.control == 7] == [100]


def test_5b_build_raises_the_mod_wheel_and_a_filter_sweep_moves_cc74() -> None:
    arrangement = three_sections(verse_transition="build")
    arranged = arrange_for_playback(build_song(arrangement=arrangement))
    ccs = [
        c for r in arranged.track("bass").regions for c in r.control_changes if c.controller == 1
    ]
    ramp = [c for c in ccs if c.beat < 48]
    assert ramp[0].beat == 32 and ramp[0].value == 0 and ramp[-1].value == 127
    assert any(c.beat == 48 and c.value == 0 for c in ccs), "mod wheel reset on the chorus"
    sweep = arrange_for_playback(
        build_song(arrangement=three_sections(verse_transition="filter_sweep"))
    )
    assert any(c.controller == 74 for r in sweep.track("chords").regions for c in r.control_changes)


def test_6_round_trip_note_count_is_the_notes_of_active_sections(
    tmp_path: Path, song: SongState
) -> None:
    midi = _assembled(tmp_path, song)
    read = midifile_to_notes(midi)
    assert sum(len(n) for n in read.values()) == notes_in_active_sections(song)
    pm = pretty_midi.PrettyMIDI(str(tmp_path / "midi" / "full-arrangement.mid"))
    assert sum(len(i.notes) for i in pm.instruments) == notes_in_active_sections(song)


@pytest.mark.parametrize("source_ppq", [960, 97])
def test_7_sources_at_other_ppqs_are_rescaled_to_480(tmp_path: Path, source_ppq: int) -> None:
    def source(ppq: int, pitch: int) -> mido.MidiFile:
        midi = mido.MidiFile(type=1, ticks_per_beat=ppq)
        track = mido.MidiTrack([mido.MetaMessage("track_name", name=f"at {ppq}")])
        for beat in range(8):  # a note on every beat, half a beat long
            track.append(
                mido.Message("note_on", note=pitch, velocity=90, time=0 if beat == 0 else ppq // 2)
            )
            track.append(mido.Message("note_off", note=pitch, velocity=0, time=ppq - ppq // 2))
        midi.tracks.append(track)
        return midi

    rng = ids(5)
    tracks = []
    for ppq, role, pitch in ((480, "bass", 40), (source_ppq, "lead", 72)):
        notes = midifile_to_notes(source(ppq, pitch))[f"at {ppq}"]
        region = Region(id=new_id(rng), name="imported", start_beat=0, length_beats=8, notes=notes)
        tracks.append(
            Track(id=new_id(rng), name=role, role=role, channel=len(tracks), regions=[region])
        )  # type: ignore[arg-type]
    midi = song_to_midifile(SongState(tracks=tracks))
    assert midi.ticks_per_beat == 480
    for track in midi.tracks[1:]:
        onsets = [t for t, m in _absolute(track) if m.type == "note_on"]
        assert onsets == [beat * 480 for beat in range(8)]
    lead_offs = [t for t, m in _absolute(midi.tracks[2]) if m.type == "note_off"]
    expected_length = round((source_ppq - source_ppq // 2) / source_ppq * 480)
    assert lead_offs[0] == expected_length


def test_every_track_ends_once_at_or_after_its_last_note_off(
    tmp_path: Path, song: SongState
) -> None:
    midi = _assembled(tmp_path, song)
    song_end = 20 * TICKS_PER_BAR
    for track in midi.tracks:
        events = _absolute(track)
        assert [m.type for _, m in events].count("end_of_track") == 1
        assert events[-1][1].type == "end_of_track"
        assert events[-1][0] >= max(t for t, _ in events[:-1])
        assert events[-1][0] == song_end


def test_repeated_notes_release_before_they_strike_again() -> None:
    rng = ids(9)
    notes = [Note(pitch=60, velocity=80, start_beat=b, duration_beats=1) for b in range(4)]
    region = Region(id=new_id(rng), name="r", start_beat=0, length_beats=4, notes=notes)
    song = SongState(
        tracks=[Track(id=new_id(rng), name="keys", role="keys", channel=0, regions=[region])]
    )
    events = [
        (t, m.type) for t, m in _absolute(song_to_midifile(song).tracks[1]) if "note" in m.type
    ]
    for tick in (480, 960, 1440):
        at = [kind for t, kind in events if t == tick]
        assert at == ["note_off", "note_on"]


def test_overlapping_same_pitch_notes_are_trimmed_and_doubles_dropped() -> None:
    rng = ids(11)
    notes = [
        Note(pitch=48, velocity=90, start_beat=0, duration_beats=3),
        Note(pitch=48, velocity=90, start_beat=1, duration_beats=1),
        Note(pitch=48, velocity=70, start_beat=1, duration_beats=0.5),
        Note(pitch=50, velocity=90, start_beat=0.5, duration_beats=1),
    ]
    region = Region(id=new_id(rng), name="r", start_beat=0, length_beats=4, notes=notes)
    song = SongState(
        tracks=[Track(id=new_id(rng), name="bass", role="bass", channel=1, regions=[region])]
    )
    kept = arrange_for_playback(song).tracks[0].notes
    assert [(n.pitch, n.start_beat, n.duration_beats) for n in kept] == [
        (48, 0, 1),
        (50, 0.5, 1),
        (48, 1, 1),
    ]


def test_rounding_to_ticks_never_stacks_a_pitch() -> None:
    rng = ids(12)
    notes = [  # distinct in beats, the same tick at 480 PPQ
        Note(pitch=60, velocity=80, start_beat=0, duration_beats=0.0005),
        Note(pitch=60, velocity=80, start_beat=0.0008, duration_beats=1),
    ]
    region = Region(id=new_id(rng), name="r", start_beat=0, length_beats=2, notes=notes)
    song = SongState(
        tracks=[Track(id=new_id(rng), name="keys", role="keys", channel=0, regions=[region])]
    )
    sounding = 0
    for _, msg in _absolute(song_to_midifile(arrange_for_playback(song)).tracks[1]):
        if msg.type == "note_on":
            sounding += 1
            assert sounding == 1
        elif msg.type == "note_off":
            sounding -= 1
    assert sounding == 0


def test_a_note_running_into_a_silent_section_is_cut_at_the_boundary() -> None:
    arrangement = three_sections(verse=("drums", "chords"), chorus=("drums", "bass", "chords"))
    song = build_song(roles=("bass",), arrangement=arrangement)
    long_note = Note(pitch=33, velocity=90, start_beat=2, duration_beats=20)
    track = song.tracks[0]
    region = track.regions[0].model_copy(update={"notes": [long_note]})
    song = song.model_copy(update={"tracks": [track.model_copy(update={"regions": [region]})]})
    song = song.model_copy(
        update={"arrangement": three_sections(intro=("bass",), verse=(), chorus=("bass",))}
    )
    (kept,) = arrange_for_playback(song).tracks[0].notes
    assert kept.end_beat == 16


def test_arranging_twice_changes_nothing(song: SongState) -> None:
    once = arrange_for_playback(song)
    assert arrange_for_playback(once) == once
    assert song == build_song(arrangement=three_sections(verse_transition="fade"))


def test_without_an_arrangement_every_note_plays() -> None:
    song = build_song(bars=8)
    arranged = arrange_for_playback(song)
    assert [len(t.notes) for t in arranged.tracks] == [len(t.notes) for t in song.tracks]


def test_names_that_are_not_ascii_still_make_a_readable_file(tmp_path: Path) -> None:
    song = build_song(roles=("lead",), bars=2)
    track = song.tracks[0].model_copy(update={"name": "Sérénade 夜 ♪"})
    write_song_midi(tmp_path, song.model_copy(update={"tracks": [track]}))
    midi = mido.MidiFile(tmp_path / "midi" / "lead.mid", clip=False)
    assert midi.tracks[1].name == "Serenade"


def test_two_tracks_with_one_role_get_two_files(tmp_path: Path) -> None:
    song = build_song(roles=("chords", "chords", "bass"), bars=2)
    files = write_song_midi(tmp_path, song)
    assert [f.path for f in files] == [
        "midi/full-arrangement.mid",
        "midi/chords.mid",
        "midi/chords-2.mid",
        "midi/bass.mid",
    ]
    assert all(f.size_bytes == (tmp_path / f.path).stat().st_size > 0 for f in files)


@pytest.mark.parametrize(
    ("key", "mode", "expected"),
    [
        ("A", "minor", "Am"),
        ("Eb", "major", "Eb"),
        ("F#", "minor", "F#m"),
        ("D", "dorian", "Am"),
        ("G", "mixolydian", "C"),
        ("G#", "major", "Ab"),
        ("Am", "minor", "Am"),
        ("H", "major", None),
    ],
)
def test_key_signatures_use_mido_names(key: str, mode: str, expected: str | None) -> None:
    assert key_signature_name(key, mode) == expected


def test_per_track_files_hold_the_conductor_and_that_track(tmp_path: Path, song: SongState) -> None:
    write_song_midi(tmp_path, song)
    for role, name in zip(FOUR_ROLES, ["Drums", "Bass", "Keys", "Lead"], strict=True):
        midi = mido.MidiFile(tmp_path / "midi" / f"{role}.mid", clip=False)
        assert len(midi.tracks) == 2 and midi.tracks[1].name == name
        assert midifile_markers(midi) == [(0.0, "Intro"), (16.0, "Verse"), (48.0, "Chorus")]


def test_a_hundred_bar_four_track_song_is_written_well_inside_half_a_second(tmp_path: Path) -> None:
    arrangement = three_sections(verse_transition="fade")
    sections = [
        s.model_copy(update={"start_bar": s.start_bar * 5, "bars": s.bars * 5})
        for s in arrangement.sections
    ]
    song = build_song(arrangement=arrangement.model_copy(update={"sections": sections}))
    assert song.arrangement is not None and song.arrangement.total_bars == 100
    timings = []
    for _ in range(5):
        started = time.perf_counter()
        write_song_midi(tmp_path, song)  # arrange, the full file and four single-track files
        timings.append(time.perf_counter() - started)
    assert statistics.median(timings) < 0.5, timings


def test_a_track_without_a_sound_plays_its_roles_program_from_the_skills() -> None:
    from muse_tui.compose.assembly import arrange_for_playback
    from muse_tui.knowledge.rhythm import rhythm_table

    song = build_song(roles=["drums", "bass", "texture", "lead"])
    bare = [t.model_copy(update={"program": None, "preset": None}) for t in song.tracks]
    played = arrange_for_playback(song.model_copy(update={"tracks": bare}))
    looks = rhythm_table().tracks.roles
    for track in played.tracks:
        if not track.is_drums:
            assert track.program == looks[track.role].program  # texture: 92, as tracks.json says
