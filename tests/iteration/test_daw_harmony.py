"""Chords placed in a section, on one track only, and the questions a DAW request can raise."""

from __future__ import annotations

import json

from muse_tui.engine.editing import modify, undo

from .conftest import Session
from .test_daw_edits import file_name, in_bars, outside, part_files


async def test_chords_in_the_bridge_loop_over_it_and_get_their_own_progression_file(
    song: Session,
) -> None:
    arrangement = song.pipeline.song_state.arrangement
    assert arrangement is not None
    bridge = next(s for s in arrangement.sections if s.kind == "bridge")
    first, last = bridge.start_bar + 1, bridge.end_bar
    before = part_files(song.folder)

    result = await modify(song.pipeline, "Gmaj/E Am7 D7 in the bridge", session_dir=song.folder)
    assert result.status == "applied", result.summary
    after = part_files(song.folder)
    chords = file_name(result.pipeline, "chords")
    wanted = [{7, 11, 2, 4}, {9, 0, 4, 7}, {2, 6, 9, 0}]  # G/E is G with E below: E G B D
    for bar in range(first, last + 1):
        played = {n[0] % 12 for n in in_bars(after[chords], bar, bar)}
        assert played and played <= wanted[(bar - first) % 3], bar
    bass = in_bars(after[file_name(result.pipeline, "bass")], first, first)
    assert bass and bass[0][0] % 12 == 4  # the slash chord's E
    for name in before:
        assert outside(after[name], first, last) == outside(before[name], first, last), name

    own = json.loads((song.folder / "progression/section-bridge.progression").read_text())
    assert [c["name"] for c in own["progression"]["chords"]] == ["G/E", "Am7", "D7"]
    assert undo(result.pipeline, session_dir=song.folder).status == "undone"
    assert not (song.folder / "progression/section-bridge.progression").exists()


async def test_a_part_written_again_later_follows_the_sections_own_chords(song: Session) -> None:
    """The bridge keeps the chords placed in it: a later 'bass simpler' writes the bass
    again from the section's own progression, not the song's."""
    arrangement = song.pipeline.song_state.arrangement
    assert arrangement is not None
    bridge = next(s for s in arrangement.sections if s.kind == "bridge")
    first, last = bridge.start_bar + 1, bridge.end_bar
    placed = await modify(song.pipeline, "Gmaj/E Am7 D7 in the bridge", session_dir=song.folder)
    assert placed.status == "applied", placed.summary

    simpler = await modify(placed.pipeline, "make the bass simpler", session_dir=song.folder)
    assert simpler.status == "applied", simpler.summary
    assert "bass" in simpler.regenerated_components
    bass = part_files(song.folder)[file_name(simpler.pipeline, "bass")]
    wanted = [{7, 11, 2, 4}, {9, 0, 4, 7}, {2, 6, 9, 0}]
    for bar in range(first, last + 1):
        played = {n[0] % 12 for n in in_bars(bass, bar, bar)}
        assert played and played <= wanted[(bar - first) % 3], (bar, played)


async def test_only_the_keys_leaves_the_band_alone(song: Session) -> None:
    before = part_files(song.folder)
    result = await modify(
        song.pipeline, "add ii V I only to the keys at bar 5", session_dir=song.folder
    )
    assert result.status == "applied", result.summary
    after = part_files(song.folder)
    keys = file_name(result.pipeline, "keys")
    assert [{n[0] % 12 for n in in_bars(after[keys], b, b)} for b in (5, 6, 7)] == [
        {2, 5, 9},
        {7, 11, 2},
        {0, 4, 7},
    ]
    for role in ("bass", "chords", "drums"):
        name = file_name(result.pipeline, role)
        assert after[name] == before[name], role


async def test_two_tracks_answering_to_a_word_are_asked_about(song: Session) -> None:
    result = await modify(song.pipeline, "add Am F C G to the piano at bar 5")
    assert result.status == "no_change"
    assert result.summary == "Which piano: track 3 (Piano, chords) or track 4 (Piano, keys)?"


async def test_a_section_the_song_lacks_is_answered_with_the_sections_it_has(
    song: Session,
) -> None:
    result = await modify(song.pipeline, "insert a 4-bar bridge after the solo")
    assert result.status == "no_change"
    assert result.summary.startswith("There is no solo in this song; it has Intro (bars 1–4), ")
    assert result.summary.endswith(" and Outro (bars 61–64).")


async def test_track_numbers_name_tracks(song: Session) -> None:
    result = await modify(song.pipeline, "put vi IV only on track 4 at bar 9")
    assert result.status == "applied", result.summary
    keys = result.song_state.tracks[3]
    for bar, chord in ((9, {9, 0, 4}), (10, {5, 9, 0})):  # vi then IV, a bar each
        start = (bar - 1) * 4 - 0.1
        played = {n.pitch % 12 for n in keys.notes if start <= n.start_beat < start + 4}
        assert played == chord, bar
