"""The part writers' contract with the engine: tracks, regions, glides, robustness, speed."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from muse_tui.compose.parts import (
    PART_DEPENDENCIES,
    choose_tracks,
    groove_for,
    summarize_part,
    write_part,
)
from muse_tui.contracts import PipelineIntent, Section, SongState, Track

from .songs import GENRES, intent, song, write_song

ALL_ROLES = [
    "drums",
    "percussion",
    "bass",
    "sub_bass",
    "chords",
    "keys",
    "lead",
    "pad",
    "texture",
    "arp",
]


def test_tracks_get_channels_programs_and_stable_ids() -> None:
    the_intent = intent("trap", roles=ALL_ROLES)  # type: ignore[arg-type]
    tracks = choose_tracks(the_intent, random.Random(4))
    again = choose_tracks(the_intent, random.Random(4))
    assert [t.id for t in tracks] == [t.id for t in again]
    assert [t.role for t in tracks] == ALL_ROLES
    kit = [t for t in tracks if t.role in ("drums", "percussion")]
    others = [t for t in tracks if t not in kit]
    assert all(t.channel == 9 and t.drum_kit is not None for t in kit)
    assert len({t.channel for t in others}) == len(others) and 9 not in {t.channel for t in others}
    assert all(t.program is not None for t in others)
    by_role = {t.role: t for t in tracks}
    assert by_role["bass"].program in (38, 39) and by_role["sub_bass"].program in (38, 39)
    assert by_role["pad"].program == 89


def test_roles_fall_back_from_the_intent_to_the_genre_to_a_band() -> None:
    asked = intent("jazz_ride", roles=["drums", "bass", "keys"])
    asked = asked.model_copy(update={"roles": ["bass", "lead"]})
    assert [t.role for t in choose_tracks(asked, random.Random(0))] == ["bass", "lead"]
    bare = PipelineIntent(genre=["polka"], raw_prompt="a polka")
    roles = [t.role for t in choose_tracks(bare, random.Random(0))]
    assert roles == ["drums", "bass", "chords", "lead"]
    assert PART_DEPENDENCIES["bass"] == ("drums",) and PART_DEPENDENCIES["sub_bass"] == ("drums",)


@pytest.mark.parametrize("family", sorted(GENRES))
def test_regions_are_placed_on_their_section_and_fit_a_midi_file(family: str) -> None:
    the_song = song()
    tracks = write_song(intent(family, roles=ALL_ROLES), the_song, seed=7)  # type: ignore[arg-type]
    assert the_song.arrangement is not None
    for track in tracks:
        for region, section in zip(track.regions, the_song.arrangement.sections, strict=True):
            assert region.start_beat == section.start_bar * 4
            assert region.length_beats == section.bars * 4
            _check_playable(track, region.notes, region.length_beats)
        assert track.notes, f"{family}: {track.name} is silent"


def _check_playable(track: Track, notes: list, length: float) -> None:
    last_end: dict[int, float] = {}
    for note in sorted(notes, key=lambda n: n.start_beat):
        assert note.channel == track.channel
        assert 0 <= note.start_beat < length and note.end_beat <= length + 1e-9
        assert note.duration_beats > 0 and 1 <= note.velocity <= 127
        assert note.start_beat >= last_end.get(note.pitch, 0) - 1e-9, f"{track.name} overlap"
        last_end[note.pitch] = note.end_beat


def test_808_glides_bend_into_the_next_note_and_come_back_to_zero() -> None:
    the_intent = intent("trap", roles=["drums", "sub_bass"])
    tracks = write_song(the_intent, song(), seed=3)
    sub = next(t for t in tracks if t.role == "sub_bass")
    assert sub.name == "808"
    bends = [b for r in sub.regions for b in r.pitch_bends]
    assert bends and any(b.value != 0 for b in bends)
    for region in sub.regions:
        if region.pitch_bends:
            assert region.pitch_bends[-1].value == 0
            ccs = {(c.controller, c.value) for c in region.control_changes}
            assert {(101, 0), (100, 0), (6, 12)} <= ccs  # bend range set to an octave
            starts = {n.start_beat for n in region.notes}
            resets = [b.beat for b in region.pitch_bends if b.value == 0 and b.beat in starts]
            assert resets, "bends do not reset on the next note"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_808_rings_low_and_long(seed: int) -> None:
    tracks = write_song(intent("trap"), song(), seed=seed)
    bass = next(t for t in tracks if t.role == "bass")
    assert all(24 <= n.pitch <= 48 for n in bass.notes)
    for region in bass.regions:
        notes = region.notes
        ringing = sum(n.duration_beats for n in notes)
        assert ringing >= 0.9 * (region.length_beats - notes[0].start_beat)  # legato, no gaps
        assert ringing / len(notes) >= 0.75


def test_walking_bass_walks_in_quarters_into_each_chord() -> None:
    tracks = write_song(intent("jazz_ride"), song(), seed=1)
    verse = next(t for t in tracks if t.role == "bass").regions[1].notes
    assert len(verse) == 32  # four a bar
    leaps = [abs(b.pitch - a.pitch) for a, b in itertools.pairwise(verse)]
    assert max(leaps) <= 9 and sum(leaps) / len(leaps) <= 4


def test_chords_use_the_progression_voicings_in_register() -> None:
    tracks = write_song(intent("trap", chords="sustained"), song(), seed=1)
    chords = next(t for t in tracks if t.role == "chords")
    first_bar = sorted(n.pitch for n in chords.regions[1].notes if n.start_beat < 1)
    assert first_bar == [60, 63, 67]  # Cm as S2 voiced it, already in the keys' register


def test_lead_repeats_its_motif_with_variation() -> None:
    tracks = write_song(intent("trap"), song(), seed=4)
    chorus = next(t for t in tracks if t.role == "lead").regions[2].notes
    bars = [[n for n in chorus if b * 4 <= n.start_beat < b * 4 + 4] for b in range(8)]
    rhythms = [tuple(round(n.start_beat % 4 * 4) for n in bar) for bar in bars if bar]
    assert len(set(rhythms)) < len(rhythms), "no bar's rhythm comes back"
    assert len({tuple(n.pitch for n in bar) for bar in bars if bar}) > 2, "no variation"


def test_parts_are_written_without_a_progression_or_drums() -> None:
    the_song = song(with_progression=False)
    the_intent = intent("four_on_floor", roles=ALL_ROLES)  # type: ignore[arg-type]
    assert the_song.arrangement is not None
    section = the_song.arrangement.sections[1]
    for track in choose_tracks(the_intent, random.Random(0)):
        region = write_part(track, the_song, the_intent, section, random.Random(1), None)
        assert region.notes, track.role


def test_a_song_without_an_arrangement_or_genre_dna_still_gets_parts() -> None:
    bare = PipelineIntent(genre=["house"], raw_prompt="house")
    the_song = SongState(tempo=124, key="A", mode="minor")
    loop = Section(name="Loop", kind="loop", start_bar=0, bars=8, energy=0.6)
    tracks = choose_tracks(bare, random.Random(0))
    drums = write_part(tracks[0], the_song, bare, loop, random.Random(1))
    kicks = [n.start_beat for n in drums.notes if n.pitch == 36]
    assert len(kicks) >= 28  # "house" found the four-on-the-floor family
    for track in tracks[1:]:
        region = write_part(track, the_song, bare, loop, random.Random(1), drums)
        assert region.notes and all(n.pitch % 12 in {9, 11, 0, 2, 4, 5, 7} for n in region.notes)


def test_a_summary_counts_what_was_written() -> None:
    tracks = write_song(intent("boom_bap"), song(), seed=1)
    summary = summarize_part(tracks[0], 4)
    assert summary.note_count == len(tracks[0].notes) and summary.bars == 24
    assert summary.lowest_pitch is not None and summary.highest_pitch is not None
    config, name = groove_for(intent("boom_bap"), 90)
    assert name == "boom_bap_lazy" and config.swing == 58


def test_a_64_bar_song_is_written_quickly() -> None:
    the_song = song()
    assert the_song.arrangement is not None
    sections = [
        s.model_copy(update={"start_bar": i * 16 + s.start_bar % 4, "bars": 16})
        for i, s in enumerate(the_song.arrangement.sections)
    ]
    sections = [s.model_copy(update={"start_bar": i * 16}) for i, s in enumerate(sections)]
    long_song = the_song.model_copy(
        update={"arrangement": the_song.arrangement.model_copy(update={"sections": sections})}
    )
    started = time.perf_counter()
    tracks = write_song(intent("trap"), long_song, seed=1)
    elapsed = time.perf_counter() - started
    assert sum(len(t.notes) for t in tracks) > 500
    assert elapsed < 2.0, f"{elapsed:.2f} s for 64 bars of 4 tracks"
