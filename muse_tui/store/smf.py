"""Standard MIDI Files: the song as format 1 at 480 PPQ, and notes read back from any PPQ.

Track 0 is the conductor (tempo, time signature, key signature, a marker per
section); then one named track per instrument on its own channel. Times in the
song are beats; here they become ticks, rounded once per event.
"""

from __future__ import annotations

import io
import struct
import unicodedata
from pathlib import Path

import mido

from muse_tui.compose.assembly import arrange_for_playback
from muse_tui.contracts import ManifestFile, Note, SongState, Track
from muse_tui.store.atomic import write_atomic
from muse_tui.store.sessions import inside_session, sanitise_name
from muse_tui.theory import SCALE_STEPS, KeySyntaxError, parse_key

PPQ = 480
MIDI_DIR = "midi"
FULL_ARRANGEMENT = "full-arrangement"

_MAJOR_KEYS = ("Cb", "Gb", "Db", "Ab", "Eb", "Bb", "F", "C", "G", "D", "A", "E", "B", "F#", "C#")
_MINOR_KEYS = ("Ab", "Eb", "Bb", "F", "C", "G", "D", "A", "E", "B", "F#", "C#", "G#", "D#", "A#")
# At one tick, note-offs go first (a repeated note re-strikes), then controllers, then note-ons.
_NOTE_OFF, _CONTROL, _NOTE_ON = 1, 2, 3
_HEADER_BYTES = 14  # 'MThd', its length, format, track count, division


def song_to_midifile(song: SongState, ppq: int = PPQ) -> mido.MidiFile:
    """The whole song as SMF format 1: the conductor track, then one track per instrument.

    Writes the song as given; `arrange_for_playback` first if sections should mute tracks.
    """
    end = song_end_tick(song, ppq)
    midi = mido.MidiFile(type=1, ticks_per_beat=ppq)
    midi.tracks.append(_conductor(song, ppq, end))
    midi.tracks.extend(_instrument(track, ppq, end) for track in song.tracks)
    return midi


def track_to_midifile(song: SongState, track: Track, ppq: int = PPQ) -> mido.MidiFile:
    """One instrument alone (with the conductor track), to import onto one MPC track."""
    end = song_end_tick(song, ppq)
    midi = mido.MidiFile(type=1, ticks_per_beat=ppq)
    midi.tracks.append(_conductor(song, ppq, end))
    midi.tracks.append(_instrument(track, ppq, end))
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
    session_dir: Path, song: SongState, *, arranged: bool = False
) -> list[ManifestFile]:
    """Write `midi/full-arrangement.mid` and a file per track; arrange first unless `arranged`.

    Each track is encoded once: the per-track files reuse the same bytes as the full file.
    """
    playable = song if arranged else arrange_for_playback(song)
    end = song_end_tick(playable, PPQ)
    conductor = _chunk(_conductor(playable, PPQ, end))
    chunks = {t.id: _chunk(_instrument(t, PPQ, end)) for t in playable.tracks}
    full = f"{MIDI_DIR}/{FULL_ARRANGEMENT}.mid"
    write_atomic(inside_session(session_dir, full), _smf([conductor, *chunks.values()]))
    names = midi_file_names(playable.tracks)
    for track in playable.tracks:
        write_atomic(
            inside_session(session_dir, names[track.id]), _smf([conductor, chunks[track.id]])
        )
    return midi_entries(session_dir, playable)


def _chunk(track: mido.MidiTrack) -> bytes:
    """One `MTrk` chunk, encoded by mido (the 14-byte file header stripped)."""
    return midi_bytes(mido.MidiFile(type=1, ticks_per_beat=PPQ, tracks=[track]))[_HEADER_BYTES:]


def _smf(chunks: list[bytes]) -> bytes:
    """A format-1 file from encoded track chunks."""
    return b"MThd" + struct.pack(">Lhhh", 6, 1, len(chunks), PPQ) + b"".join(chunks)


def midi_entries(session_dir: Path, song: SongState) -> list[ManifestFile]:
    """Manifest entries for the MIDI files `write_song_midi` wrote for this song."""
    full = f"{MIDI_DIR}/{FULL_ARRANGEMENT}.mid"
    description = "Every track with tempo, key and section markers, as SMF format 1"
    entries = [_written(session_dir, full, description)]
    names = midi_file_names(song.tracks)
    for track in song.tracks:
        description = f"{_text(track.name, track.role)} ({track.role}) alone, to import on its own"
        entries.append(_written(session_dir, names[track.id], description))
    return entries


def _written(session_dir: Path, relative: str, description: str) -> ManifestFile:
    size = inside_session(session_dir, relative).stat().st_size
    return ManifestFile(path=relative, type="midi", description=description, size_bytes=size)


