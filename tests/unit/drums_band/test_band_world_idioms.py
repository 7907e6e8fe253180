"""Each band, acoustic and world genre plays its own idiom on the drums, read from the notes.

A song is written with the genre's real DNA (so its family, swing and groove) over an
intro, an 8-bar verse and a chorus; the verse's first three bars are its main groove
(bar 4 may be a variation, the last bar a fill). Eight seeds cover every base variation.
"""

from __future__ import annotations

import itertools

import pytest

from muse_tui.contracts import CreativityDials, PipelineIntent, Track
from muse_tui.knowledge import genre_table, rhythm_table
from muse_tui.theory.drums import VOICE_PITCHES
from tests.unit.parts.songs import song, write_song

SEEDS = range(1, 9)
VERSE, CHORUS = 1, 2  # section indexes in tests.unit.parts.songs.arrangement()
MAIN_BARS = (0, 1, 2)
PITCH_VOICE = {pitch: voice for voice, pitch in VOICE_PITCHES.items()}
BACKBEAT = {"snare", "rim", "clap"}
TIME = {"closed_hat", "pedal_hat", "open_hat", "ride"}

Bar = dict[str, set[int]]  # voice → the 16th steps it plays in one bar


def drum_bars(genre: str, seed: int, section: int = VERSE, tempo: float | None = None) -> list[Bar]:
    """The voices and steps of each bar of one section of a song in `genre` (at its tempo)."""
    dna = genre_table().get(genre)
    intent = PipelineIntent(
        genre=[genre],
        raw_prompt=f"a {genre} song",
        genre_dna=dna,
        creativity_dials=CreativityDials(harmonic=0.2, rhythmic=0.3),
    )
    tracks = write_song(intent, song(tempo=tempo or dna.tempo_default), seed)
    region = _kit(tracks, "drums").regions[section]
    bars: list[Bar] = [{} for _ in range(round(region.length_beats / 4))]
    for note in region.notes:
        at = round(note.start_beat * 4)
        voice = PITCH_VOICE.get(note.pitch)
        if voice is not None and 0 <= at // 16 < len(bars):
            bars[at // 16].setdefault(voice, set()).add(at % 16)
    return bars


def _kit(tracks: list[Track], role: str) -> Track:
    return next(t for t in tracks if t.role == role)


def main_bars(genre: str, seed: int) -> list[Bar]:
    bars = drum_bars(genre, seed)
    return [bars[i] for i in MAIN_BARS]


def steps(bar: Bar, voices: set[str] | str) -> set[int]:
    names = {voices} if isinstance(voices, str) else voices
    return set().union(*(bar.get(v, set()) for v in names))


# ── One idiom per genre, true of every main bar of every seed ──────────────────────────


def rock(bar: Bar) -> bool:
    """Kick on 1 and 3, snare on 2 and 4, 8th hats."""
    hats = steps(bar, TIME)
    return {0, 8} <= steps(bar, "kick") and {4, 12} <= steps(bar, BACKBEAT) and len(hats) >= 8


def metal(bar: Bar) -> bool:
    """Gallop, skank, double kick: at least an 8th-note kick, or the skank's kick on every beat."""
    return len(steps(bar, "kick")) >= 4


def indie(bar: Bar) -> bool:
    """Snare on 2 and 4 under toms or tambourine, no closed hi-hat."""
    light = steps(bar, {"tom_floor", "tambourine", "ride_bell"})
    return {4, 12} <= steps(bar, "snare") and light and not steps(bar, "closed_hat")


def folk(bar: Bar) -> bool:
    """Played light: no hi-hats; the time is in the tambourine, shaker or brushes."""
    return not steps(bar, TIME) and bool(steps(bar, {"tambourine", "shaker", "snare"}))


def country(bar: Bar) -> bool:
    """Kick on 1 and 3; a train beat (snare 16ths) or a two-step (backbeat on 2 and 4)."""
    backbeat = steps(bar, BACKBEAT)
    return {0, 8} <= steps(bar, "kick") and (len(backbeat) >= 12 or {4, 12} <= backbeat)


def funk(bar: Bar) -> bool:
    """Snare on 2 and 4 with ghost notes between, a kick off the quarter notes."""
    snare = steps(bar, "snare")
    return {4, 12} <= snare and len(snare) >= 4 and any(s % 4 for s in steps(bar, "kick"))


def disco(bar: Bar) -> bool:
    """Four on the floor and the open hat on every offbeat."""
    return steps(bar, "kick") >= {0, 4, 8, 12} and steps(bar, "open_hat") >= {2, 6, 10, 14}


def soul(bar: Bar) -> bool:
    """Backbeat on 2 and 4 with the tambourine on 2 and 4."""
    return {4, 12} <= steps(bar, BACKBEAT) and {4, 12} <= steps(bar, "tambourine")


def gospel(bar: Bar) -> bool:
    """A heavy snare on 2 and 4 and the kick on 1."""
    return {4, 12} <= steps(bar, "snare") and 0 in steps(bar, "kick")


def neo_soul(bar: Bar) -> bool:
    """Rim clicks on 2 and 4 and a kick that lands off the beat."""
    return {4, 12} <= steps(bar, "rim") and any(s % 4 for s in steps(bar, "kick"))


def jazz(bar: Bar) -> bool:
    """Spang-a-lang: ride on 1, 2, the a of 2, 3, 4, the a of 4 (swung); hi-hat pedal on 2 and 4."""
    return steps(bar, "ride") == {0, 4, 7, 8, 12, 15} and steps(bar, "pedal_hat") == {4, 12}


def jazz_fusion(bar: Bar) -> bool:
    """Straight and syncopated: a kick off the quarter notes, ghosted snare or a bell pattern."""
    busy = steps(bar, "snare") or steps(bar, "ride_bell")
    return any(s % 4 for s in steps(bar, "kick")) and bool(busy)


def reggae(bar: Bar) -> bool:
    """One drop: kick and rim (or snare) together on beat 3, nothing on beat 1."""
    kick = steps(bar, "kick")
    return 8 in kick and 0 not in kick and 8 in steps(bar, BACKBEAT)


def dancehall(bar: Bar) -> bool:
    """Kick on 1 and 3, not four on the floor."""
    kick = steps(bar, "kick")
    return {0, 8} <= kick and not {4, 12} <= kick


def dembow(bar: Bar) -> bool:
    """Kick on every beat; snare on the a of 1 and the & of 2, in each half bar."""
    return steps(bar, "kick") >= {0, 4, 8, 12} and steps(bar, BACKBEAT) >= {3, 6, 11, 14}


def afrobeats(bar: Bar) -> bool:
    """Shaker 16ths, rim or clap on 2 and 4, a kick off the beat."""
    return (
        len(steps(bar, "shaker")) == 16
        and {4, 12} <= steps(bar, BACKBEAT)
        and any(s % 4 for s in steps(bar, "kick"))
    )


def amapiano(bar: Bar) -> bool:
    """Shaker 16ths over everything; the kick leaves the log drum room (at most 5 a bar)."""
    return len(steps(bar, "shaker")) == 16 and 0 < len(steps(bar, "kick")) <= 5


def city_pop(bar: Bar) -> bool:
    """Tight hats, 8ths doubled to 16ths around the backbeat; a clean snare on 2 and 4."""
    return len(steps(bar, TIME)) >= 10 and {4, 12} <= steps(bar, "snare")


def cinematic(bar: Bar) -> bool:
    """Taiko-style toms carry the bar over a booming kick."""
    return len(steps(bar, {"tom_floor", "tom_low"})) >= 4 and bool(steps(bar, "kick"))


IDIOMS = {
    "rock": rock,
    "metal": metal,
    "indie": indie,
    "folk": folk,
    "country": country,
    "funk": funk,
    "disco": disco,
    "soul": soul,
    "gospel": gospel,
    "neo_soul": neo_soul,
    "jazz": jazz,
    "jazz_fusion": jazz_fusion,
    "reggae": reggae,
    "dancehall": dancehall,
    "reggaeton": dembow,
    "dembow": dembow,
    "afrobeats": afrobeats,
    "amapiano": amapiano,
    "city_pop": city_pop,
    "cinematic": cinematic,
}


@pytest.mark.parametrize("genre", sorted(IDIOMS))
def test_every_main_bar_plays_the_genre_idiom(genre: str) -> None:
    for seed in SEEDS:
        for index, bar in enumerate(main_bars(genre, seed)):
            assert IDIOMS[genre](bar), f"{genre} seed {seed} verse bar {index}: {bar}"


def _clave(genre: str, seed: int) -> tuple[set[int], set[int]]:
    first, second = main_bars(genre, seed)[:2]
    return steps(first, "rim"), steps(second, "rim")


@pytest.mark.parametrize("seed", SEEDS)
def test_bossa_side_stick_plays_the_bossa_clave(seed: int) -> None:
    three_two = ({0, 6, 12}, {4, 10})
    assert _clave("bossa_nova", seed) in (three_two, three_two[::-1])


@pytest.mark.parametrize("seed", SEEDS)
def test_salsa_plays_son_clave_over_the_bombo_and_ponche(seed: int) -> None:
    three_two = ({0, 6, 12}, {4, 8})
    assert _clave("latin", seed) in (three_two, three_two[::-1])
    for bar in main_bars("latin", seed):
        assert {6, 12} <= steps(bar, "kick")


def test_metal_doubles_the_kick_in_16ths_when_it_is_busy() -> None:
    busiest = max(
        len(steps(bar, "kick")) for seed in SEEDS for bar in drum_bars("metal", seed, CHORUS)[:3]
    )
    assert busiest == 16


def test_country_has_a_train_beat_and_a_two_step() -> None:
    snares = {len(steps(bar, BACKBEAT)) for seed in SEEDS for bar in main_bars("country", seed)}
    assert max(snares) >= 12 and min(snares) == 2


def test_gospel_swings_its_8ths_into_a_triplet_feel() -> None:
    dna = genre_table().get("gospel")
    assert dna.swing >= 62  # an 8th swing past 62% puts the & on the triplet's last third
    offbeats = {3, 7, 11, 15}  # where a swung & reads on the 16th grid
    hats = steps(main_bars("gospel", 1)[0], TIME)
    assert hats & offbeats and not hats & {2, 6, 10, 14}


def test_cinematic_hits_the_phrase_start_with_a_crash() -> None:
    for seed in SEEDS:
        bars = drum_bars("cinematic", seed)
        assert 0 in steps(bars[0], "crash") and 0 in steps(bars[0], "kick")


def test_every_family_has_at_least_three_main_grooves_to_vary_between() -> None:
    families = rhythm_table().drums.families
    for genre in [*IDIOMS, "bossa_nova", "latin"]:
        family = families[genre_table().get(genre).drum_family]
        bars = {tuple(sorted(p.voices.items())) for p in family.patterns.base}
        assert len(bars) >= 3, genre
        assert family.source, f"{genre}: say where the grooves come from"


# ── Unrelated genres don't share a groove ──────────────────────────────────────────────

#: Genres whose grooves may overlap (one family in bench/prompts/listening.json).
RELATED = [
    {"rock", "metal"},
    {"soul", "gospel", "neo_soul"},
    {"jazz", "jazz_fusion"},
    {"bossa_nova", "latin"},
    {"reggaeton", "dembow"},
    {"reggae", "dancehall"},
    {"folk", "indie"},
]
COMPARED = sorted({*IDIOMS, "bossa_nova", "latin"} - {"cinematic"})


def heard_bar(bar: Bar) -> frozenset[tuple[str, int]]:
    """A bar as the listening bench compares it: kick, backbeat and time-keeping cymbal."""
    kinds = {"kick": {"kick"}, "snare": BACKBEAT, "hat": TIME}
    return frozenset((kind, s) for kind, voices in kinds.items() for s in steps(bar, voices))


def jaccard(a: frozenset[tuple[str, int]], b: frozenset[tuple[str, int]]) -> float:
    return len(a & b) / len(a | b)


def test_unrelated_genres_main_bars_overlap_under_0_7() -> None:
    first = {g: heard_bar(main_bars(g, 1)[0]) for g in COMPARED}
    close = [
        (a, b, round(jaccard(first[a], first[b]), 2))
        for a, b in itertools.combinations(COMPARED, 2)
        if not any({a, b} <= group for group in RELATED) and jaccard(first[a], first[b]) >= 0.7
    ]
    assert close == []
