"""Each hip-hop, trap and club genre plays its own idiom, heard in the drum MIDI it writes."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .kit_songs import (
    BACKBEAT,
    CLAP,
    COWBELL,
    HATS,
    KICK,
    OPEN_HAT,
    RIDE,
    SNARE,
    TOMS_AND_CONGAS,
    DrumTake,
)
from .kit_songs import drum_take as take

FOUR = frozenset({0, 4, 8, 12})
TWO_AND_FOUR = frozenset({4, 12})
OFFBEATS = frozenset({2, 6, 10, 14})
Idiom = Callable[[DrumTake], None]


def half_time_backbeat(t: DrumTake, section: str = "Verse") -> None:
    """The snare or clap on beat 3 of the bar and not on 2 or 4."""
    backbeat = t.steps(section, BACKBEAT)
    assert 8 in backbeat and not backbeat & TWO_AND_FOUR, sorted(backbeat)


def four_on_the_floor(t: DrumTake, section: str = "Verse") -> None:
    assert t.steps(section, KICK) >= FOUR, sorted(t.steps(section, KICK))


def backbeat_on_two_and_four(t: DrumTake, section: str = "Verse") -> None:
    assert t.steps(section, BACKBEAT) >= TWO_AND_FOUR, sorted(t.steps(section, BACKBEAT))


def hat_roll(t: DrumTake) -> bool:
    """Three hats inside one 16th somewhere: a 1/32 triplet or faster roll."""
    hats = [h.beat for h in t.hits if h.pitch in HATS]
    return any(hats[i + 2] - hats[i] < 0.25 for i in range(len(hats) - 2))


def triplet_hats(t: DrumTake) -> int:
    """Hats a third or two thirds into a beat: triplets the 16th grid cannot write."""
    where = [h.beat % 1 for h in t.hits if h.pitch in HATS]
    return sum(1 for w in where if min(abs(w - 1 / 3), abs(w - 2 / 3)) < 0.03)


def ghost_snares(t: DrumTake, section: str = "Chorus") -> list[int]:
    return [h.velocity for h in t.section(section) if h.pitch in SNARE and h.velocity < 70]


def boom_bap(t: DrumTake) -> None:
    backbeat_on_two_and_four(t)
    assert not t.steps("Verse", KICK) & TWO_AND_FOUR, "the kick leaves the backbeat to the snare"
    assert ghost_snares(t), "no ghost snares"
    # swung 16ths: the hats between the 8ths land late, past the straight 16th
    offbeat_16ths = [h.beat % 0.5 for h in t.hits if h.pitch in HATS and 0.2 < h.beat % 0.5 < 0.45]
    assert not offbeat_16ths or min(offbeat_16ths) > 0.26


def trap(t: DrumTake) -> None:
    half_time_backbeat(t)
    half_time_backbeat(t, "Chorus")
    assert hat_roll(t), "no hat roll"


def drill(t: DrumTake) -> None:
    half_time_backbeat(t)
    kicks = t.steps("Verse", KICK)
    assert kicks - FOUR - {10}, f"no syncopated 808 kick: {sorted(kicks)}"
    assert triplet_hats(t) >= 3, "no triplet hats"


def phonk(t: DrumTake) -> None:
    half_time_backbeat(t)
    assert len(t.steps("Verse", COWBELL)) >= 4, "the cowbell does not play its 16th figure"


def lo_fi(t: DrumTake) -> None:
    backbeat_on_two_and_four(t)
    assert t.tempo <= 90


def dilla(t: DrumTake) -> None:
    backbeat_on_two_and_four(t)
    kicks = [h.beat % 1 for h in t.hits if h.pitch in KICK and round(h.beat * 4) % 4 == 0]
    snares = [
        h.beat - round(h.beat)
        for h in t.hits
        if h.pitch in SNARE and h.velocity >= 70 and round(h.beat) % 2 == 1
    ]
    late = sum(snares) / len(snares)
    early = sum(k if k < 0.5 else k - 1 for k in kicks) / len(kicks)
    assert late > 0.03 and late > early + 0.03, f"snare {late:.3f} beats late, kick {early:.3f}"


def rnb(t: DrumTake) -> None:
    backbeat_on_two_and_four(t)
    assert len(t.steps("Verse", HATS)) >= 10, "16th hats"
    assert t.tempo < 100


def house(t: DrumTake) -> None:
    four_on_the_floor(t)
    backbeat_on_two_and_four(t)
    assert t.steps("Verse", OPEN_HAT) >= OFFBEATS, "open hat on every offbeat"


def deep_house(t: DrumTake) -> None:
    four_on_the_floor(t)
    assert t.steps("Verse", OPEN_HAT) | t.steps("Chorus", OPEN_HAT) >= OFFBEATS
    assert t.tempo <= 125


def chicago_house(t: DrumTake) -> None:
    four_on_the_floor(t)
    assert t.steps("Verse", CLAP) >= TWO_AND_FOUR, "909 claps on 2 and 4"
    hats = t.steps("Verse", HATS)
    assert {s + 1 for s in OFFBEATS} <= hats and hats >= OFFBEATS, "jacking 16th pairs"


def afro_house(t: DrumTake) -> None:
    four_on_the_floor(t)
    assert not t.steps("Verse", BACKBEAT) >= TWO_AND_FOUR, "no plain 2-and-4 backbeat"
    assert t.steps("Verse", TOMS_AND_CONGAS) - FOUR, "toms or congas syncopate the bar"


def techno(t: DrumTake) -> None:
    four_on_the_floor(t)
    four_on_the_floor(t, "Chorus")
    assert t.steps("Verse", OPEN_HAT) >= OFFBEATS, "off-beat hats"
    assert not t.steps("Verse", BACKBEAT) >= TWO_AND_FOUR, "no clap on every 2 and 4"


def edm(t: DrumTake) -> None:
    four_on_the_floor(t)
    four_on_the_floor(t, "Chorus")
    backbeat_on_two_and_four(t, "Chorus")


def uk_garage(t: DrumTake) -> None:
    kicks = t.steps("Verse", KICK)
    assert 0 in kicks and not kicks & TWO_AND_FOUR, f"2-step, not 4-on-the-floor: {sorted(kicks)}"
    assert kicks & {7, 10}, "the second kick on the 'a' of 2 or the '&' of 3"
    backbeat_on_two_and_four(t)


def jersey_club(t: DrumTake) -> None:
    kicks = t.steps("Verse", KICK)
    assert {0, 4, 12} <= kicks and len(kicks & {6, 7, 8, 9}) >= 2, f"no bed-squeak: {sorted(kicks)}"
    assert t.steps("Chorus", CLAP) >= FOUR, "claps on every beat when it's busy"


def dubstep(t: DrumTake) -> None:
    assert 138 <= t.tempo <= 142
    half_time_backbeat(t)
    assert 0 in t.steps("Verse", KICK)


def dnb(t: DrumTake) -> None:
    assert 170 <= t.tempo <= 176
    kicks = t.steps("Verse", KICK)
    assert {0, 10} <= kicks and not kicks & {4, 12}, f"two-step kick: {sorted(kicks)}"
    backbeat_on_two_and_four(t)


def jungle(t: DrumTake) -> None:
    assert {0, 2} <= t.steps("Verse", KICK), "the break's doubled kick"
    backbeat_on_two_and_four(t)
    assert len(ghost_snares(t, "Verse")) >= 8, "chopped ghost snares"


def future_bass(t: DrumTake) -> None:
    half_time_backbeat(t)
    half_time_backbeat(t, "Chorus")


def synthwave(t: DrumTake) -> None:
    backbeat_on_two_and_four(t)
    hats = t.steps("Verse", HATS)
    assert hats == frozenset(range(0, 16, 2)), f"straight 8th hats, got {sorted(hats)}"


def trip_hop(t: DrumTake) -> None:
    assert t.tempo <= 100
    backbeat_on_two_and_four(t)
    assert {0, 2} <= t.steps("Verse", KICK), "a heavy kick doubled on the '&' of 1"
    assert t.steps("Verse", RIDE | HATS)


def pop(t: DrumTake) -> None:
    four_on_the_floor(t)
    backbeat_on_two_and_four(t)
    half_time_backbeat(t, "Chorus")


IDIOMS: dict[str, Idiom] = {
    "boom_bap": boom_bap,
    "hip_hop": boom_bap,
    "trap": trap,
    "drill": drill,
    "phonk": phonk,
    "lo_fi": lo_fi,
    "dilla": dilla,
    "rnb": rnb,
    "house": house,
    "deep_house": deep_house,
    "chicago_house": chicago_house,
    "afro_house": afro_house,
    "techno": techno,
    "edm": edm,
    "uk_garage": uk_garage,
    "jersey_club": jersey_club,
    "dubstep": dubstep,
    "dnb": dnb,
    "jungle": jungle,
    "future_bass": future_bass,
    "synthwave": synthwave,
    "trip_hop": trip_hop,
    "pop": pop,
    "k_pop": pop,
}


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("genre", sorted(IDIOMS))
def test_the_genre_plays_its_idiom(genre: str, seed: int) -> None:
    IDIOMS[genre](take(genre, seed))


@pytest.mark.parametrize("genre", sorted(IDIOMS))
def test_the_verse_and_the_chorus_play_different_bars(genre: str) -> None:
    for seed in (1, 2, 3):
        t = take(genre, seed)
        assert t.main_bar("Verse") != t.main_bar("Chorus"), f"seed {seed}"
