"""Filling the gaps: blends, half-time between influences, keys, dials, roles, summaries."""

from __future__ import annotations

import re

import pytest

from muse_tui.compose.intent import blend_genres, decompose
from muse_tui.compose.intent.tempo import TempoSource, where_tempos_meet
from muse_tui.contracts.intent import IntentDecompositionResult
from muse_tui.knowledge.genres import genre_table


def test_a_blend_interpolates_numbers_and_takes_patterns_from_the_strongest() -> None:
    jazz, house = genre_table().get("jazz"), genre_table().get("house")
    blend = blend_genres(["jazz", "house"], [1, 3])

    assert blend.blend == {"jazz": 0.25, "house": 0.75}
    assert blend.tempo_default == pytest.approx(
        0.25 * jazz.tempo_default + 0.75 * house.tempo_default
    )
    assert blend.swing == pytest.approx(0.25 * jazz.swing + 0.75 * house.swing)
    assert blend.tempo_range[0] == pytest.approx(
        0.25 * jazz.tempo_range[0] + 0.75 * house.tempo_range[0]
    )
    assert blend.drum_family == house.drum_family
    assert blend.arrangement_template == house.arrangement_template
    assert set(jazz.harmonic_vocabulary) | set(house.harmonic_vocabulary) == set(
        blend.harmonic_vocabulary
    )
    assert blend.display_name == "Jazz × House"


def test_an_equal_blend_follows_the_first_named() -> None:
    assert blend_genres(["neo_soul", "uk_garage"]).drum_family == "neo_soul"
    assert blend_genres(["uk_garage", "neo_soul"]).drum_family == "two_step"


def test_a_blend_keeps_the_drums_of_a_genre_that_has_them() -> None:
    """Ambient has no kit: named first with trap or house, it used to silence theirs too
    (its drum family 'none'; its form drops the drums from four sections of five)."""
    blend = blend_genres(["ambient", "trap"])
    assert blend.drum_family == "trap" and "drums" in blend.roles
    assert blend.arrangement_template == genre_table().get("trap").arrangement_template
    assert blend_genres(["ambient", "cinematic"], [3, 1]).drum_family == "cinematic"
    assert blend_genres(["ambient", "solo_piano"]).drum_family == "none"


def test_a_single_genre_is_its_own_dna() -> None:
    assert blend_genres(["trap"]) == genre_table().get("trap")


@pytest.mark.parametrize(
    ("ids", "weights"),
    [([], None), (["trap"], [1, 2]), (["trap", "house"], [0, 0]), (["nope"], None)],
)
def test_a_blend_refuses_what_cannot_be_blended(
    ids: list[str], weights: list[float] | None
) -> None:
    with pytest.raises((ValueError, KeyError)):
        blend_genres(ids, weights)


def test_half_time_between_influences_uses_the_faster_range() -> None:
    frank = TempoSource("Frank Ocean", 60, 75, is_artist=True)
    burial = TempoSource("Burial", 130, 140, is_artist=True)
    meeting = where_tempos_meet([frank, burial])

    assert meeting is not None and meeting.half_time
    assert (meeting.low, meeting.high) == (130, 140)


def test_overlapping_influences_meet_in_their_shared_range() -> None:
    meeting = where_tempos_meet(
        [TempoSource("a", 80, 100, is_artist=True), TempoSource("b", 90, 120, is_artist=True)]
    )
    assert meeting is not None and not meeting.half_time
    assert (meeting.low, meeting.high) == (90, 100)


def test_clashing_influences_fall_back_to_the_blend_and_say_so() -> None:
    intent = decompose("Metro Boomin x Nujabes").intent
    assert intent.tempo_analysis is not None and not intent.tempo_analysis.half_time
    assert intent.ambiguities[0].field == "tempo"
    assert intent.ambiguities[0].severity == "optional"


def test_a_half_time_blend_plays_half_time_drums_in_the_faster_range() -> None:
    dna = decompose("Frank Ocean meets Burial").intent.genre_dna
    assert dna is not None
    assert dna.half_time and dna.drum_family == "half_time"
    assert dna.tempo_range == (130, 140)


def test_a_named_genre_sets_the_tempo_and_artists_only_narrow_it() -> None:
    assert decompose("house track with Frank Ocean vibes").intent.tempo == 124
    assert decompose("boom bap like J Dilla").intent.tempo == 90


def test_moods_and_tempo_words_move_an_unspecified_tempo_within_the_genre() -> None:
    plain = decompose("trap beat").intent.tempo or 0
    slow = decompose("slow trap beat").intent.tempo or 0
    fast = decompose("energetic trap beat").intent.tempo or 0
    assert 130 <= slow < plain < fast <= 160


