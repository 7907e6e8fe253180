"""S6 assembly decisions: who plays where, transition ramps, one channel each, no doubled notes.

`arrange_for_playback` turns the editable song into the one that is written to
MIDI and auditioned. The song itself keeps every generated note, so an
arrangement change can bring a silenced part back without regenerating it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from muse_tui.contracts.song import (
    Arrangement,
    Note,
    Region,
    SongState,
    Track,
    TrackRole,
)
from muse_tui.knowledge.rhythm import rhythm_table
from muse_tui.knowledge.tracks import TrackTable

from .expression import with_expression
from .humanize import retimed
from .transitions import RAMP_STEP_BEATS, ramp_region_id, transition_ramps

#: A note this early before a section it may play in still belongs to it (humanised pickups).
EARLY_GRACE_BEATS = 1 / 16
_EPSILON = 1e-6


def arrange_for_playback(song: SongState) -> SongState:
    """A copy ready to write or play: each track only where it is active, with ramps.

    Notes are kept only inside sections whose `active_roles` include the
    track's role (all notes when there is no arrangement) and are cut at the
    end of the active stretch; transition ramps are added; every track gets
    its own channel (drums on 10) and a program; same-pitch notes on a
    channel never overlap. Applying it twice gives the same song.
    """
    tracks_table = rhythm_table().tracks
    channels = assign_channels(song.tracks)
    tracks = []
    for track, channel in zip(song.tracks, channels, strict=True):
        spans = active_spans(song.arrangement, track.role, song.beats_per_bar, song)
        regions = [
            kept_where_active(region, spans, channel)
            for region in track.regions
            if region.id != ramp_region_id(track.id)
        ]
        if (ramps := ramp_region(song, track, channel)) is not None:
            regions.append(ramps)
        tracks.append(_with_sound(track, channel, regions, tracks_table))
    tracks = with_expression(song, tracks)  # pedal, vibrato, swells… fitted to these notes
    return song.model_copy(update={"tracks": remove_overlaps(tracks)})


def ramp_region(song: SongState, track: Track, channel: int) -> Region | None:
    """The region holding the track's transition ramps for the song's form, or None."""
    ramps = transition_ramps(song, track, channel)
    if not ramps:
        return None
    return Region(
        id=ramp_region_id(track.id),
        name="transitions",
        start_beat=0,
        length_beats=max(song_end_beat(song), ramps[-1].beat + RAMP_STEP_BEATS),
        control_changes=ramps,
    )


def assign_channels(tracks: Sequence[Track]) -> list[int]:
    """One MIDI channel per track: kit roles on the drum channel (10), the others distinct.

    A track keeps its own channel when it is free; past 15 melodic tracks the
    channels are shared again in order.
    """
    table = rhythm_table().tracks
    drum_channel = table.drum_channel
    kit_roles = table.kit_roles
    drums = [t.role in kit_roles or t.channel == drum_channel for t in tracks]
    free = [c for c in range(16) if c != drum_channel]
    wanted = {t.channel for t, d in zip(tracks, drums, strict=True) if not d}
    taken: set[int] = set()
    result: list[int] = []
    spare = (c for c in free if c not in wanted)
    shared = 0
    for track, is_drums in zip(tracks, drums, strict=True):
        if is_drums:
            result.append(drum_channel)
            continue
        channel = track.channel if track.channel not in taken else next(spare, None)
        if channel is None:
            channel = free[shared % len(free)]
            shared += 1
        taken.add(channel)
        result.append(channel)
    return result


def active_spans(
    arrangement: Arrangement | None,
    role: TrackRole,
    beats_per_bar: float,
    song: SongState | None = None,
) -> list[tuple[float, float]] | None:
    """The stretches, in beats, where `role` plays; None when there is no arrangement.

    Given the `song`, bars are placed through its meter changes."""
    if arrangement is None:
        return None
    spans: list[tuple[float, float]] = []
    for section in arrangement.sections:
        if role not in section.active_roles:
            continue
        if song is not None:
            start, end = song.section_span(section)
        else:
            start, end = section.start_bar * beats_per_bar, section.end_bar * beats_per_bar
        if spans and abs(spans[-1][1] - start) < _EPSILON:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def remove_overlaps(tracks: Sequence[Track]) -> list[Track]:
    """Cut a note short where the same pitch starts again on its channel; drop exact repeats.

    Tracks sharing a channel (drums and percussion) are checked together.
    """
    placed: list[tuple[int, int, float, float, int, int, int]] = []
    for t_index, track in enumerate(tracks):
        for r_index, region in enumerate(track.regions):
            for n_index, note in enumerate(region.notes):
                start = region.start_beat + note.start_beat
                placed.append(
                    (
                        track.channel,
                        note.pitch,
                        start,
                        -note.duration_beats,
                        t_index,
                        r_index,
                        n_index,
                    )
                )
    placed.sort()
    new_end: dict[tuple[int, int, int], float] = {}
    dropped: set[tuple[int, int, int]] = set()
    previous: tuple[int, int, float, float, tuple[int, int, int]] | None = None
    for channel, pitch, start, neg_length, *where in placed:
        ident = (where[0], where[1], where[2])
        end = start - neg_length
        if previous and previous[:2] == (channel, pitch) and start < previous[3] - _EPSILON:
            if start - previous[2] < _EPSILON:
                dropped.add(ident)
                continue
            new_end[previous[4]] = start
        previous = (channel, pitch, start, end, ident)
    if not new_end and not dropped:
        return list(tracks)
    return [_repaired(t, i, new_end, dropped) for i, t in enumerate(tracks)]


def kept_where_active(
    region: Region, spans: list[tuple[float, float]] | None, channel: int
) -> Region:
    """The region's notes inside `spans` (cut at a span's end), all of it on `channel`."""
    notes: list[Note] = []
    offset = region.start_beat
    windows = (
        [(float("-inf"), float("inf"), float("inf"))]
        if spans is None
        else [(a - EARLY_GRACE_BEATS - _EPSILON, b - _EPSILON, b) for a, b in spans]
    )
    for note in region.notes:  # every note of a song passes here: the span is found in line
        start = offset + note.start_beat
        kept_until = None
        for low, high, span_end in windows:
            if low <= start < high:
                kept_until = span_end
                break
        if kept_until is None:
            continue
        end = min(start + note.duration_beats, kept_until)
        notes.append(_kept_note(note, channel, end - start))
    return region.model_copy(
        update={
            "notes": notes,
            "control_changes": [
                cc if cc.channel == channel else cc.model_copy(update={"channel": channel})
                for cc in region.control_changes
            ],
            "pitch_bends": [
                pb if pb.channel == channel else pb.model_copy(update={"channel": channel})
                for pb in region.pitch_bends
            ],
        }
    )


def _kept_note(note: Note, channel: int, duration: float) -> Note:
    """`note` on `channel`, lasting `duration`: the note itself when neither changes.

    Most notes do change (a length recomputed from the note's end moves its last
    bit), so each is built anew, unvalidated when plainly valid (`retimed`).
    """
    if note.channel == channel and note.duration_beats == duration:
        return note
    return retimed(note, duration, channel)


def _with_sound(track: Track, channel: int, regions: list[Region], table: TrackTable) -> Track:
    preset = track.preset
    if channel == table.drum_channel:
        kit = track.drum_kit
        if kit is None and preset is not None:
            kit = preset.gm_drum_kit
        if kit is None:
            kit = track.program  # some generators put the kit number in `program`
        sound = {"program": None, "drum_kit": kit}
    else:
        program = track.program
        if program is None and preset is not None:
            program = preset.gm_program
        if program is None:  # S5 chose no sound: the role's GM program, never all piano
            program = table.roles[track.role].program or 0
        sound = {"program": program}
    return track.model_copy(update={"channel": channel, "regions": regions, **sound})


def _repaired(
    track: Track,
    t_index: int,
    new_end: dict[tuple[int, int, int], float],
    dropped: set[tuple[int, int, int]],
) -> Track:
    regions = []
    for r_index, region in enumerate(track.regions):
        notes = []
        for n_index, note in enumerate(region.notes):
            ident = (t_index, r_index, n_index)
            if ident in dropped:
                continue
            if ident in new_end:
                length = new_end[ident] - region.start_beat - note.start_beat
                note = note.model_copy(update={"duration_beats": length})
            notes.append(note)
        regions.append(region.model_copy(update={"notes": notes}))
    return track.model_copy(update={"regions": regions})


def song_end_beat(song: SongState, last_event_beat: float | None = None) -> float:
    """Where the song ends: the bar line after its last event, or the arrangement's end if later.

    `last_event_beat` is where the last sound stops (a held note's tail); by
    default the end of the last region.
    """
    if last_event_beat is None:
        last_event_beat = max((r.end_beat for t in song.tracks for r in t.regions), default=0.0)
    if song.has_meter_changes:
        bars = song.bar_map
        last = bars.bar_at(last_event_beat - 1e-9) if last_event_beat > 0 else -1
        end = bars.bar_start(last + 1)
    else:
        bar = song.beats_per_bar
        end = math.ceil(last_event_beat / bar - 1e-9) * bar
    if song.arrangement is not None:
        end = max(end, song.bar_beat(song.arrangement.total_bars))
    return float(end)