def song_end_tick(song: SongState, ppq: int = PPQ) -> int:
    """Where the song ends: the arrangement's last bar line, or the last event if later."""
    beats = song.arrangement.total_bars * song.beats_per_bar if song.arrangement else 0.0
    for track in song.tracks:
        for region in track.regions:
            beats = max(beats, *(region.start_beat + n.end_beat for n in region.notes), 0.0)
            beats = max(beats, *(region.start_beat + c.beat for c in region.control_changes), 0.0)
            beats = max(beats, *(region.start_beat + b.beat for b in region.pitch_bends), 0.0)
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


def _conductor(song: SongState, ppq: int, end: int) -> mido.MidiTrack:
    numerator, denominator = song.time_signature
    events: list[tuple[int, int, mido.MetaMessage]] = [
        (0, 0, mido.MetaMessage("set_tempo", tempo=mido.bpm2tempo(song.tempo))),
        (0, 0, mido.MetaMessage("time_signature", numerator=numerator, denominator=denominator)),
    ]
    key = key_signature_name(song.key, song.mode)
    if key is not None:
        events.append((0, 0, mido.MetaMessage("key_signature", key=key)))
    for section in song.arrangement.sections if song.arrangement else []:
        tick = _tick(section.start_bar * song.beats_per_bar, ppq)
        events.append((tick, 1, mido.MetaMessage("marker", text=_text(section.name, section.kind))))
    return _to_track(sorted(events, key=lambda e: (e[0], e[1])), end)


def _instrument(track: Track, ppq: int, end: int) -> mido.MidiTrack:
    channel = track.channel
    events: list[tuple[int, int, mido.Message | mido.MetaMessage]] = [
        (0, 0, mido.MetaMessage("track_name", name=_text(track.name, track.role)))
    ]
    program = track.drum_kit if track.is_drums else track.program
    if program is not None:
        events.append((0, 0, _message("program_change", channel=channel, program=program)))
    events.append((0, 0, _cc(channel, 7, track.volume)))
    events.append((0, 0, _cc(channel, 10, track.pan)))
    for region in track.regions:
        offset = region.start_beat
        for note in region.notes:
            start = _tick(offset + note.start_beat, ppq)
            stop = max(start + 1, _tick(offset + note.end_beat, ppq))
            on = _message("note_on", channel=channel, note=note.pitch, velocity=note.velocity)
            events.append((start, _NOTE_ON, on))
            off = _message("note_off", channel=channel, note=note.pitch, velocity=0)
            events.append((stop, _NOTE_OFF, off))
        for cc in region.control_changes:
            events.append(
                (_tick(offset + cc.beat, ppq), _CONTROL, _cc(channel, cc.controller, cc.value))
            )
        for bend in region.pitch_bends:
            msg = _message("pitchwheel", channel=channel, pitch=bend.value)
            events.append((_tick(offset + bend.beat, ppq), _CONTROL, msg))
    return _to_track(_no_stacked_notes(events), end)


def _no_stacked_notes(
    events: list[tuple[int, int, mido.Message | mido.MetaMessage]],
) -> list[tuple[int, int, mido.Message | mido.MetaMessage]]:
    """Sort the events, guaranteeing no same-pitch overlap even where rounding makes one.

    A note-on for a pitch already sounding ends it first (or, struck on the
    same tick, merges with it); one note-off is then dropped, so each
    remaining note-on has exactly one note-off.
    """
    events.sort(key=lambda e: (e[0], e[1]))
    started: dict[int, int] = {}
    owed: dict[int, int] = {}
    result = []
    for tick, order, msg in events:
        if order == _NOTE_ON and msg.note in started:
            owed[msg.note] = owed.get(msg.note, 0) + 1
            if started[msg.note] == tick:
                continue
            off = _message("note_off", channel=msg.channel, note=msg.note, velocity=0)
            result.append((tick, _NOTE_OFF, off))
        if order == _NOTE_ON:
            started[msg.note] = tick
        elif order == _NOTE_OFF:
            if owed.get(msg.note):
                owed[msg.note] -= 1
                continue
            started.pop(msg.note, None)
        result.append((tick, order, msg))
    return result


def _to_track(
    events: list[tuple[int, int, mido.Message | mido.MetaMessage]], end: int
) -> mido.MidiTrack:
    """Absolute ticks (already in order) to delta times, and the one end-of-track."""
    track = mido.MidiTrack()
    now = 0
    for tick, _, msg in events:
        msg.time = tick - now  # each message here is fresh, made for this track
        track.append(msg)
        now = tick
    track.append(mido.MetaMessage("end_of_track", time=max(0, end - now)))
    return track


def _cc(channel: int, controller: int, value: int) -> mido.Message:
    return _message("control_change", channel=channel, control=controller, value=value)


def _message(kind: str, **values: int) -> mido.Message:
    """A channel message without mido's per-field checks: the contracts already bounded them."""
    return mido.Message(kind, skip_checks=True, **values)


def _tick(beat: float, ppq: int) -> int:
    return round(beat * ppq)


def _text(text: str, fallback: str) -> str:
    """Plain ASCII for meta events: every parser reads it, whatever its charset."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    cleaned = " ".join("".join(c for c in folded if c.isprintable()).split())
    return cleaned[:64] or fallback