@pytest.mark.parametrize(
    ("prompt", "low", "high"),
    [
        ("jazz ballad with piano, upright bass and brushes", 60, 85),
        ("bebop with trumpet", 160, 240),
        ("r&b slow jam", 60, 75),
        ("hard techno", 135, 150),
        ("punk", 135, 180),
    ],
)
def test_a_sub_genre_sets_its_own_pace_within_the_genre(prompt: str, low: int, high: int) -> None:
    """A jazz ballad is not jazz at its usual 120: the sub-genre says where in the range it sits."""
    intent = decompose(prompt).intent
    assert low <= (intent.tempo or 0) <= high
    assert intent.tempo_analysis is not None and "feel" in intent.tempo_analysis.reasoning


def test_key_conventions_follow_the_genre_and_the_mood() -> None:
    assert decompose("dark trap").intent.mode == "minor"
    assert decompose("happy house").intent.mode == "major"
    house = genre_table().get("house")
    assert decompose("house track").intent.key in house.preferred_keys


def test_a_bare_tonic_takes_its_mode_from_the_genre() -> None:
    result = decompose("dark trap in Eb")
    assert (result.intent.key, result.intent.mode) == ("Eb", "minor")
    assert "mode" in result.inferred_fields and "key" not in result.inferred_fields


@pytest.mark.parametrize(
    ("prompt", "harmonic", "rhythmic"),
    [
        ("dark trap", +0.1, 0.0),
        ("experimental trap", +0.3, +0.3),
        ("chill trap", -0.1, -0.1),
        ("trap, complex chords", +0.25, 0.0),
        ("trap, keep it simple", -0.15, -0.15),
    ],
)
def test_creativity_dials_move_from_the_genre_base(
    prompt: str, harmonic: float, rhythmic: float
) -> None:
    base = genre_table().get("trap").creativity
    dials = decompose(prompt).intent.creativity_dials
    assert dials is not None
    assert dials.harmonic == pytest.approx(base.harmonic + harmonic)
    assert dials.rhythmic == pytest.approx(base.rhythmic + rhythmic)


def test_dials_stay_within_zero_and_one() -> None:
    dials = decompose("experimental weird psychedelic jazz fusion, complex chords, polyrhythms")
    assert dials.intent.creativity_dials is not None
    assert dials.intent.creativity_dials.harmonic == 1.0


def test_named_instruments_decide_the_melodic_layer_but_keep_the_rhythm_section() -> None:
    roles = decompose("boom bap with 808s and a 909").intent.roles
    assert {"drums", "sub_bass", "chords"} <= set(roles)
    assert decompose("jazz house with rhodes").intent.roles == [
        "drums",
        "percussion",
        "bass",
        "keys",
        "lead",  # the genre's topline stays when no lead was named
    ]


def test_a_vague_word_with_a_beat_proceeds_on_the_likeliest_genre() -> None:
    result = decompose("sad beat")
    assert result.ready_to_execute
    assert result.intent.ambiguities[0].field == "genre"
    assert result.intent.ambiguities[0].severity == "optional"


@pytest.mark.parametrize("prompt", ["", "something", "surprise me"])
def test_nothing_to_go_on_asks_first(prompt: str) -> None:
    result = decompose(prompt)
    assert not result.ready_to_execute
    assert result.intent.ambiguities[0].severity == "blocking"
    assert len(result.intent.ambiguities[0].options) >= 2


def _one_sentence(text: str) -> bool:
    return text.endswith((".", "?")) and not re.search(r"[.!?]\s+[A-Z]", text[:-1])


@pytest.mark.parametrize(
    "prompt",
    [
        "Trap beat, dark, 140 BPM, key of Am",
        "Frank Ocean meets Burial, late-night vibes",
        "Something warm",
        "Happy trap at 70 BPM",
        "dark trap in the style of Zorblax",
        "Metro Boomin x Nujabes",
        "Lo-fi piano with 808s, no drums except kick",
    ],
)
def test_summaries_and_ambiguities_are_one_clear_sentence(prompt: str) -> None:
    result = decompose(prompt)
    assert _one_sentence(result.summary), result.summary
    for ambiguity in result.intent.ambiguities:
        assert _one_sentence(ambiguity.reason), ambiguity.reason


def test_the_summary_names_what_a_producer_would_confirm() -> None:
    summary = decompose("Frank Ocean meets Burial, late-night vibes").summary
    assert summary == (
        "Late-night neo-soul × UK garage at 135 BPM (half-time, felt at 67.5) in F minor, "
        "drawing on Frank Ocean and Burial."
    )


@pytest.mark.parametrize(
    "prompt", ["Make me a beat", "Frank Ocean meets Burial, late-night vibes", "Something warm"]
)
def test_the_same_prompt_gives_the_same_intent(prompt: str) -> None:
    assert decompose(prompt) == decompose(prompt)


def test_different_prompts_do_not_all_land_in_one_key() -> None:
    keys = {decompose(f"trap beat number {n}").intent.key for n in range(12)}
    assert len(keys) >= 3


def test_the_result_survives_a_json_round_trip() -> None:
    result = decompose("Jazz house, complex chords, 4-on-floor, 122 BPM")
    assert IntentDecompositionResult.from_json(result.to_json()) == result
