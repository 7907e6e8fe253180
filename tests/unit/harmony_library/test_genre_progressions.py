"""Each genre's progressions sound like the genre: its chords, its chord rhythm, its tonic."""

from __future__ import annotations

import json
import random

import pytest

from muse_tui.compose.harmony import generate_progression
from muse_tui.compose.intent import decompose
from muse_tui.contracts import CreativityDials, EnrichedProgression
from muse_tui.knowledge import BUNDLED_SKILLS
from muse_tui.knowledge.progressions import progression_table
from muse_tui.theory import parse_chord, parse_key, parse_roman
from muse_tui.theory.key import mode_name

SEEDS = range(1, 9)


def progressions(prompt: str, seeds: range = SEEDS) -> list[EnrichedProgression]:
    intent = decompose(prompt).intent
    return [generate_progression(intent, random.Random(seed)) for seed in seeds]


def romans(progression: EnrichedProgression) -> list[str]:
    return [c.roman for c in progression.chords]


def test_every_genre_has_a_library_and_every_numeral_reads_in_its_mode() -> None:
    table = progression_table()
    genres = json.loads((BUNDLED_SKILLS / "harmony" / "genre-dna.json").read_text())["genres"]
    assert set(genres) == set(table.genres)
    for genre, entry in table.genres.items():
        for progression in entry.progressions:
            key = parse_key(f"C {mode_name(progression.mode)}")
            for numeral in progression.chords:
                parse_roman(numeral, key)  # raises on a numeral the theory cannot read
            low, high = genres[genre]["progressionLength"]
            assert low <= len(progression.chords) <= high, (genre, progression.chords)


@pytest.mark.parametrize(
    ("prompt", "key"),
    [("bossa nova in D major", "D major"), ("bossa nova in A minor", "A minor")],
)
def test_bossa_nova_speaks_its_vocabulary(prompt: str, key: str) -> None:
    """m7b5 and 7b9 (the minor ii–V) or the II7 of Jobim's changes, in most seeds."""
    second = parse_roman("II7", key.split()[0])
    spoken = 0
    for progression in progressions(prompt):
        symbols = [parse_chord(c.symbol) for c in progression.chords]
        qualities = {c.symbol[len(c.root_name) :] for c in symbols}
        has_ii7 = any(c.root_pc == second.root_pc and 10 in c.intervals for c in symbols)
        spoken += bool(qualities & {"m7b5", "m9b5", "7b9"}) or has_ii7
    assert spoken >= 6


def test_gospel_moves_two_chords_a_bar_with_passing_and_slash_chords() -> None:
    found = progressions("gospel in Ab major with organ and choir")
    two_a_bar = [p for p in found if any(c.beats <= 2 for c in p.chords)]
    passing = [
        p
        for p in found
        if any(c.function == "passing" or "/" in c.symbol or "dim" in c.symbol for c in p.chords)
    ]
    assert len(two_a_bar) >= 6
    assert len(passing) >= 4


@pytest.mark.parametrize("prompt", ["phonk in E phrygian", "metal in E phrygian, 180 BPM"])
def test_phrygian_genres_lean_on_the_flat_second(prompt: str) -> None:
    flat_two = [p for p in progressions(prompt) if any(c.symbol.startswith("F") for c in p.chords)]
    assert len(flat_two) >= 6  # F is bII in E phrygian


def test_drill_takes_the_harmonic_minor_dominant() -> None:
    with_major_v = [
        p
        for p in progressions("UK drill in F# minor, 142")
        if any(
            parse_chord(c.symbol).root_pc == 1 and 4 in parse_chord(c.symbol).intervals
            for c in p.chords
        )
    ]
    assert len(with_major_v) >= 4  # C# major, the V with the leading tone E#


def test_trap_holds_each_chord_a_bar_or_two() -> None:
    for progression in progressions("dark trap, 140, key of Am"):
        assert all(c.beats >= 4 for c in progression.chords), romans(progression)
        assert len(progression.chords) <= 4


def test_jazz_and_city_pop_use_their_standard_changes() -> None:
    jazz = progressions("jazz in Bb major with sax and upright bass")
    assert sum(any(r.startswith("ii") for r in romans(p)) for p in jazz) >= 5
    city = progressions("city pop in F major with Rhodes", range(1, 25))
    two_of_us = [p for p in city if [c.symbol for c in p.chords][:2] == ["Bbmaj7", "A7"]]
    assert two_of_us, "the Just The Two Of Us progression (IVmaj7–III7) should come up"


@pytest.mark.parametrize(
    "prompt",
    [
        "dark trap, 140, key of Am",
        "deep house in F minor, 122 BPM",
        "neo soul, Eb minor, 90 BPM, 32 bars, drums bass chords lead",
    ],
)
def test_eight_seeds_explore_the_library(prompt: str) -> None:
    assert len({tuple(romans(p)) for p in progressions(prompt)}) >= 5


@pytest.mark.parametrize(
    "prompt", ["pop in C major", "trap in F minor", "house in A minor", "neo soul in Eb minor"]
)
def test_at_dial_zero_library_progressions_stay_in_the_key(prompt: str) -> None:
    intent = decompose(prompt).intent
    intent = intent.model_copy(update={"creativity_dials": CreativityDials(harmonic=0.0)})
    scale = set(parse_key(f"{intent.key} {intent.mode}").pitch_classes)
    for seed in SEEDS:
        for chord in generate_progression(intent, random.Random(seed)).chords:
            assert parse_chord(chord.symbol).pitch_classes <= scale, (prompt, chord.symbol)


def test_jazz_takes_tritone_substitutes_only_when_the_dial_is_up() -> None:
    intent = decompose("jazz in Bb major").intent
    bold = intent.model_copy(update={"creativity_dials": CreativityDials(harmonic=0.95)})

    def substitutes(chosen: object) -> int:
        found = [generate_progression(chosen, random.Random(seed)) for seed in range(1, 17)]
        # B7 (Cb7) stands for F7, the dominant of Bb: the same tritone, a half step above home.
        return sum(any(parse_chord(c.symbol).root_pc == 11 for c in p.chords) for p in found)

    assert substitutes(intent) == 0
    assert substitutes(bold) >= 2
