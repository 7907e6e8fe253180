"""What a producer hears: in key, chord tones on the beat, bass on the kick, a build-up."""

from __future__ import annotations

import re
import statistics
from functools import cache

import pytest
from music21 import harmony

from muse_tui.compose.arrangement import chords_for_section
from muse_tui.contracts import SongState, Track

from .songs import C_MINOR_SCALE, GENRES, KICK, intent, song, write_song

SEEDS = (1, 2, 3)
KICK_LOCKED = {"syncopated", "sub_808"}


@cache
def written(family: str, seed: int, harmonic: float = 0.0) -> tuple[SongState, list[Track]]:
    the_song = song(tempo=120)
    return the_song, write_song(intent(family, harmonic=harmonic), the_song, seed)


@cache
def music21_tones(symbol: str) -> frozenset[int]:
    """Chord tones by music21, an independent reading of the symbol (it spells flats '-')."""
    spelled = re.sub(r"(^|/)([A-G])b", r"\1\2-", symbol)
    return frozenset(harmony.ChordSymbol(spelled).pitchClasses)


def chord_tones_at(the_song: SongState, beat: float) -> frozenset[int]:
    assert the_song.arrangement is not None and the_song.progression is not None
    for section in the_song.arrangement.sections:
        for placed in chords_for_section(section, the_song.progression):
            if placed.start_beat - 1e-6 <= beat < placed.end_beat - 1e-6:
                return music21_tones(placed.chord.symbol)
    raise AssertionError(f"no chord at beat {beat}")


def on_strong_beat(beat: float) -> bool:
    """Beats 1 and 3 of a 4/4 bar, allowing for the few milliseconds of human timing."""
    inside = beat % 4
    return min(inside, abs(inside - 2), 4 - inside) < 0.1


def pitched(tracks: list[Track]) -> list[Track]:
    return [t for t in tracks if t.channel != 9]


EVERY_PITCHED_ROLE = ["bass", "sub_bass", "chords", "keys", "lead", "pad", "texture", "arp"]


@pytest.mark.parametrize("family", sorted(GENRES))
def test_with_the_harmonic_dial_at_zero_every_pitched_note_is_in_the_key(family: str) -> None:
    for seed in SEEDS:
        _, tracks = written(family, seed)
        everyone = intent(family, roles=["drums", *EVERY_PITCHED_ROLE])  # type: ignore[list-item]
        tracks = [*tracks, *write_song(everyone, song(), seed)]
        notes = [n for t in pitched(tracks) for n in t.notes]
        outside = [n for n in notes if n.pitch % 12 not in C_MINOR_SCALE]
        assert notes and not outside, f"{family} seed {seed}: {len(outside)} notes out of C minor"


def test_as_the_harmonic_dial_rises_the_lead_colours_outside_the_key() -> None:
    outside = 0
    for family in ("lofi_swung", "jazz_ride", "boom_bap"):
        _, tracks = written(family, 1, harmonic=0.9)
        lead = next(t for t in tracks if t.role == "lead")
        outside += sum(n.pitch % 12 not in C_MINOR_SCALE for n in lead.notes)
    assert outside > 0


@pytest.mark.parametrize("family", sorted(GENRES))
@pytest.mark.parametrize("role", ["bass", "lead"])
def test_bass_and_lead_play_chord_tones_on_the_strong_beats(family: str, role: str) -> None:
    hits = total = 0
    for seed in SEEDS:
        the_song, tracks = written(family, seed, harmonic=0.3)
        track = next(t for t in tracks if t.role == role)
        for note in track.notes:
            if on_strong_beat(note.start_beat):
                total += 1
                grid = round(note.start_beat * 4) / 4
                hits += note.pitch % 12 in chord_tones_at(the_song, grid)
    assert total > 20
    assert hits / total >= 0.8, f"{family} {role}: {hits}/{total} chord tones on beats 1 and 3"


@pytest.mark.parametrize(
    "family", sorted(f for f, (bass, _, _) in GENRES.items() if bass in KICK_LOCKED)
)
def test_kick_locked_bass_lands_on_the_kick(family: str) -> None:
    locked = total = 0
    for seed in SEEDS:
        _, tracks = written(family, seed)
        drums = next(t for t in tracks if t.role == "drums")
        bass = next(t for t in tracks if t.role == "bass")
        kicks = [n.start_beat for n in drums.notes if n.pitch == KICK]
        for note in bass.notes:
            total += 1
            locked += any(abs(note.start_beat - k) <= 0.25 for k in kicks)
    assert locked / total >= 0.7, f"{family}: only {locked}/{total} bass notes on a kick"


@pytest.mark.parametrize("family", sorted(GENRES))
def test_the_intro_is_sparser_and_softer_than_the_chorus(family: str) -> None:
    _, tracks = written(family, 1)
    for track in tracks:
        intro, chorus = track.regions[0], track.regions[2]
        intro_density = len(intro.notes) / 4
        chorus_density = len(chorus.notes) / 8
        assert intro_density < chorus_density, f"{family} {track.name}: notes a bar"
        intro_velocity = statistics.mean(n.velocity for n in intro.notes)
        chorus_velocity = statistics.mean(n.velocity for n in chorus.notes)
        assert intro_velocity < chorus_velocity, f"{family} {track.name}: mean velocity"


@pytest.mark.parametrize("family", ["trap", "jazz_ride", "four_on_floor", "lofi_swung"])
def test_the_same_seed_gives_the_same_parts_and_another_seed_different_ones(family: str) -> None:
    the_song = song()
    first = write_song(intent(family), the_song, seed=5)
    again = write_song(intent(family), the_song, seed=5)
    other = write_song(intent(family), the_song, seed=6)
    assert [t.model_dump() for t in first] == [t.model_dump() for t in again]
    for a, b in zip(first, other, strict=True):
        assert [n.model_dump() for n in a.notes] != [n.model_dump() for n in b.notes], a.name


@pytest.mark.parametrize("family", sorted(GENRES))
def test_parts_stay_in_their_register(family: str) -> None:
    ranges = {"bass": (28, 55), "lead": (52, 84), "chords": (48, 79)}
    _, tracks = written(family, 2)
    for track in tracks:
        low, high = (24, 48) if track.name == "808" else ranges.get(track.role, (0, 127))
        pitches = [n.pitch for n in track.notes]
        assert low <= min(pitches) and max(pitches) <= high, f"{family} {track.name}"
