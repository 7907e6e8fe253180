"""DAW edits on a real C major song: chords placed at a bar, sections inserted, resized, undone.

Every check reads the MIDI files the session folder holds, so what is asserted
is what MPC Beats would load.
"""

from __future__ import annotations

from pathlib import Path

import mido
import pytest
from music21 import converter

from muse_tui.contracts import ComposerPipeline
from muse_tui.engine.editing import modify, undo
from muse_tui.store.smf import midi_file_names, midifile_markers

from .conftest import Session

PPQ = 480
BAR = 4 * PPQ  # ticks in a 4/4 bar
Played = tuple[int, int, int, int, int]  # pitch, start tick, length in ticks, velocity, channel


def notes_in(path: Path) -> list[Played]:
    """Every note of one MIDI file: pitch, start and length in ticks, velocity, in order."""
    midi = mido.MidiFile(path, clip=False)
    assert midi.ticks_per_beat == PPQ
    played: list[Played] = []
    for track in midi.tracks:
        tick, sounding = 0, {}
        for msg in track:
            tick += msg.time
            if msg.type == "note_on" and msg.velocity > 0:
                sounding[(msg.channel, msg.note)] = (tick, msg.velocity)
            elif msg.type in ("note_off", "note_on") and (msg.channel, msg.note) in sounding:
                start, velocity = sounding.pop((msg.channel, msg.note))
                played.append((msg.note, start, tick - start, velocity, msg.channel))
    return sorted(played, key=lambda n: (n[1], n[0]))


def part_files(folder: Path) -> dict[str, list[Played]]:
    return {p.name: notes_in(p) for p in sorted((folder / "midi").glob("*.mid"))}


EARLY = PPQ // 16  # a note played up to a 64th ahead of its bar belongs to that bar


def in_bars(notes: list[Played], first: int, last: int) -> list[Played]:
    """Notes starting in bars first..last (counted from 1)."""
    start, end = (first - 1) * BAR - EARLY, last * BAR - EARLY
    return [n for n in notes if start <= n[1] < end]


def same_notes(after: list[Played], before: list[Played], shift: int = 0) -> bool:
    """The same notes moved by exactly `shift` ticks, pitch, length and velocity unchanged.

    The writer rounds a half tick up whatever float noise it carries, so a note
    moved by whole bars lands exactly that many ticks later.
    """

    def voiced(n: Played) -> tuple[int, int, int]:
        return n[4], n[0], n[1]

    by_pitch = sorted(after, key=voiced), sorted(before, key=voiced)  # jitter reorders chords
    return len(after) == len(before) and all(
        a[0] == b[0] and a[3:] == b[3:] and a[1] - b[1] == shift and a[2] == b[2]
        for a, b in zip(*by_pitch, strict=True)
    )


def outside(notes: list[Played], first: int, last: int) -> list[Played]:
    inside = set(in_bars(notes, first, last))
    return [n for n in notes if n not in inside]


def file_name(pipeline: ComposerPipeline, role: str) -> str:
    track = next(t for t in pipeline.song_state.tracks if t.role == role)
    return Path(midi_file_names(pipeline.song_state.tracks)[track.id]).name


async def test_roman_numerals_at_bar_9_play_on_the_keys_and_the_bass_follows(song: Session) -> None:
    before = part_files(song.folder)
    result = await modify(
        song.pipeline, "add I vi IV to the keys at bar 9", session_dir=song.folder
    )
    assert result.status == "applied", result.summary
    after = part_files(song.folder)
    keys, bass = file_name(result.pipeline, "keys"), file_name(result.pipeline, "bass")

    chords, roots = ({0, 4, 7}, {9, 0, 4}, {5, 9, 0}), (0, 9, 5)  # C, Am, F: roots C, A, F
    for bar, chord, root in zip((9, 10, 11), chords, roots, strict=True):
        keys_bar = in_bars(after[keys], bar, bar)
        assert keys_bar and {n[0] % 12 for n in keys_bar} == chord
        bass_bar = in_bars(after[bass], bar, bar)
        assert bass_bar and bass_bar[0][0] % 12 == root
    for name in before:
        assert outside(after[name], 9, 11) == outside(before[name], 9, 11), name
    assert in_bars(after[keys], 9, 11) != in_bars(before[keys], 9, 11)


