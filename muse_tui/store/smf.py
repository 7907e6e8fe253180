"""Standard MIDI Files: the song as format 1 at 480 PPQ, and notes read back from any PPQ.

Track 0 is the conductor (tempo, time signature, key signature, again at each
section that changes key, a marker per section); then one named track per instrument
on its own channel. Times in the song are beats; here they become ticks, rounded once
per event. Tracks are encoded here, byte for byte as mido would write them (running
status included); `song_to_midifile` gives the same tracks as mido objects.
"""

from __future__ import annotations

import io
import math
import struct
import unicodedata
from operator import itemgetter
from pathlib import Path

import mido

from muse_tui.compose.assembly import arrange_for_playback
from muse_tui.compose.transposition import shifted_key
from muse_tui.contracts import ManifestFile, Meter, Note, SongState, Track
from muse_tui.contracts.manifest import FileType
from muse_tui.store.atomic import current_size, write_atomic_files
from muse_tui.store.mpc_patterns import pattern_files
from muse_tui.store.sessions import inside_session, sanitise_name
from muse_tui.theory import SCALE_STEPS, KeySyntaxError, parse_key
from muse_tui.theory.key import key_of

PPQ = 480
MIDI_DIR = "midi"
FULL_ARRANGEMENT = "full-arrangement"

_MAJOR_KEYS = ("Cb", "Gb", "Db", "Ab", "Eb", "Bb", "F", "C", "G", "D", "A", "E", "B", "F#", "C#")
_MINOR_KEYS = ("Ab", "Eb", "Bb", "F", "C", "G", "D", "A", "E", "B", "F#", "C#", "G#", "D#", "A#")
# At one tick, note-offs go first (a repeated note re-strikes), then controllers, then note-ons.
_NOTE_OFF, _CONTROL, _NOTE_ON = 1, 2, 3
_END_OF_TRACK = b"\xff\x2f\x00"
_ONE_BYTE = [bytes((value,)) for value in range(0x80)]
# Channel messages by status nibble: their mido type and the names of their data bytes.
_MIDO_FIELDS = {
    0x80: ("note_off", "note", "velocity"),
    0x90: ("note_on", "note", "velocity"),
    0xB0: ("control_change", "control", "value"),
    0xC0: ("program_change", "program"),
    0xD0: ("aftertouch", "value"),
}

#: One event of a track: its absolute tick, its order among events at that tick, its bytes.
Event = tuple[int, int, bytes]
_TICK_AND_ORDER = itemgetter(0, 1)  # sort key; equal keys keep the order they were made in


def song_to_midifile(song: SongState, ppq: int = PPQ) -> mido.MidiFile:
    """The whole song as SMF format 1: the conductor track, then one track per instrument.

    Writes the song as given; `arrange_for_playback` first if sections should mute tracks.
    """
    end = song_end_tick(song, ppq)
    midi = mido.MidiFile(type=1, ticks_per_beat=ppq)
    midi.tracks.append(_mido_track(_conductor(song, ppq), end))
    midi.tracks.extend(_mido_track(_instrument(track, ppq), end) for track in song.tracks)
    return midi


def track_to_midifile(song: SongState, track: Track, ppq: int = PPQ) -> mido.MidiFile:
    """One instrument alone (with the conductor track), to import onto one MPC track."""
    end = song_end_tick(song, ppq)
    midi = mido.MidiFile(type=1, ticks_per_beat=ppq)
    midi.tracks.append(_mido_track(_conductor(song, ppq), end))
    midi.tracks.append(_mido_track(_instrument(track, ppq), end))
    return midi


def midi_bytes(midi: mido.MidiFile) -> bytes:
    buffer = io.BytesIO()
    midi.save(file=buffer)
    return buffer.getvalue()


def midi_file_names(tracks: list[Track]) -> dict[str, str]:
    """Track id → `midi/<role>.mid`; a second track with the same role gets `<role>-2.mid`."""
    names: dict[str, str] = {}
    used: dict[str, int] = {}
    for track in tracks:
        stem = sanitise_name(track.role)
        used[stem] = used.get(stem, 0) + 1
        suffix = "" if used[stem] == 1 else f"-{used[stem]}"
        names[track.id] = f"{MIDI_DIR}/{stem}{suffix}.mid"
    return names


