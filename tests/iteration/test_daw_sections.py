"""Removing, moving and repeating sections of a real song: the notes travel with their section."""

from __future__ import annotations

import pytest

from muse_tui.engine.editing import modify, undo

from .conftest import Session
from .test_daw_edits import BAR, EARLY, Played, part_files, same_notes


def bars_of(notes: list[Played], start_bar: int, bars: int) -> list[Played]:
    start = start_bar * BAR - EARLY
    return [n for n in notes if start <= n[1] < start + bars * BAR]


@pytest.mark.parametrize(
    ("said", "kind", "to_index"),
    [
        ("move the bridge before the second chorus", "bridge", 6),
        ("repeat the bridge", "bridge", 8),
    ],
)
async def test_a_moved_or_repeated_section_carries_its_notes(
    song: Session, said: str, kind: str, to_index: int
) -> None:
    old = song.pipeline.song_state.arrangement
    assert old is not None
    section = next(s for s in old.sections if s.kind == kind)
    before = part_files(song.folder)
    files_before = song.fingerprints()

    result = await modify(song.pipeline, said, session_dir=song.folder)
    assert result.status == "applied", result.summary
    new = result.song_state.arrangement
    assert new is not None
    placed = new.sections[to_index]
    assert (placed.kind, placed.bars) == (kind, section.bars)
    after = part_files(song.folder)
    for name, notes in before.items():
        if name == "full-arrangement.mid":
            continue  # its transition ramps and fades are laid again for the new form
        carried = bars_of(notes, section.start_bar, section.bars)
        shift = (placed.start_bar - section.start_bar) * BAR
        assert same_notes(bars_of(after[name], placed.start_bar, placed.bars), carried, shift), name
    arrangement_map = (song.folder / "notes/arrangement-map.md").read_text()
    assert f"| {to_index + 1} | {placed.name} | {placed.start_bar + 1}–{placed.end_bar} |" in (
        arrangement_map
    )

    assert undo(result.pipeline, session_dir=song.folder).status == "undone"
    restored = song.fingerprints()
    assert {p: d for p, d in restored.items() if p.startswith(("midi/", "notes/"))} == {
        p: d for p, d in files_before.items() if p.startswith(("midi/", "notes/"))
    }


async def test_cutting_the_outro_ends_the_song_at_the_last_chorus(song: Session) -> None:
    old = song.pipeline.song_state.arrangement
    assert old is not None
    before = part_files(song.folder)
    result = await modify(song.pipeline, "cut the outro", session_dir=song.folder)
    assert result.status == "applied", result.summary
    new = result.song_state.arrangement
    assert new is not None
    assert [s.name for s in new.sections] == [s.name for s in old.sections[:-1]]
    end = new.total_bars * BAR - EARLY
    after = part_files(song.folder)
    for name, notes in before.items():
        assert all(n[1] < end for n in after[name]), name
        if name != "full-arrangement.mid":
            assert after[name] == [n for n in notes if n[1] < end], name