async def test_a_bridge_inserted_after_the_intro_shifts_the_rest_by_four_bars(
    song: Session,
) -> None:
    old = song.pipeline.song_state.arrangement
    assert old is not None
    intro_end = old.sections[0].end_bar
    before = part_files(song.folder)
    files_before = song.fingerprints()

    result = await modify(
        song.pipeline, "insert a 4-bar bridge after the intro", session_dir=song.folder
    )
    assert result.status == "applied", result.summary
    new = result.song_state.arrangement
    assert new is not None
    assert [s.kind for s in new.sections] == [
        old.sections[0].kind,
        "bridge",
        *(s.kind for s in old.sections[1:]),
    ]
    assert new.total_bars == old.total_bars + 4
    after = part_files(song.folder)
    shift = 4 * BAR
    for name, notes in before.items():
        early = [n for n in notes if n[1] < intro_end * BAR - EARLY]
        later = [n for n in notes if n[1] >= intro_end * BAR - EARLY]
        assert [n for n in after[name] if n[1] < intro_end * BAR - EARLY] == early, name
        moved = [n for n in after[name] if n[1] >= (intro_end + 4) * BAR - EARLY]
        assert same_notes(moved, later, shift), name
    for old_track, new_track in zip(
        song.pipeline.song_state.tracks, result.song_state.tracks, strict=True
    ):
        later = [r for r in old_track.regions if r.start_beat >= intro_end * 4 and r.notes]
        moved = {r.id: r for r in new_track.regions}
        for region in later:  # in the song itself the move is exact: same notes, 16 beats on
            assert moved[region.id].notes == region.notes
            assert moved[region.id].start_beat == region.start_beat + 16
    bridge = in_bars(after[file_name(result.pipeline, "bass")], intro_end + 1, intro_end + 4)
    assert bridge, "the new bridge has a bass line"
    ids = [r.id for t in result.song_state.tracks for r in t.regions]
    assert len(ids) == len(set(ids))
    markers = midifile_markers(mido.MidiFile(song.folder / "midi/full-arrangement.mid"))
    assert [name for _, name in markers] == [s.name for s in new.sections]
    for path in (song.folder / "midi").glob("*.mid"):
        mido.MidiFile(path, clip=False)
        assert converter.parse(str(path)) is not None

    undone = undo(result.pipeline, session_dir=song.folder)
    assert undone.status == "undone"
    restored = song.fingerprints()
    for path, digest in files_before.items():
        # The state files keep the history (marked undone); the manifest records their sizes.
        if not path.startswith("state/") and path != "manifest.json":
            assert restored[path] == digest, path
    assert undone.song_state.model_copy(update={"history": []}) == (
        song.pipeline.song_state.model_copy(update={"history": []})
    )


@pytest.mark.parametrize(
    ("said", "kind", "change"),
    [
        ("make the intro longer", "intro", 4),
        ("make the bridge shorter", "bridge", -4),
        ("shorter outro", "outro", -2),  # a 4-bar outro loses half: 4 would leave nothing
    ],
)
async def test_longer_and_shorter_sections_move_the_rest_exactly(
    song: Session, said: str, kind: str, change: int
) -> None:
    old = song.pipeline.song_state.arrangement
    assert old is not None
    index = next(i for i, s in enumerate(old.sections) if s.kind == kind)
    section = old.sections[index]
    before = part_files(song.folder)

    result = await modify(song.pipeline, said, session_dir=song.folder)
    assert result.status == "applied", result.summary
    new = result.song_state.arrangement
    assert new is not None
    assert new.sections[index].bars - section.bars == change
    assert new.total_bars == old.total_bars + change
    after = part_files(song.folder)
    end = section.end_bar * BAR - EARLY
    kept_end = min(section.end_bar, section.end_bar + change) * BAR - EARLY
    start = section.start_bar * BAR - EARLY
    for name, notes in before.items():
        later = [n for n in notes if n[1] >= end]
        assert same_notes(
            [n for n in after[name] if n[1] >= end + change * BAR], later, change * BAR
        )
        assert [n for n in after[name] if n[1] < start] == [n for n in notes if n[1] < start]
        kept = [n for n in notes if start <= n[1] < kept_end]
        assert [n[:2] for n in after[name] if start <= n[1] < kept_end] == [n[:2] for n in kept]