def write_song_midi(
    session_dir: Path,
    song: SongState,
    *,
    arranged: bool = False,
    durable: bool = True,
    drum_map: str | None = None,
) -> list[ManifestFile]:
    """Write `midi/full-arrangement.mid`, a file per track and the MPC patterns of each track
    in each section (`mpc/`); arrange first unless `arranged`.

    Each track is encoded once: the per-track files reuse the same bytes as the full file.
    The patterns are cut from the same arranged song, so they play what the MIDI plays.
    The manifest entries take the sizes just written rather than asking the disk again.
    `durable=False` leaves the fsyncs to the caller (`store.atomic.sync_files`). The drum
    patterns play `drum_map` (`skills/mpc/pads.json`); the MIDI files keep General MIDI.
    """
    playable = song if arranged else arrange_for_playback(song)
    end = song_end_tick(playable, PPQ)
    conductor = _chunk(_conductor(playable, PPQ), end)
    chunks = {t.id: _chunk(_instrument(t, PPQ), end) for t in playable.tracks}
    contents = [_smf([conductor, *chunks.values()])]
    contents += [_smf([conductor, chunks[track.id]]) for track in playable.tracks]
    described = [
        (relative, "midi", description)
        for relative, description in _descriptions(playable, midi_file_names(playable.tracks))
    ]
    for relative, data, description in pattern_files(playable, drum_map):
        described.append((relative, "pattern", description))
        contents.append(data)
    sizes = write_atomic_files(
        [
            (inside_session(session_dir, relative), data)
            for (relative, _, _), data in zip(described, contents, strict=True)
        ],
        durable=durable,
    )
    return [
        ManifestFile(path=relative, type=kind, description=description, size_bytes=size)
        for (relative, kind, description), size in zip(described, sizes, strict=True)
    ]


def _smf(chunks: list[bytes]) -> bytes:
    """A format-1 file from encoded track chunks."""
    return b"MThd" + struct.pack(">Lhhh", 6, 1, len(chunks), PPQ) + b"".join(chunks)


def midi_entries(
    session_dir: Path, song: SongState, drum_map: str | None = None
) -> list[ManifestFile]:
    """Manifest entries for the files `write_song_midi` wrote for this (arranged) song."""
    entries = [
        _written(session_dir, relative, description)
        for relative, description in _descriptions(song, midi_file_names(song.tracks))
    ]
    entries += [
        _written(session_dir, relative, description, "pattern")
        for relative, _, description in pattern_files(song, drum_map)
    ]
    return entries


def _descriptions(song: SongState, names: dict[str, str]) -> list[tuple[str, str]]:
    """(path, description) of each MIDI file of the song, in the order they are written."""
    full = f"{MIDI_DIR}/{FULL_ARRANGEMENT}.mid"
    described = [(full, "Every track with tempo, key and section markers, as SMF format 1")]
    for track in song.tracks:
        description = f"{_text(track.name, track.role)} ({track.role}) alone, to import on its own"
        described.append((names[track.id], description))
    return described


def _written(
    session_dir: Path, relative: str, description: str, kind: FileType = "midi"
) -> ManifestFile:
    size = current_size(inside_session(session_dir, relative))
    return ManifestFile(path=relative, type=kind, description=description, size_bytes=size)


def song_end_tick(song: SongState, ppq: int = PPQ) -> int:
    """Where the song ends: the arrangement's last bar line, or the last event if later."""
    beats = song.bar_beat(song.arrangement.total_bars) if song.arrangement else 0.0
    for track in song.tracks:
        for region in track.regions:
            # Adding the region's start is monotonic, so it is added once, to the latest time.
            latest = max(
                max((n.start_beat + n.duration_beats for n in region.notes), default=0.0),
                max((c.beat for c in region.control_changes), default=0.0),
                max((b.beat for b in region.pitch_bends), default=0.0),
                max((p.beat for p in region.channel_pressures), default=0.0),
            )
            if (
                region.notes
                or region.control_changes
                or region.pitch_bends
                or region.channel_pressures
            ):
                beats = max(beats, region.start_beat + latest)
    return _tick(beats, ppq)


def midifile_to_notes(midi: mido.MidiFile) -> dict[str, list[Note]]:
    """The notes of every track that has some, by track name, in beats whatever the PPQ."""
    ppq = midi.ticks_per_beat
    result: dict[str, list[Note]] = {}
    for index, track in enumerate(midi.tracks):
        name, notes = f"track-{index}", []
        sounding: dict[tuple[int, int], list[tuple[int, int]]] = {}
        tick = 0
        for msg in track:
            tick += msg.time
            if msg.type == "track_name":
                name = msg.name
            elif msg.type == "note_on" and msg.velocity > 0:
                sounding.setdefault((msg.channel, msg.note), []).append((tick, msg.velocity))
            elif msg.type in ("note_on", "note_off") and sounding.get((msg.channel, msg.note)):
                start, velocity = sounding[(msg.channel, msg.note)].pop(0)
                if tick > start:
                    notes.append(
                        Note(
                            pitch=msg.note,
                            velocity=velocity,
                            start_beat=start / ppq,
                            duration_beats=(tick - start) / ppq,
                            channel=msg.channel,
                        )
                    )
        if notes:
            notes.sort(key=lambda n: (n.start_beat, n.pitch))
            unique, count = name, 1
            while unique in result:
                count += 1
                unique = f"{name} ({count})"
            result[unique] = notes
    return result


