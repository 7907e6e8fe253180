"""Ordinary edits on a track named by its number ("track 2 louder"), as a DAW's track list
numbers them (issue 16, entities): that track alone changes, and a number the song does
not have gets one sentence listing the tracks it has."""

from __future__ import annotations

from muse_tui.compose.requests import parse_request
from muse_tui.engine.editing import modify

from .conftest import Session


def test_a_track_number_is_read_into_the_scope() -> None:
    (edit,) = parse_request("track 2 louder").edits
    assert (edit.operation, edit.scope.track, edit.scope.role) == ("volume_up", 2, None)
    (muted,) = parse_request("mute track 3 in the chorus").edits
    assert (muted.scope.track, muted.scope.section) == (3, "chorus")
    assert parse_request("bass louder").edits[0].scope.track is None


async def test_track_two_louder_turns_up_only_track_two(session: Session) -> None:
    before = session.pipeline.song_state.tracks  # type: ignore[union-attr]
    result = await modify(session.pipeline, "track 2 louder")
    after = result.song_state.tracks
    assert result.status == "applied", result.summary
    assert after[1].volume > before[1].volume
    assert [t.volume for i, t in enumerate(after) if i != 1] == [
        t.volume for i, t in enumerate(before) if i != 1
    ]
    assert [t.notes for t in after] == [t.notes for t in before]


async def test_mute_track_three_mutes_only_track_three(session: Session) -> None:
    result = await modify(session.pipeline, "mute track 3")
    assert [t.mute for t in result.song_state.tracks] == [
        i == 2 for i in range(len(result.song_state.tracks))
    ]


async def test_a_track_number_the_song_lacks_is_one_sentence_with_its_tracks(
    session: Session,
) -> None:
    tracks = session.pipeline.song_state.tracks  # type: ignore[union-attr]
    result = await modify(session.pipeline, "track 9 quieter")
    assert result.status == "no_change"
    assert result.summary.startswith(f"there is no track 9; the song has {len(tracks)} (1 ")
    assert result.song_state.history == []
