"""Flattening a song into MIDI events, and the ledger that keeps notes from sticking."""

from __future__ import annotations

import pytest

from muse_tui.audition.ledger import SoundingNotes
from muse_tui.audition.schedule import (
    BEND,
    CONTROL,
    NOTE_OFF,
    NOTE_ON,
    message,
    part_for,
    section_range,
    song_end_beat,
)
from muse_tui.contracts import Note
from tests.audition.songs import expected_events, groove, other_bass, region, track, waltz


def test_a_track_becomes_events_in_song_beats_with_region_offsets() -> None:
    bass = groove(8).track("bass")
    assert bass is not None
    events = part_for(bass).events
    hook_first = [e for e in events if e[0] == 16.0 and e[1] == NOTE_ON]
    assert hook_first == [(16.0, NOTE_ON, 36, 96)]  # the second region starts at beat 16
    assert len(events) == 2 * 16


def test_simultaneous_events_release_then_shape_then_strike() -> None:
    keys = track(
        "keys",
        0,
        [region(0, 4, [(0, 1, 60, 90), (1, 1, 60, 90)], ccs=[(1, 64, 127)], bends=[(1, 100)])],
    )
    at_one = [e[1] for e in part_for(keys).events if e[0] == 1]
    assert at_one == [NOTE_OFF, CONTROL, BEND, NOTE_ON]


def test_events_go_out_on_the_track_channel_so_drums_are_on_ten() -> None:
    drums = groove(8).track("drums")
    assert drums is not None
    part = part_for(drums)
    assert {message(e, part.channel)[0] & 0x0F for e in part.events} == {9}


def test_the_scheduler_agrees_with_the_written_song() -> None:
    song = groove(8)
    parts = [part_for(t) for t in song.tracks]
    merged = sorted(
        (e[0], e[1], i, e[2], message(e, p.channel)) for i, p in enumerate(parts) for e in p.events
    )
    assert [m[4] for m in merged] == [m for _, m in expected_events(song)]


def test_bends_become_14_bit_values_around_the_centre() -> None:
    assert message((0.0, BEND, 8192 + 8191, 0), 3) == (0xE3, 0x7F, 0x7F)
    assert message((0.0, BEND, 0, 0), 3) == (0xE3, 0, 0)


def test_an_alternative_plays_on_the_original_tracks_channel() -> None:
    song = groove(8)
    bass = song.track("bass")
    assert bass is not None
    as_track = part_for(bass, other_bass(8))
    as_notes = part_for(bass, [Note(pitch=40, velocity=90, start_beat=4, duration_beats=1)])
    assert as_track.channel == as_notes.channel == bass.channel
    assert as_track.track_id == bass.id
    assert as_notes.events == ((4, NOTE_ON, 40, 90), (5, NOTE_OFF, 40, 0))


def test_sections_and_the_end_of_the_song() -> None:
    song = groove(8)
    assert section_range(song, "hook") == (16.0, 32.0)
    assert section_range(song, "intro") == (0.0, 16.0)
    with pytest.raises(ValueError, match=r"No section called 'bridge'.*intro, hook"):
        section_range(song, "bridge")
    assert song_end_beat(song, [part_for(t) for t in song.tracks]) == 32.0
    three_four = waltz(bars=4)
    assert (
        song_end_beat(three_four, [part_for(t) for t in three_four.tracks]) == 12.0
    )  # the bar line after the last note


def test_the_ledger_releases_held_notes_then_pedal_then_all_notes_off() -> None:
    ledger = SoundingNotes()
    ledger.note_on("keys", 0, 60)
    ledger.note_on("keys", 0, 60)  # re-struck while held
    ledger.note_on("bass", 1, 36)
    ledger.bent(1, 4000)
    assert ledger.count() == 3
    released = ledger.release(["keys", "bass"], channels=[0, 1])
    assert released == [
        (0x80, 60, 0),
        (0x80, 60, 0),
        (0x81, 36, 0),
        (0xB0, 64, 0),
        (0xB1, 64, 0),
        (0xE1, 0, 64),  # bend back to the centre
        (0xB0, 123, 0),
        (0xB1, 123, 0),
    ]
    assert ledger.count() == 0


def test_the_ledger_refuses_a_note_off_it_never_saw_go_on() -> None:
    ledger = SoundingNotes()
    assert not ledger.note_off("keys", 0, 60)
    ledger.note_on("keys", 0, 60)
    assert ledger.note_off("keys", 0, 60)
    assert not ledger.note_off("keys", 0, 60)


def test_releasing_one_track_leaves_the_others_sounding() -> None:
    ledger = SoundingNotes()
    ledger.note_on("bass", 1, 36)
    ledger.note_on("keys", 0, 60)
    assert ledger.release(["bass"], channels=[]) == [(0x81, 36, 0)]
    assert ledger.count("keys") == 1
