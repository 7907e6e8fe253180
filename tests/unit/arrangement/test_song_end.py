"""Where a song ends: one rule for the file, the player and the studio."""

from __future__ import annotations

from muse_tui.compose.assembly import song_end_beat
from muse_tui.contracts import Region, Track, new_id
from tests.unit.parts.songs import song


def _with_region(start: float, length: float) -> object:
    the_song = song()
    region = Region(id=new_id(), name="late", start_beat=start, length_beats=length)
    track = Track(id=new_id(), name="Keys", role="keys", channel=1, regions=[region])
    return the_song.model_copy(update={"tracks": [track]})


def test_a_song_ends_where_its_arrangement_ends() -> None:
    the_song = song()
    assert the_song.arrangement is not None
    assert song_end_beat(the_song) == the_song.arrangement.total_bars * the_song.beats_per_bar


def test_a_part_past_the_arrangement_carries_the_end_to_its_next_bar_line() -> None:
    the_song = _with_region(start=0, length=1000.5)
    assert song_end_beat(the_song) == 1004.0  # type: ignore[arg-type]


def test_a_held_tail_counts_when_the_caller_knows_it() -> None:
    the_song = song()
    end = the_song.arrangement.total_bars * the_song.beats_per_bar  # type: ignore[union-attr]
    assert song_end_beat(the_song, last_event_beat=end + 0.25) == end + the_song.beats_per_bar
    without = the_song.model_copy(update={"arrangement": None, "tracks": []})
    assert song_end_beat(without) == 0.0
