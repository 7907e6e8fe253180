"""The seven cases of P6-T7: variants that differ, scored and ranked, picked, cycled, cached."""

from __future__ import annotations

import itertools

import pytest

from muse_tui.compose.iteration.history import unpacked_regions
from muse_tui.compose.iteration.scores import note_edit_distance, progression_distance
from muse_tui.contracts import EnrichedProgression, Note, Region
from muse_tui.engine import alternatives
from muse_tui.engine.alternatives import (
    AlternativesError,
    element_for,
    generate_alternatives,
    select_alternative,
    try_something_different,
    variant_notes,
)
from muse_tui.store.checkpoint import load_checkpoint

from .conftest import Session


def _notes(regions: list[Region]) -> list[Note]:
    return [
        n.model_copy(update={"start_beat": r.start_beat + n.start_beat})
        for r in regions
        for n in r.notes
    ]


def test_1_three_progressions_in_the_same_key(session: Session) -> None:
    song = session.pipeline.song_state

    result = generate_alternatives(
        session.pipeline, element_for(session.pipeline, "progression"), 3
    )

    progressions = [
        EnrichedProgression.model_validate(v.data) for v in result.alternative_set.variants
    ]
    assert len(progressions) == 3
    assert {(p.key, p.mode) for p in progressions} == {
        (song.progression.key, song.progression.mode)
    }
    assert all(progression_distance(a, b) >= 2 for a, b in itertools.combinations(progressions, 2))
    assert all(0 <= v.score <= 1 for v in result.alternative_set.variants)
    assert "Option A" in result.comparison_text and "(in use)" in result.comparison_text


def test_2_three_bass_takes_are_all_different(session: Session) -> None:
    result = generate_alternatives(session.pipeline, element_for(session.pipeline, "track:bass"), 3)

    takes = [_notes(unpacked_regions(v.data)) for v in result.alternative_set.variants]
    assert len({v.content_hash for v in result.alternative_set.variants}) == 3
    for a, b in itertools.combinations(takes, 2):
        assert note_edit_distance(a, b) >= max(4, len(a) // 20)
    assert any("walking" in v.description.lower() for v in result.alternative_set.variants)


def test_3_selecting_b_puts_it_in_the_song_and_regenerates_what_follows(session: Session) -> None:
    made = generate_alternatives(session.pipeline, element_for(session.pipeline, "progression"), 3)
    alt_set = made.alternative_set
    b = next(i for i, v in enumerate(alt_set.variants) if v.label == "B")

    result = select_alternative(made.pipeline, alt_set.id, b, session_dir=session.folder)

    chosen = EnrichedProgression.model_validate(alt_set.variants[b].data)
    assert result.song_state.progression == chosen
    assert {"bass", "keys"} <= set(result.regenerated_components)
    assert "midi/keys.mid" in result.updated_files
    entry = result.history_entry
    assert entry.agent == "alternatives" and entry.user_text.startswith("Use option B")
    assert entry.cost == result.cost == "moderate"  # parts were regenerated
    assert result.pipeline.alternatives[-1].selected_index == b


def test_picking_a_part_costs_what_regenerating_it_does(session: Session) -> None:
    made = generate_alternatives(session.pipeline, element_for(session.pipeline, "track:bass"), 3)
    alt_set = made.alternative_set
    other = next(i for i in range(3) if i != alt_set.selected_index)
    result = select_alternative(made.pipeline, alt_set.id, other)
    assert result.history_entry.cost == "moderate"
    sound = generate_alternatives(session.pipeline, element_for(session.pipeline, "preset:bass"), 3)
    pick = next(i for i in range(3) if i != sound.alternative_set.selected_index)
    cheap = select_alternative(sound.pipeline, sound.alternative_set.id, pick)
    assert cheap.status == "applied" and cheap.history_entry.cost == "cheap"


async def test_4_try_something_different_cycles_then_raises_the_dials(session: Session) -> None:
    made = generate_alternatives(session.pipeline, element_for(session.pipeline, "track:bass"), 3)
    pipeline = made.pipeline
    seen = []
    for _ in range(3):
        pipeline = (await try_something_different(pipeline)).pipeline
        latest = pipeline.alternatives[-1]
        seen.append((latest.batch, latest.selected_index))

    assert seen == [(0, 1), (0, 2), (1, 0)]
    fresh = pipeline.alternatives[-1]
    assert all(float(v.parameter_delta["dials"]) >= 0.2 for v in fresh.variants)
    assert pipeline.song_state.history[-1].agent == "alternatives"


def test_5_variants_are_ranked_by_score_and_the_default_holds_up(session: Session) -> None:
    for element in ("progression", "track:bass", "track:drums", "preset:pad", "effects:lead"):
        alt_set = generate_alternatives(
            session.pipeline, element_for(session.pipeline, element), 3
        ).alternative_set
        scores = [v.score for v in alt_set.variants]
        assert scores == sorted(scores, reverse=True), element
        a = next(v for v in alt_set.variants if v.label == "A")
        assert a.score >= min(scores[1:]) - 0.05, element


def test_6_a_cached_set_survives_a_checkpoint_and_is_not_generated_again(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    element = element_for(session.pipeline, "track:bass")
    made = generate_alternatives(session.pipeline, element, 3, session_dir=session.folder)

    resumed = load_checkpoint(session.folder)

    def generating(*_: object) -> None:
        raise AssertionError("the cached set was generated again")

    monkeypatch.setattr(alternatives, "make_variant", generating)  # any generation now fails
    again = generate_alternatives(resumed, element, 3)

    assert again.reused
    assert again.alternative_set == made.alternative_set


def test_7_five_alternatives_each_their_own(session: Session) -> None:
    for element in ("progression", "track:bass", "track:lead", "arrangement", "preset:keys"):
        alt_set = generate_alternatives(
            session.pipeline, element_for(session.pipeline, element), 5
        ).alternative_set
        assert [v.label for v in sorted(alt_set.variants, key=lambda v: v.label)] == list(
            "ABCDE"
        ), element
        assert len({v.content_hash for v in alt_set.variants}) == 5, element


def test_a_variant_shows_its_notes_for_the_mini_roll(session: Session) -> None:
    made = generate_alternatives(session.pipeline, element_for(session.pipeline, "progression"), 3)
    notes = variant_notes(made.pipeline, made.alternative_set, 0)
    chords = EnrichedProgression.model_validate(made.alternative_set.variants[0].data).chords
    assert {n.pitch for n in notes} == {p for c in chords for p in c.voicing}  # its chords, held
    assert max(n.end_beat for n in notes) == sum(c.beats for c in chords)


def test_an_element_that_is_not_there_is_refused_in_words(session: Session) -> None:
    with pytest.raises(AlternativesError, match="no sub_bass"):
        element_for(session.pipeline, "track:sub_bass")
