"""The parts of one song share each section's harmony; another song gets its own."""

from __future__ import annotations

from muse_tui.compose.parts.harmony import SectionHarmony, section_harmony
from tests.io.songs import build_song, three_sections


def test_the_parts_of_a_section_share_one_harmony_equal_to_a_fresh_one() -> None:
    song = build_song(arrangement=three_sections())
    assert song.arrangement is not None
    first, second = song.arrangement.sections[:2]
    shared = section_harmony(song, first, 0.5)
    assert section_harmony(song, first, 0.5) is shared
    assert section_harmony(song, second, 0.5) is not shared
    assert section_harmony(song, first, 0.0) is not shared  # another dial, another scale rule
    fresh = SectionHarmony(song, first, 0.5)
    assert shared.chords == fresh.chords and shared.scale == fresh.scale


def test_another_song_with_the_same_sections_gets_its_own() -> None:
    song = build_song(arrangement=three_sections())
    assert song.arrangement is not None
    section = song.arrangement.sections[0]
    before = section_harmony(song, section, 0.5)
    edited = song.model_copy(update={"tempo": 99.0})  # an edit makes a new song, never in place
    after = section_harmony(edited, section, 0.5)
    assert after is not before
    assert section_harmony(edited, section, 0.5) is after
