"""Issue 14 in the written MIDI: section lengths, repeats that develop, builds, crashes, fills."""

from __future__ import annotations

import re

import pytest

from bench.listening.heard import HeardSection, HeardSong
from bench.listening.metrics import CRASHES, section_notes, step

from .conftest import PROMPTS

CRASH_GENRES = ("trap", "edm", "rock", "dnb", "pop", "house")
NO_CRASH_GENRES = ("jazz", "ambient")
BUILD_GENRES = ("edm", "dnb")
#: How early a humanised hit may land and still belong to the next bar, in beats.
EARLY = 0.05


def heard(song: HeardSong, section: HeardSection) -> set[tuple[str, int, int]]:
    """Every (track, 16th step, pitch) of a section, onsets relative to its first beat."""
    return {
        (track.name, step(note.start), note.pitch)
        for track in song.tracks
        for note in section_notes(track.notes, section, song.beats_per_bar)
    }


def drum_onsets(song: HeardSong, begin_bar: int, bars: int = 1) -> list[float]:
    """Drum onsets in the bars, a humanised hit a hair early counted in the bar it belongs to."""
    lo = begin_bar * song.beats_per_bar - EARLY
    hi = lo + bars * song.beats_per_bar
    return [n.start for n in song.drums if lo <= n.start < hi]


@pytest.mark.parametrize("name", PROMPTS)
def test_every_section_is_a_multiple_of_four_bars_and_at_most_sixteen(songs, name) -> None:
    lengths = {s.name: s.bars for s in songs[name].sections}
    # But a jazz head or solo chorus: the whole 32-bar form.
    chorus = re.compile(r"^(?:Head|Solo)\b") if name == "jazz" else None

    assert all(
        bars % 4 == 0 and 4 <= bars <= (32 if chorus and chorus.match(n) else 16)
        for n, bars in lengths.items()
    ), lengths


@pytest.mark.parametrize("name", PROMPTS)
def test_no_repeated_section_is_a_copy_of_its_first_time(songs, name) -> None:
    song = songs[name]
    first: dict[str, HeardSection] = {}
    repeats = 0
    for section in song.sections:
        if section.base in first:
            repeats += 1
            assert heard(song, section) != heard(song, first[section.base]), section.name
        else:
            first[section.base] = section

    if name in ("trap", "pop", "rock"):
        assert repeats >= 2


@pytest.mark.parametrize("name", BUILD_GENRES)
def test_a_build_ends_with_at_least_half_again_the_drum_hits_it_starts_with(songs, name) -> None:
    song = songs[name]
    builds = [s for s in song.sections if s.base.startswith("build")]

    assert builds
    for build in builds:
        first = len(drum_onsets(song, build.start_bar))
        last = len(drum_onsets(song, build.start_bar + build.bars - 1))
        assert first and last >= 1.5 * first, (build.name, first, last)


def test_the_build_roll_accelerates_bar_by_bar(songs) -> None:
    song = songs["edm"]
    build = next(s for s in song.sections if s.base.startswith("build"))
    per_bar = [len(drum_onsets(song, build.start_bar + bar)) for bar in range(build.bars)]

    assert per_bar == sorted(per_bar)
    assert per_bar[-1] >= 4 * per_bar[0]


def crash_share(song: HeardSong) -> tuple[int, int]:
    """(section starts after the first with a crash on the downbeat, starts where drums play)."""
    hits = starts = 0
    for section in song.sections[1:]:
        downbeat = section.start_bar * song.beats_per_bar
        bar = [n for n in song.drums if downbeat <= n.start < downbeat + song.beats_per_bar]
        if not bar:
            continue
        starts += 1
        hits += any(n.pitch in CRASHES and abs(n.start - downbeat) <= 0.125 for n in bar)
    return hits, starts


@pytest.mark.parametrize("name", CRASH_GENRES)
def test_crash_genres_mark_at_least_half_their_section_starts(songs, name) -> None:
    hits, starts = crash_share(songs[name])

    assert starts and hits >= starts / 2, (hits, starts)


@pytest.mark.parametrize("name", NO_CRASH_GENRES)
def test_a_jazz_ballad_and_ambient_never_crash(songs, name) -> None:
    assert not any(n.pitch in CRASHES for n in songs[name].drums)


@pytest.mark.parametrize("name", ["trap", "rock", "pop", "dnb"])
def test_sections_that_lead_on_end_on_a_fill(songs, name) -> None:
    """The last beat before a new section is not the groove's first-bar beat again."""
    song = songs[name]
    bpb = song.beats_per_bar
    filled = played = 0
    for section, following in zip(song.sections, song.sections[1:], strict=False):
        if section.base.startswith("build"):
            continue
        first_bar = {
            (step(n.start - section.start_bar * bpb), n.pitch)
            for n in song.drums
            if 0 <= n.start - section.start_bar * bpb < bpb
        }
        last_beat_at = following.start_bar * bpb - 1
        last_beat = {
            (step(n.start - last_beat_at + bpb - 1), n.pitch)
            for n in song.drums
            if last_beat_at <= n.start < following.start_bar * bpb
        }
        if not first_bar:
            continue
        played += 1
        same_beat = {(s, p) for s, p in first_bar if s >= step(bpb - 1)}
        filled += last_beat != same_beat
    assert played and filled >= played * 0.75, (filled, played)


def test_rock_fills_phrase_ends_inside_its_sections_with_toms_or_snare_runs(songs) -> None:
    song = songs["rock"]
    bpb = song.beats_per_bar
    toms_or_snare = {38, 40, 41, 43, 45, 47, 48, 50}
    phrase_ends = [
        s.start_bar + bar for s in song.sections for bar in range(3, s.bars - 1, 4) if s.bars >= 8
    ]
    filled = 0
    for bar in phrase_ends:
        last_half = [
            n
            for n in song.drums
            if (bar + 1) * bpb - 2 <= n.start < (bar + 1) * bpb and n.pitch in toms_or_snare
        ]
        filled += len(last_half) >= 3
    assert phrase_ends and filled >= len(phrase_ends) / 3, (filled, len(phrase_ends))