def midifile_markers(midi: mido.MidiFile) -> list[tuple[float, str]]:
    """(beat, name) of every marker in the conductor track."""
    markers, tick = [], 0
    for msg in midi.tracks[0] if midi.tracks else []:
        tick += msg.time
        if msg.type == "marker":
            markers.append((tick / midi.ticks_per_beat, msg.text))
    return markers


def key_signature_name(key: str, mode: str) -> str | None:
    """The mido key-signature name for a key ('Am', 'Eb'); modes use their signature.

    D dorian has no sharps or flats and a minor third, so it is written 'Am'. None
    when the key cannot be read.
    """
    try:
        parsed = parse_key(f"{key} {mode}")
    except KeySyntaxError:
        try:
            parsed = parse_key(key)
        except KeySyntaxError:
            return None
    sharps = parsed.signature
    sharps = sharps - 12 if sharps > 7 else sharps + 12 if sharps < -7 else sharps
    if SCALE_STEPS[parsed.mode][2] == 3:
        return f"{_MINOR_KEYS[sharps + 7]}m"
    return _MAJOR_KEYS[sharps + 7]


def _conductor(song: SongState, ppq: int) -> list[Event]:
    bars = song.bar_map
    events: list[Event] = [(0, 0, _meta("set_tempo", tempo=mido.bpm2tempo(song.tempo)))]
    for bar, meter in bars.changes:  # the song's meter at the start, then every change
        events.append((_tick(bars.bar_start(bar), ppq), 0, _time_signature(meter)))
    key = key_signature_name(song.key, song.mode)
    if key is not None:
        events.append((0, 0, _meta("key_signature", key=key)))
    shift = 0
    for section in song.arrangement.sections if song.arrangement else []:
        tick = _tick(bars.bar_start(section.start_bar), ppq)
        if key is not None and section.key_shift != shift:
            shift = section.key_shift
            moved = shifted_key(key_of(song.key, song.mode), shift)
            name = key_signature_name(moved.tonic, song.mode) or key
            events.append((tick, 0, _meta("key_signature", key=name)))
        events.append((tick, 1, _meta("marker", text=_text(section.name, section.kind))))
    return sorted(events, key=_TICK_AND_ORDER)


def _time_signature(meter: Meter) -> bytes:
    """The meter as SMF writes it; the metronome clicks on the felt beat (a dotted quarter
    in 6/8: 36 MIDI clocks), as notation programs write it."""
    click = round(24 * meter.pulse * (3 if meter.is_compound else 1))
    return _meta(
        "time_signature",
        numerator=meter.numerator,
        denominator=meter.denominator,
        clocks_per_click=click,
    )


def _instrument(track: Track, ppq: int) -> list[Event]:
    channel = track.channel
    note_on, note_off, control = 0x90 | channel, 0x80 | channel, 0xB0 | channel
    events: list[Event] = [(0, 0, _meta("track_name", name=_text(track.name, track.role)))]
    program = track.drum_kit if track.is_drums else track.program
    if program is not None:
        events.append((0, 0, bytes((0xC0 | channel, program))))
    events.append((0, 0, bytes((control, 7, track.volume))))
    events.append((0, 0, bytes((control, 10, track.pan))))
    offs = [bytes((note_off, pitch, 0)) for pitch in range(128)]
    floor, slack, add = math.floor, _TICK_SLACK, events.append
    for region in track.regions:
        offset = region.start_beat
        for note in region.notes:  # `_tick` in line: most of a file's events are these
            begin, pitch = note.start_beat, note.pitch
            start = floor((offset + begin) * ppq + 0.5 + slack)
            stop = floor((offset + (begin + note.duration_beats)) * ppq + 0.5 + slack)
            add((start, _NOTE_ON, bytes((note_on, pitch, note.velocity))))
            add((stop if stop > start else start + 1, _NOTE_OFF, offs[pitch]))
        for cc in region.control_changes:
            message = bytes((control, cc.controller, cc.value))
            events.append((_tick(offset + cc.beat, ppq), _CONTROL, message))
        for bend in region.pitch_bends:
            value = bend.value + 8192  # 14 bits from 0, low 7 bits first
            message = bytes((0xE0 | channel, value & 0x7F, value >> 7))
            events.append((_tick(offset + bend.beat, ppq), _CONTROL, message))
        for pressure in region.channel_pressures:
            message = bytes((0xD0 | channel, pressure.value))
            events.append((_tick(offset + pressure.beat, ppq), _CONTROL, message))
    return _no_stacked_notes(events)


