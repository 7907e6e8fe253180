"""Unrelated genres do not share a groove: their drum bars overlap by less than 0.7 (issue 13).

The overlap is the Jaccard index of the kick, backbeat (snare, clap, rim) and time-keeping
cymbal (hats, ride) onsets of two bars, as `bench/listen.py` measures it. Genres of one family
of `bench/prompts/listening.json` (boom bap and lo-fi, house and deep house...) may share.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from muse_tui.compose.humanize import swing_position
from muse_tui.knowledge.genres import genre_table
from muse_tui.knowledge.rhythm import DrumPattern, SwingUnit, rhythm_table
from muse_tui.theory.drums import VOICE_PITCHES

from .kit_songs import BACKBEAT, HATS, KICK, RIDE, drum_take

#: Each genre's families in bench/prompts/listening.json: genres sharing one may share drum bars
#: (boom bap and lo-fi, house and deep house). A genre accepted for two prompts has two (pop is
#: also what a ballad prompt may get; folk also answers a country one).
FAMILIES: dict[str, frozenset[str]] = {
    genre: frozenset(families.split())
    for genre, families in {
        "boom_bap": "hip_hop", "hip_hop": "hip_hop", "lo_fi": "hip_hop", "dilla": "hip_hop",
        "trip_hop": "hip_hop",
        "trap": "trap", "drill": "trap", "phonk": "trap",
        "rnb": "soul", "soul": "soul", "gospel": "soul", "neo_soul": "soul",
        "house": "house", "deep_house": "house", "chicago_house": "house", "afro_house": "house",
        "amapiano": "house", "tropical_house": "house",
        "techno": "techno",
        "edm": "edm", "future_bass": "edm",
        "uk_garage": "garage",
        "jersey_club": "club",
        "dubstep": "bass_music",
        "dnb": "dnb", "jungle": "dnb",
        # Synthwave's drums are the 1980s rock backbeat on a drum machine (LinnDrum, DMX):
        # the same bar on paper as a rock verse, told apart by the sound of the kit.
        "synthwave": "synth rock",
        "pop": "pop ballad", "k_pop": "pop", "city_pop": "pop", "ballad": "ballad",
        "disco": "disco", "funk": "funk", "blues": "blues",
        "rock": "rock", "metal": "rock",
        "folk": "folk country", "indie": "folk", "country": "country",
        "jazz": "jazz", "jazz_fusion": "jazz",
        "bossa_nova": "latin", "latin": "latin",
        "reggaeton": "latin_urban", "dembow": "latin_urban",
        "dancehall": "caribbean", "reggae": "caribbean",
        "afrobeats": "afro", "indian_fusion": "world", "cinematic": "cinematic",
        # Ska is reggae's elder; chiptune is a pop or rock backbeat on the NES noise channel,
        # told apart by its sound (as synthwave's drum machine is); the bodhran plays toms.
        "ska": "caribbean rock", "chiptune": "synth rock pop", "irish_folk": "folk",
    }.items()
}  # fmt: skip


def unrelated(genres: list[str]) -> list[tuple[str, str]]:
    """Every pair of the genres that shares no family."""
    return [(a, b) for a, b in itertools.combinations(genres, 2) if not FAMILIES[a] & FAMILIES[b]]


#: Genres none of whose verse or chorus grooves is near one of an unrelated genre's. The
#: others still collide somewhere in their pattern lists (a rock 8th-hat beat and a synthwave
#: one are the same bar on paper); for them the songs' main bars are kept apart below.
EVERY_GROOVE_APART = [
    "boom_bap", "hip_hop", "lo_fi", "dilla", "trip_hop", "trap", "drill", "phonk", "rnb",
    "house", "deep_house", "chicago_house", "afro_house", "techno", "edm", "future_bass",
    "uk_garage", "jersey_club", "dubstep", "dnb", "jungle", "synthwave", "pop", "k_pop",
    "disco", "tropical_house", "ballad", "blues", "indian_fusion",
]  # fmt: skip
Bar = frozenset[tuple[str, int]]


def heard_as(pitch: int) -> str | None:
    if pitch in KICK:
        return "kick"
    if pitch in BACKBEAT:
        return "snare"
    if pitch in HATS | RIDE:
        return "hat"
    return None


def jaccard(a: Bar, b: Bar) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def pattern_bars(pattern: DrumPattern) -> list[Bar]:
    bars: list[set[tuple[str, int]]] = [set() for _ in range(pattern.steps // 16)]
    for voice, grid in pattern.voices.items():
        heard = heard_as(VOICE_PITCHES[voice])
        for step, letter in enumerate(grid):
            if heard and letter != ".":
                bars[step // 16].add((heard, step % 16))
    return [frozenset(b) for b in bars]


def grooves(genre: str) -> list[Bar]:
    """Every bar the genre's family can groove on in a verse or a chorus, as swung when heard."""
    dna = genre_table().genres[genre]
    family = rhythm_table().drums.families[dna.drum_family]
    patterns = [*family.patterns.base, *family.patterns.busy]
    return [swung(b, dna.swing, family.swing_unit) for p in patterns for b in pattern_bars(p)]


def swung(bar: Bar, swing: float, unit: SwingUnit) -> Bar:
    """The 16th each hit is heard nearest once swing moves it (a blues shuffle's & is late)."""
    return frozenset(
        (voice, round(swing_position(step / 4, swing, unit) * 4) % 16) for voice, step in bar
    )


def song_bar(genre: str, seed: int) -> Bar:
    """The song's most played groove bar (verse and chorus), read back from its drum MIDI.

    The intro and outro are left out: thinned to a kick and a hat, they are as short here
    as the grooves, where in a whole song the verses and choruses outnumber them.
    """
    take = drum_take(genre, seed)
    bars: dict[int, set[tuple[str, int]]] = {}
    for hit in [*take.section("Verse"), *take.section("Chorus")]:
        heard = heard_as(hit.pitch)
        if heard:
            bars.setdefault(round(hit.beat * 4) // 16, set()).add((heard, hit.step))
    if not bars:  # a kit of toms alone (the bodhran) keeps no kick, backbeat or time
        return frozenset()
    return Counter(frozenset(b) for b in bars.values()).most_common(1)[0][0]


@pytest.mark.parametrize(("a", "b"), unrelated(EVERY_GROOVE_APART))
def test_no_groove_of_one_genre_is_near_a_groove_of_an_unrelated_one(a: str, b: str) -> None:
    worst = max(jaccard(x, y) for x in grooves(a) for y in grooves(b))
    assert worst < 0.7


def test_every_genre_with_drums_is_in_a_family() -> None:
    drummed = {g for g, dna in genre_table().genres.items() if dna.drum_family != "none"}
    assert drummed == set(FAMILIES)


def test_the_songs_main_bars_stay_apart_across_unrelated_genres() -> None:
    close = [
        (a, b, round(j, 2))
        for a, b in unrelated(sorted(FAMILIES))
        if (j := jaccard(song_bar(a, 1), song_bar(b, 1))) >= 0.7
    ]
    assert not close


@pytest.mark.parametrize("genre", ["trap", "deep_house", "house", "boom_bap", "dnb", "techno"])
def test_eight_seeds_give_at_least_three_grooves(genre: str) -> None:
    assert len({song_bar(genre, seed) for seed in range(1, 9)}) >= 3
