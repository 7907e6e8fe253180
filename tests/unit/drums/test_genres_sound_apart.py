"""Unrelated genres do not share a groove: their drum bars overlap by less than 0.7 (issue 13).

The overlap is the Jaccard index of the kick, backbeat (snare, clap, rim) and time-keeping
cymbal (hats, ride) onsets of two bars, as `bench/listen.py` measures it. Genres of one family
of `bench/prompts/listening.json` (boom bap and lo-fi, house and deep house...) may share.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from muse_tui.knowledge.genres import genre_table
from muse_tui.knowledge.rhythm import DrumPattern, rhythm_table
from muse_tui.theory.drums import VOICE_PITCHES

from .kit_songs import BACKBEAT, HATS, KICK, RIDE, drum_take

#: Genres that may share drum bars: one family each, as in bench/prompts/listening.json.
RELATED = {
    "boom_bap": "hip_hop", "hip_hop": "hip_hop", "lo_fi": "hip_hop", "dilla": "hip_hop",
    "trip_hop": "hip_hop",
    "trap": "trap", "drill": "trap", "phonk": "trap",
    "rnb": "soul",
    "house": "house", "deep_house": "house", "chicago_house": "house", "afro_house": "house",
    "techno": "techno",
    "edm": "edm", "future_bass": "edm",
    "uk_garage": "garage",
    "jersey_club": "club",
    "dubstep": "bass_music",
    "dnb": "dnb", "jungle": "dnb",
    "synthwave": "synth",
    "pop": "pop", "k_pop": "pop",
}  # fmt: skip
UNRELATED = [
    (a, b) for a, b in itertools.combinations(sorted(RELATED), 2) if RELATED[a] != RELATED[b]
]
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
    return len(a & b) / len(a | b)


def pattern_bars(pattern: DrumPattern) -> list[Bar]:
    bars: list[set[tuple[str, int]]] = [set() for _ in range(pattern.steps // 16)]
    for voice, grid in pattern.voices.items():
        heard = heard_as(VOICE_PITCHES[voice])
        for step, letter in enumerate(grid):
            if heard and letter != ".":
                bars[step // 16].add((heard, step % 16))
    return [frozenset(b) for b in bars]


def grooves(genre: str) -> list[Bar]:
    """Every bar the genre's family can groove on in a verse or a chorus."""
    family = rhythm_table().drums.families[genre_table().genres[genre].drum_family]
    return [b for p in [*family.patterns.base, *family.patterns.busy] for b in pattern_bars(p)]


def song_bar(genre: str, seed: int) -> Bar:
    """The song's most played bar, read back from its drum MIDI."""
    take = drum_take(genre, seed)
    bars: dict[int, set[tuple[str, int]]] = {}
    for hit in take.hits:
        heard = heard_as(hit.pitch)
        if heard:
            bars.setdefault(round(hit.beat * 4) // 16, set()).add((heard, hit.step))
    return Counter(frozenset(b) for b in bars.values()).most_common(1)[0][0]


@pytest.mark.parametrize(("a", "b"), UNRELATED)
def test_no_groove_of_one_genre_is_near_a_groove_of_an_unrelated_one(a: str, b: str) -> None:
    worst = max(jaccard(x, y) for x in grooves(a) for y in grooves(b))
    assert worst < 0.7


def test_the_songs_main_bars_stay_apart_across_unrelated_genres() -> None:
    close = [
        (a, b, round(j, 2))
        for a, b in UNRELATED
        if (j := jaccard(song_bar(a, 1), song_bar(b, 1))) >= 0.7
    ]
    assert not close


@pytest.mark.parametrize("genre", ["trap", "deep_house", "house", "boom_bap", "dnb", "techno"])
def test_eight_seeds_give_at_least_three_grooves(genre: str) -> None:
    assert len({song_bar(genre, seed) for seed in range(1, 9)}) >= 3
