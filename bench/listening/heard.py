"""A session as a listener meets it: the full-arrangement MIDI file, read back, plus the roles.

The metrics take this plain shape, not the product's contracts, so they keep measuring
while the song model is restructured: everything here comes from the SMF (notes, track
names, programs, markers, key signature) and, where the file cannot say it, from the
session's song-state JSON read as plain JSON (track roles, the progression's numerals).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import mido

DRUM_CHANNEL = 9


@dataclass(frozen=True)
class HeardNote:
    """One note in song time: onset and length in beats (quarter notes)."""

    start: float
    length: float
    pitch: int
    velocity: int


@dataclass
class HeardTrack:
    """One track of the file: its name, role (from the song state), channel and program."""

    name: str
    channel: int
    program: int | None
    role: str = ""
    notes: list[HeardNote] = field(default_factory=list)

    @property
    def is_drums(self) -> bool:
        return self.channel == DRUM_CHANNEL


@dataclass(frozen=True)
class HeardSection:
    """A section from the file's markers: name, first bar (from 0) and length in bars."""

    name: str
    start_bar: int
    bars: int

    @property
    def base(self) -> str:
        """The name without its number ("Hook 2" -> "hook"), to find repeated sections."""
        return re.sub(r"\s*\d+$", "", self.name).strip().lower()


@dataclass
class HeardSong:
    """What the listening metrics read: tracks, sections, metre, tempo and declared key."""

    tracks: list[HeardTrack]
    sections: list[HeardSection]
    beats_per_bar: float = 4.0
    tempo: float = 120.0
    declared_key: str = ""  # e.g. "Am", "Eb" as the SMF key signature spells it
    genre: str = ""
    progression: tuple[str, ...] = ()
    total_bars: int = 0

    def tracks_with_role(self, *roles: str) -> list[HeardTrack]:
        return [t for t in self.tracks if t.role in roles]

    @property
    def drums(self) -> list[HeardNote]:
        """Every drum-channel note, in onset order."""
        return sorted(
            (n for t in self.tracks if t.is_drums for n in t.notes), key=lambda n: n.start
        )


def read_midi(path: Path) -> HeardSong:
    """Read a type-1 SMF into tracks, markers-as-sections, tempo, metre and key signature."""
    midi = mido.MidiFile(str(path), clip=False)
    tpb = midi.ticks_per_beat
    tracks: list[HeardTrack] = []
    markers: list[tuple[float, str]] = []
    beats_per_bar, tempo, key, end_beat = 4.0, 120.0, "", 0.0
    for smf_track in midi.tracks:
        tick, name, channel, program = 0, "", None, None
        sounding: dict[tuple[int, int], tuple[float, int]] = {}
        notes: list[HeardNote] = []
        for msg in smf_track:
            tick += msg.time
            beat = tick / tpb
            end_beat = max(end_beat, beat)
            if msg.type == "track_name":
                name = msg.name
            elif msg.type == "marker":
                markers.append((beat, msg.text))
            elif msg.type == "set_tempo" and tick == 0:
                tempo = mido.tempo2bpm(msg.tempo)
            elif msg.type == "time_signature" and tick == 0:
                beats_per_bar = msg.numerator * 4 / msg.denominator
            elif msg.type == "key_signature" and not key:
                key = msg.key
            elif msg.type == "program_change":
                program = msg.program
                channel = msg.channel
            elif msg.type == "note_on" and msg.velocity > 0:
                channel = msg.channel
                sounding[(msg.channel, msg.note)] = (beat, msg.velocity)
            elif msg.type in ("note_off", "note_on"):
                started = sounding.pop((msg.channel, msg.note), None)
                if started is not None:
                    notes.append(HeardNote(started[0], beat - started[0], msg.note, started[1]))
        if channel is None:
            continue  # the conductor track: tempo, markers, no notes
        notes.sort(key=lambda n: (n.start, n.pitch))
        drum_program = None if channel == DRUM_CHANNEL else program
        tracks.append(HeardTrack(name, channel, drum_program, notes=notes))
    total_bars = round(end_beat / beats_per_bar)
    return HeardSong(
        tracks=tracks,
        sections=sections_from_markers(markers, beats_per_bar, total_bars),
        beats_per_bar=beats_per_bar,
        tempo=tempo,
        declared_key=key,
        total_bars=total_bars,
    )


def sections_from_markers(
    markers: list[tuple[float, str]], beats_per_bar: float, total_bars: int
) -> list[HeardSection]:
    """Each marker starts a section that lasts until the next marker (or the song's end)."""
    ordered = sorted(markers)
    sections = []
    for i, (beat, text) in enumerate(ordered):
        start = round(beat / beats_per_bar)
        end = round(ordered[i + 1][0] / beats_per_bar) if i + 1 < len(ordered) else total_bars
        sections.append(HeardSection(text, start, max(end - start, 0)))
    return sections


def read_session(session_dir: Path) -> HeardSong:
    """Read a session folder: its full-arrangement MIDI and, if present, its song state."""
    song = read_midi(session_dir / "midi" / "full-arrangement.mid")
    state_path = session_dir / "state" / "song-state.json"
    if state_path.exists():
        state = json.loads(state_path.read_text())
        # By name, in order: two tracks may share one ("Piano" on chords and on keys).
        roles: dict[str, list[str]] = {}
        for t in state.get("tracks", []):
            roles.setdefault(t.get("name"), []).append(t.get("role", ""))
        for track in song.tracks:
            same_name = roles.get(track.name)
            if same_name:
                track.role = same_name.pop(0)
        song.genre = state.get("genre", "")
        chords = (state.get("progression") or {}).get("chords", [])
        song.progression = tuple(c.get("roman") or c.get("symbol", "") for c in chords)
    return song
