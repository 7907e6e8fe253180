"""S2: progressions that parse back, stay in key at dial 0, voice-lead smoothly, vary by seed."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from muse_tui.compose.harmony import (
    ProgressionError,
    describe_progression,
    generate_progression,
    song_key,
)
from muse_tui.contracts import CreativityDials, GenreDNAVector, PipelineIntent
from muse_tui.theory import parse_chord, parse_key, voice_leading_motion

KEYS = [
    ("C", "major"),
    ("A", "minor"),
    ("Eb", "minor"),
    ("F#", "major"),
    ("D", "dorian"),
    ("G", "mixolydian"),
    ("E", "phrygian"),
    ("Bb", "major"),
    ("C#", "minor"),
]


def dna(**overrides: object) -> GenreDNAVector:
    base = {
        "genre": "neo_soul",
        "display_name": "Neo-soul",
        "tempo_range": (60, 90),
        "tempo_default": 75,
        "swing": 58,
        "preferred_modes": ["minor"],
        "preferred_keys": ["Eb"],
        "harmonic_vocabulary": ["m7", "m9", "maj7", "maj9", "7", "9", "", "m"],
        "harmonic_complexity": 0.8,
        "drum_family": "lofi_swung",
        "bass_style": "syncopated",
        "chord_rhythm": "neo_soul_push",
        "voicing_style": "drop2",
        "roles": ["drums", "bass", "chords"],
        "arrangement_template": "pop_rnb",
        "energy": 0.4,
    }
    return GenreDNAVector.model_validate({**base, **overrides})


def intent(
    key: str = "C", mode: str = "major", dial: float = 0.0, **dna_overrides: object
) -> PipelineIntent:
    return PipelineIntent(
        genre=["neo_soul"],
        key=key,
        mode=mode,
        raw_prompt="test",
        creativity_dials=CreativityDials(harmonic=dial),
        genre_dna=dna(**dna_overrides),
    )


@pytest.mark.parametrize(("key", "mode"), KEYS)
@pytest.mark.parametrize("style", ["close", "drop2", "spread", "shell", "rootless"])
def test_every_chord_parses_back_to_its_voicing(key: str, mode: str, style: str) -> None:
    for seed in range(4):
        progression = generate_progression(
            intent(key, mode, 0.3, voicing_style=style), random.Random(seed)
        )
        for chord in progression.chords:
            pcs = parse_chord(chord.symbol).pitch_classes
            sounding = {n % 12 for n in chord.voicing}
            assert sounding <= pcs, f"{chord.symbol}: voicing {chord.voicing} has notes outside it"
            if style in ("close", "drop2", "spread"):
                # full voicings keep every tone but the fifth (the first one a voicer may drop)
                fifth = {(parse_chord(chord.symbol).root_pc + 7) % 12}
                assert pcs - fifth <= sounding, (
                    f"{chord.symbol}: voicing {chord.voicing} misses tones"
                )


@pytest.mark.parametrize(("key", "mode"), KEYS)
def test_at_dial_zero_every_pitch_is_diatonic(key: str, mode: str) -> None:
    scale = set(parse_key(f"{key} {mode}").pitch_classes)
    for seed in range(10):
        progression = generate_progression(intent(key, mode, 0.0), random.Random(seed))
        for chord in progression.chords:
            assert parse_chord(chord.symbol).pitch_classes <= scale, chord.symbol
            assert {n % 12 for n in chord.voicing} <= scale


def test_the_dial_brings_in_colour() -> None:
    def outside_share(dial: float) -> float:
        scale = set(parse_key("A minor").pitch_classes)
        chords = [
            c
            for seed in range(40)
            for c in generate_progression(intent("A", "minor", dial), random.Random(seed)).chords
        ]
        return sum(not parse_chord(c.symbol).pitch_classes <= scale for c in chords) / len(chords)

    assert outside_share(0.0) == 0
    assert 0 < outside_share(0.3) < outside_share(0.9)


@pytest.mark.parametrize("style", ["close", "drop2", "shell", "rootless"])
def test_voice_leading_moves_little(style: str) -> None:
    for seed in range(10):
        chords = generate_progression(
            intent("Eb", "minor", 0.2, voicing_style=style), random.Random(seed)
        ).chords
        for a, b in itertools.pairwise(chords):
            voices = len(a.voicing)
            assert len(b.voicing) == voices
            assert voice_leading_motion(a.voicing, b.voicing) <= 3 * voices, (a.symbol, b.symbol)
            assert min(b.voicing) >= 36 and max(b.voicing) <= 88


def test_different_variant_seeds_give_different_progressions() -> None:
    seen = {
        tuple(
            c.symbol
            for c in generate_progression(intent("C", "minor", 0.3), random.Random(s)).chords
        )
        for s in range(12)
    }
    assert len(seen) >= 4


def test_same_seed_same_progression() -> None:
    a = generate_progression(intent("C", "minor", 0.5), random.Random(9))
    b = generate_progression(intent("C", "minor", 0.5), random.Random(9))
    assert a == b


def test_genre_vocabulary_shapes_the_chords() -> None:
    trap_intent = intent(
        "A",
        "minor",
        0.0,
        harmonic_vocabulary=["", "m"],
        harmonic_complexity=0.1,
        voicing_style="close",
    )
    trap = generate_progression(
        trap_intent.model_copy(update={"genre": ["trap"]}), random.Random(1)
    )
    assert all(len(parse_chord(c.symbol).pitch_classes) == 3 for c in trap.chords)
    soul = generate_progression(intent("Eb", "minor", 0.2), random.Random(1))
    assert any(len(parse_chord(c.symbol).pitch_classes) >= 5 for c in soul.chords), (
        "neo-soul wants 9ths"
    )


def test_an_explicit_roman_progression_is_honoured_exactly() -> None:
    explicit = intent("C", "major").model_copy(
        update={"explicit_progression": ["I", "vi", "IV", "V"]}
    )
    progression = generate_progression(explicit, random.Random(1))
    assert [c.symbol for c in progression.chords] == ["C", "Am", "F", "G"]
    assert [c.roman for c in progression.chords] == ["I", "vi", "IV", "V"]
    assert progression.source == "explicit"


def test_an_explicit_symbol_progression_is_honoured_exactly() -> None:
    explicit = intent("C", "minor").model_copy(
        update={"explicit_progression": ["Cm", "Ab", "Eb", "Bb"]}
    )
    progression = generate_progression(explicit, random.Random(1))
    assert [c.symbol for c in progression.chords] == ["Cm", "Ab", "Eb", "Bb"]
    assert [c.roman for c in progression.chords] == ["i", "VI", "III", "VII"]


def test_an_unreadable_explicit_chord_says_which() -> None:
    explicit = intent("C").model_copy(update={"explicit_progression": ["C", "Qx7"]})
    with pytest.raises(ProgressionError, match="'Qx7'"):
        generate_progression(explicit, random.Random(1))


def test_functions_tension_and_summary() -> None:
    explicit = intent("C", "major").model_copy(
        update={"explicit_progression": ["I", "IV", "V7", "I"]}
    )
    progression = generate_progression(explicit, random.Random(1))
    assert [c.function for c in progression.chords] == ["tonic", "predominant", "dominant", "tonic"]
    tonic, _, dominant, _ = (c.tension for c in progression.chords)
    assert dominant > tonic
    assert describe_progression(progression) == "4-chord progression in C major (C → F → G7 → C)"


def test_song_key_defaults_and_modal_names() -> None:
    bare = PipelineIntent(genre=["x"], raw_prompt="x")
    assert song_key(bare).name == "C major"
    assert (
        song_key(bare.model_copy(update={"key": "F#", "mode": "harmonic_minor"})).name
        == "F# harmonic minor"
    )


@settings(max_examples=60, deadline=None)
@given(
    key=st.sampled_from(KEYS),
    dial=st.floats(0, 1),
    seed=st.integers(0, 10_000),
    length=st.sampled_from([(4, 4), (4, 8), (8, 8), (8, 16)]),
)
def test_any_progression_is_well_formed(
    key: tuple[str, str], dial: float, seed: int, length: tuple[int, int]
) -> None:
    progression = generate_progression(
        intent(*key, dial, progression_length=length), random.Random(seed)
    )
    assert length[0] <= len(progression.chords) <= length[1]
    for chord in progression.chords:
        assert parse_chord(chord.symbol).symbol == chord.symbol
        assert chord.roman
        assert 0 <= chord.tension <= 1


def test_every_loop_in_the_skill_file_is_diatonic_to_its_mode() -> None:
    from muse_tui.knowledge.progressions import progression_table
    from muse_tui.theory import parse_roman

    table = progression_table()
    for pool in (table.loops, table.jazz_loops):
        for mode, loops in pool.items():
            key = parse_key(f"C {mode}")
            for loop in loops:
                for numeral in loop:
                    chord = parse_roman(numeral, key)
                    assert chord.pitch_classes <= set(key.pitch_classes), (mode, loop, numeral)


def test_without_dials_of_its_own_the_progression_follows_the_genres_dials() -> None:
    """The harmony reads the same dials as the parts: the genre's when the intent has none."""
    at_one = intent("A", "minor", 0.0, creativity={"harmonic": 1.0, "rhythmic": 0.2})
    no_dials = {"creativity_dials": None}
    for seed in range(8):
        bold = generate_progression(at_one.model_copy(update=no_dials), random.Random(seed))
        as_dialled = generate_progression(
            at_one.model_copy(update={"creativity_dials": CreativityDials(harmonic=1.0)}),
            random.Random(seed),
        )
        assert bold == as_dialled


def test_the_key_of_a_song_reads_a_mode_in_the_tonic_and_falls_back_to_c() -> None:
    from muse_tui.theory import key_of

    assert key_of("Am", "major").name == "A minor"
    assert key_of("A", "harmonic_minor").name == "A harmonic minor"
    assert key_of("Eb", "Aeolian").name == "Eb minor"
    assert key_of(None, "dorian").name == "C major"
    assert key_of("H", None).name == "C major"
