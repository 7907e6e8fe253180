"""The bytes of the MIDI files are pinned: a faster writer must write exactly the same files.

The song covers what the encoder handles: every track role's channel and program,
controller ramps, pitch bends both ways, notes off the tick grid, same-pitch
overlaps and double hits, a silence long enough for a three-byte delta time, and
names that are not ASCII. If a change to the music or to the file format is
intended, update the digests and say why.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import mido

from muse_tui.compose.assembly import arrange_for_playback
from muse_tui.contracts import ControlChange, Note, PitchBend, Region, SongState, Track, new_id
from muse_tui.contracts.song import ChannelPressure
from muse_tui.store.smf import midi_bytes, song_to_midifile, track_to_midifile, write_song_midi
from tests.io.songs import build_song, ids, three_sections

DIGESTS = {
    "midi/full-arrangement.mid": "8d86d3de058c46311aebf21c47ac4198a16628e703d88872a6f4b2c782f86c65",
    "midi/drums.mid": "7e1b6c40a268ad11826e5320c2da230e5c9f544e0afb57f9ee0455045f9caff2",
    "midi/bass.mid": "5f276235ff04f2af3d0c87b6b20373ed3810a88af06aa38726f89e51bac52361",
    "midi/chords.mid": "e106333977a7591ceff48be66172003b00c35b3c5bfc5612089e3ad59785838e",
    "midi/lead.mid": "d4a9d1ac0012bf5299e67aa9d6bb4ea325aca257242c483bfefab1873d1d97d3",
    "midi/sub_bass.mid": "c78751fcf39bad76f90092c1e1fa32d79a621217ecd22a266721201b5a8466a0",
}


def _awkward_track(rng_seed: int = 21) -> Track:
    """An 808 with glides, odd timings, overlaps and a double hit."""
    rng = ids(rng_seed)
    notes = [
        Note(pitch=36, velocity=110, start_beat=0.1 + 0.2, duration_beats=0.7),
        Note(pitch=36, velocity=90, start_beat=0.5, duration_beats=0.25),  # overlaps the first
        Note(pitch=36, velocity=70, start_beat=0.5, duration_beats=1.0),  # a double hit
        Note(pitch=43, velocity=127, start_beat=1.0 / 3, duration_beats=2.0 / 3),
        Note(pitch=31, velocity=1, start_beat=7.9996, duration_beats=0.0003),  # rounds to a tick
        Note(pitch=31, velocity=64, start_beat=8.0, duration_beats=1.5),
        Note(pitch=38, velocity=100, start_beat=27.3333, duration_beats=3.25),
        Note(pitch=38, velocity=100, start_beat=76.3333, duration_beats=3.25),  # never sounds
    ]
    bends = [
        PitchBend(beat=0.9, value=-8192),
        PitchBend(beat=0.95, value=8191),
        PitchBend(beat=1.0, value=0),
        PitchBend(beat=1.2, value=-1234),
    ]
    controls = [
        ControlChange(beat=0, controller=101, value=0),
        ControlChange(beat=0, controller=6, value=12),
        ControlChange(beat=2.5, controller=74, value=127),
    ]
    region = Region(
        id=new_id(rng),
        name="808",
        start_beat=0,
        length_beats=80,
        notes=notes,
        control_changes=controls,
        pitch_bends=bends,
    )
    return Track(
        id=new_id(rng),
        name="Sub 808 · Über",
        role="sub_bass",
        channel=5,
        volume=117,
        pan=20,
        regions=[region],
    )


def _pinned_song() -> SongState:
    song = build_song(arrangement=three_sections(verse_transition="fade"), tempo=141.5)
    intro, verse, chorus = song.arrangement.sections  # type: ignore[union-attr]
    sections = [
        intro,
        verse,
        chorus.model_copy(update={"transition": "filter_sweep"}),
        chorus.model_copy(
            update={"name": "Outro ♪", "kind": "outro", "start_bar": 20, "transition": "build"}
        ),
    ]
    # The 808 sits out the last two sections: its end of track comes after a long silence.
    sections = [
        s.model_copy(update={"active_roles": [*s.active_roles, "sub_bass"]}) for s in sections[:2]
    ] + sections[2:]
    arrangement = song.arrangement.model_copy(update={"sections": sections})  # type: ignore[union-attr]
    return song.model_copy(
        update={"tracks": [*song.tracks, _awkward_track()], "arrangement": arrangement}
    )


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_written_files_are_byte_for_byte_what_they_were(tmp_path: Path) -> None:
    files = write_song_midi(tmp_path, _pinned_song())
    midi = {f.path: _digest((tmp_path / f.path).read_bytes()) for f in files if f.type == "midi"}
    assert midi == DIGESTS


def test_the_mido_view_encodes_to_the_same_bytes_as_the_written_files(tmp_path: Path) -> None:
    song = arrange_for_playback(_pinned_song())
    write_song_midi(tmp_path, song, arranged=True)
    full = (tmp_path / "midi" / "full-arrangement.mid").read_bytes()
    assert midi_bytes(song_to_midifile(song)) == full
    bass = song.track("sub_bass")
    assert bass is not None
    alone = (tmp_path / "midi" / "sub_bass.mid").read_bytes()
    assert midi_bytes(track_to_midifile(song, bass)) == alone
    assert midi_bytes(mido.MidiFile(file=io.BytesIO(full))) == full, "mido writes what it reads"


def _expressive_track() -> Track:
    """Keys with a sustain pedal, channel pressure swelling and falling, and a scoop."""
    rng = ids(34)
    notes = [Note(pitch=60, velocity=80, start_beat=0, duration_beats=2)]
    notes.append(Note(pitch=64, velocity=70, start_beat=2, duration_beats=2))
    region = Region(
        id=new_id(rng),
        name="keys",
        start_beat=4,
        length_beats=8,
        notes=notes,
        control_changes=[
            ControlChange(beat=0.03, controller=64, value=127),
            ControlChange(beat=1.97, controller=64, value=0),
        ],
        pitch_bends=[PitchBend(beat=2, value=-2048), PitchBend(beat=2.125, value=0)],
        channel_pressures=[
            ChannelPressure(beat=0, value=40),
            ChannelPressure(beat=0.5, value=90),
            ChannelPressure(beat=1.0, value=90),  # running status: no status byte again
            ChannelPressure(beat=6.5, value=0),  # past the last note: the track ends here
        ],
    )
    return Track(id=new_id(rng), name="Rhodes", role="keys", channel=3, program=4, regions=[region])


def test_channel_pressure_is_encoded_as_mido_writes_it_and_reads_back(tmp_path: Path) -> None:
    song = build_song(tempo=90).model_copy(update={"tracks": [_expressive_track()]})
    write_song_midi(tmp_path, song, arranged=True)
    data = (tmp_path / "midi" / "keys.mid").read_bytes()
    assert midi_bytes(track_to_midifile(song, song.tracks[0])) == data
    assert midi_bytes(mido.MidiFile(file=io.BytesIO(data))) == data, "mido writes what it reads"
    read = mido.MidiFile(file=io.BytesIO(data)).tracks[1]
    tick, pressures = 0, []
    for message in read:
        tick += message.time
        if message.type == "aftertouch":
            pressures.append((tick / 480, message.channel, message.value))
    assert pressures == [(4.0, 3, 40), (4.5, 3, 90), (5.0, 3, 90), (10.5, 3, 0)]
    assert _digest(data) == "a06c267d4f151b19da46ed9cc8ccd25a4e779ddb67eb58ac17e8ca7434787354"
