"""What to play: each track flattened into one sorted list of MIDI events in song beats.

Events are plain tuples `(beat, kind, data1, data2)` because the player thread
compares and walks thousands of them. At the same beat they sort note-offs
first, then controllers, pressure and bends, then note-ons, low to high: a re-struck note
is released before it sounds again, and a sustain or bend lands before the
note it shapes. Every event of a track goes out on the track's channel, so
drums are on channel 10 (index 9) whatever the notes say.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from muse_tui.contracts import Note, Region, SongState, Track

NOTE_OFF, CONTROL, PRESSURE, BEND, NOTE_ON = 0, 1, 2, 3, 4

CC_VOLUME, CC_PAN, CC_SUSTAIN = 7, 10, 64
CC_ALL_SOUND_OFF, CC_ALL_NOTES_OFF = 120, 123
BEND_CENTRE = 8192

Event = tuple[float, int, int, int]


@dataclass(frozen=True, slots=True)
class Part:
    """One track's events as the player walks them; `beats` mirrors the events for bisecting."""

    track_id: str
    role: str
    channel: int
    events: tuple[Event, ...]
    beats: tuple[float, ...]
    setup: tuple[tuple[int, ...], ...] = ()

    def first_at_or_after(self, beat: float) -> int:
        """Index of the first event at or after `beat`."""
        return bisect.bisect_left(self.beats, beat)

    @property
    def last_beat(self) -> float:
        return self.beats[-1] if self.beats else 0.0


def region_events(regions: Iterable[Region]) -> list[Event]:
    """Every note-on/off, controller, pressure and bend of the regions, placed in song beats."""
    events: list[Event] = []
    for region in regions:
        offset = region.start_beat
        for note in region.notes:
            start = offset + note.start_beat
            events.append((start, NOTE_ON, note.pitch, note.velocity))
            events.append((start + note.duration_beats, NOTE_OFF, note.pitch, 0))
        for cc in region.control_changes:
            events.append((offset + cc.beat, CONTROL, cc.controller, cc.value))
        for bend in region.pitch_bends:
            events.append((offset + bend.beat, BEND, bend.value + BEND_CENTRE, 0))
        for pressure in region.channel_pressures:
            events.append((offset + pressure.beat, PRESSURE, pressure.value, 0))
    events.sort()
    return events


def note_events(notes: Iterable[Note]) -> list[Event]:
    """Note-ons and note-offs of notes already placed in song beats (an alternative's notes)."""
    events: list[Event] = []
    for note in notes:
        events.append((note.start_beat, NOTE_ON, note.pitch, note.velocity))
        events.append((note.end_beat, NOTE_OFF, note.pitch, 0))
    events.sort()
    return events


def channel_setup(track: Track) -> tuple[tuple[int, ...], ...]:
    """Program (the GM stand-in), volume and pan, sent on the track's channel before playing."""
    channel = track.channel
    program = track.drum_kit if track.is_drums else track.program
    if program is None and track.preset is not None:
        program = track.preset.gm_drum_kit if track.is_drums else track.preset.gm_program
    setup: list[tuple[int, ...]] = []
    if program is not None:
        setup.append((0xC0 | channel, program))
    setup.append((0xB0 | channel, CC_VOLUME, track.volume))
    setup.append((0xB0 | channel, CC_PAN, track.pan))
    return tuple(setup)


def part_from_events(track: Track, events: Sequence[Event]) -> Part:
    return Part(
        track_id=track.id,
        role=track.role,
        channel=track.channel,
        events=tuple(events),
        beats=tuple(e[0] for e in events),
        setup=channel_setup(track),
    )


def part_for(track: Track, replacement: Track | Sequence[Note] | None = None) -> Part:
    """The part `track` plays, or `replacement` playing in its place on its channel."""
    if replacement is None:
        return part_from_events(track, region_events(track.regions))
    if isinstance(replacement, Track):
        return part_from_events(track, region_events(replacement.regions))
    return part_from_events(track, note_events(replacement))


def song_end_beat(song: SongState, parts: Iterable[Part]) -> float:
    """Where the song ends: the bar line after its last event, or the arrangement's end if later."""
    last = max((p.last_beat for p in parts), default=0.0)
    if song.has_meter_changes:
        bars = song.bar_map
        end = bars.bar_start(bars.bar_at(last - 1e-9) + 1) if last > 0 else 0.0
    else:
        bar = song.beats_per_bar
        end = math.ceil(last / bar - 1e-9) * bar
    if song.arrangement is not None:
        end = max(end, song.bar_beat(song.arrangement.total_bars))
    return float(end)


def message(event: Event, channel: int) -> tuple[int, ...]:
    """The MIDI bytes of an event on `channel`."""
    _, kind, data1, data2 = event
    if kind == NOTE_ON:
        return (0x90 | channel, data1, data2)
    if kind == NOTE_OFF:
        return (0x80 | channel, data1, 0)
    if kind == CONTROL:
        return (0xB0 | channel, data1, data2)
    if kind == PRESSURE:
        return (0xD0 | channel, data1)
    return (0xE0 | channel, data1 & 0x7F, data1 >> 7)


def bar_range(song: SongState, start_bar: int, end_bar: int) -> tuple[float, float]:
    """Bars [start_bar, end_bar) as a beat range; raises ValueError on an empty range."""
    if start_bar < 0 or end_bar <= start_bar:
        raise ValueError(
            f"a loop needs start_bar ≥ 0 and end_bar > start_bar, got {start_bar}–{end_bar}"
        )
    return song.bar_beat(start_bar), song.bar_beat(end_bar)


def section_range(song: SongState, name: str) -> tuple[float, float]:
    """The beat range of the section called `name` (or of the first of that kind)."""
    sections = song.arrangement.sections if song.arrangement is not None else []
    for section in sections:
        if section.name == name:
            return bar_range(song, section.start_bar, section.end_bar)
    for section in sections:
        if section.kind == name:
            return bar_range(song, section.start_bar, section.end_bar)
    names = ", ".join(s.name for s in sections) or "none, the song has no arrangement"
    raise ValueError(f"No section called {name!r} in this song (sections: {names}).")