def _no_stacked_notes(events: list[Event]) -> list[Event]:
    """Sort the events, guaranteeing no same-pitch overlap even where rounding makes one.

    A note-on for a pitch already sounding ends it first (or, struck on the
    same tick, merges with it); one note-off is then dropped, so each
    remaining note-on has exactly one note-off.
    """
    events.sort(key=_TICK_AND_ORDER)
    started: dict[int, int] = {}
    owed: dict[int, int] = {}
    result = []
    for tick, order, message in events:
        if order == _NOTE_ON:
            pitch = message[1]
            if pitch in started:
                owed[pitch] = owed.get(pitch, 0) + 1
                if started[pitch] == tick:
                    continue
                note_off = 0x80 | message[0] & 0x0F
                result.append((tick, _NOTE_OFF, bytes((note_off, pitch, 0))))
            started[pitch] = tick
        elif order == _NOTE_OFF:
            pitch = message[1]
            if owed.get(pitch):
                owed[pitch] -= 1
                continue
            started.pop(pitch, None)
        result.append((tick, order, message))
    return result


def _chunk(events: list[Event], end: int) -> bytes:
    """One `MTrk` chunk: delta times, running status as mido writes it, one end of track.

    Encoded here rather than by mido because building a mido message per
    event was most of the assembly's time; `_mido_track` makes the same track
    as mido objects, and tests/io pins that both give the same bytes.
    """
    data = bytearray()
    now, running = 0, None
    for tick, _, message in events:
        delta = tick - now
        data += _ONE_BYTE[delta] if delta < 0x80 else _variable_length(delta)
        now = tick
        status = message[0]
        data += message[1:] if status == running else message
        running = status if status < 0xF0 else None  # meta events cancel running status
    data += _variable_length(max(0, end - now))
    data += _END_OF_TRACK
    return b"MTrk" + struct.pack(">L", len(data)) + data


def _variable_length(value: int) -> bytes:
    """A MIDI variable-length quantity: 7 bits a byte, the most significant first."""
    if value < 0x80:
        return _ONE_BYTE[value]
    groups = [value & 0x7F]
    value >>= 7
    while value:
        groups.append(0x80 | value & 0x7F)
        value >>= 7
    return bytes(reversed(groups))


def _mido_track(events: list[Event], end: int) -> mido.MidiTrack:
    """The track `_chunk` encodes, as mido messages with delta times."""
    track = mido.MidiTrack()
    now = 0
    for tick, _, message in events:
        track.append(_mido_message(message, tick - now))
        now = tick
    track.append(mido.MetaMessage("end_of_track", time=max(0, end - now)))
    return track


def _mido_message(message: bytes, delta: int) -> mido.Message | mido.MetaMessage:
    """One of our encoded events as a mido message, without mido's per-field checks."""
    status = message[0]
    if status == 0xFF:
        meta = mido.MetaMessage.from_bytes(message)
        meta.time = delta
        return meta
    kind, channel = status & 0xF0, status & 0x0F
    if kind == 0xE0:
        pitch = (message[1] | message[2] << 7) - 8192
        return mido.Message(
            "pitchwheel", skip_checks=True, channel=channel, pitch=pitch, time=delta
        )
    name, *fields = _MIDO_FIELDS[kind]
    values = dict(zip(fields, message[1:], strict=True))
    return mido.Message(name, skip_checks=True, channel=channel, time=delta, **values)


def _meta(kind: str, **values: str | int) -> bytes:
    """A meta event's bytes, encoded by mido: there are only a few in a track."""
    return bytes(mido.MetaMessage(kind, **values).bytes())


def _tick(beat: float, ppq: int) -> int:
    """The tick of a beat, a half tick rounding up whatever float noise the beat carries.

    Humanised onsets sit on half ticks (1/960 beat at 480 PPQ); `round` would take
    x.5 to the even tick, and x.5 minus a float's last bit down, so the same note
    moved by whole bars could land a tick apart. Rounding half up, with a margin
    far below a tick, moves every note by exactly the ticks the bars hold.
    """
    return math.floor(beat * ppq + 0.5 + _TICK_SLACK)


#: Float noise a beat may carry, in ticks: a millionth of one.
_TICK_SLACK = 1e-6


def _text(text: str, fallback: str) -> str:
    """Plain ASCII for meta events: every parser reads it, whatever its charset."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    cleaned = " ".join("".join(c for c in folded if c.isprintable()).split())
    return cleaned[:64] or fallback
