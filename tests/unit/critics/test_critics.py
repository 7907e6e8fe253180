"""The critics hear what a producer hears: wrong notes, a flat form, the wrong mood."""

from __future__ import annotations

import pytest

from muse_tui.compose.critics import score_song, weakest_stage
from muse_tui.contracts.pipeline import QualityGateConfig
from muse_tui.contracts.song import Note, QualityScore
from tests.unit.critics.songs import FLAT, clean_song, pop_intent


def test_a_clean_song_passes_on_every_axis() -> None:
    score = score_song(clean_song(), pop_intent())

    assert score.passed
    assert min(score.harmony, score.rhythm, score.arrangement, score.vibe) >= 0.8
    assert score.composite == pytest.approx(
        (score.harmony + score.rhythm + score.arrangement + score.vibe) / 4, abs=0.001
    )
    assert score.notes == []


def test_a_lead_a_tritone_away_fails_harmony_and_says_so() -> None:
    clean = score_song(clean_song(), pop_intent())
    score = score_song(clean_song(lead_shift=6), pop_intent())

    assert score.harmony < 0.5 < clean.harmony
    assert not score.passed
    assert any("lead" in n and "leaves the key" in n for n in score.notes), score.notes
    assert weakest_stage(score) == 2


def test_a_flat_arrangement_scores_lower_than_a_contrasting_one() -> None:
    contrasting = score_song(clean_song(), pop_intent())
    flat = score_song(clean_song(FLAT), pop_intent())

    assert flat.arrangement < contrasting.arrangement - 0.3
    assert any("energy" in n for n in flat.notes), flat.notes
    assert weakest_stage(flat) == 3


def test_a_dark_mood_prefers_the_minor_song() -> None:
    dark = pop_intent(moods=["dark"], preferred_modes=["minor", "phrygian"])
    minor = score_song(clean_song(key="A", mode="minor"), dark)
    major = score_song(clean_song(key="C", mode="major"), dark)

    assert minor.vibe > major.vibe
    assert any("too bright" in n and "dark" in n for n in major.notes), major.notes


def test_a_mode_the_genre_uses_is_never_wholly_wrong() -> None:
    usual = pop_intent(moods=["dark"], preferred_modes=["major"])
    foreign = pop_intent(moods=["dark"], preferred_modes=["minor"])

    assert score_song(clean_song(), usual).vibe > score_song(clean_song(), foreign).vibe


def test_a_happy_mood_prefers_the_major_song() -> None:
    happy = pop_intent(moods=["happy"])

    assert (
        score_song(clean_song(), happy).vibe
        > score_song(clean_song(key="A", mode="minor"), happy).vibe
    )


def test_a_tempo_outside_the_genre_lowers_vibe_and_names_it() -> None:
    intent = pop_intent(moods=[], tempo_range=(95, 110), tempo_default=100)
    score = score_song(clean_song(tempo=150), intent)

    assert score.vibe < score_song(clean_song(tempo=100), intent).vibe
    assert any("150 BPM is outside Pop's 95–110 BPM" in n for n in score.notes), score.notes


def test_a_song_without_drums_is_not_blamed_for_its_groove() -> None:
    song = clean_song()
    drumless = song.model_copy(update={"tracks": song.tracks[1:]})

    score = score_song(drumless, pop_intent())

    assert score.rhythm >= 0.7
    assert not any("drums" in n for n in score.notes)


def test_drums_that_change_every_bar_lower_the_groove() -> None:
    song = clean_song()
    drums = song.tracks[0]
    region = drums.regions[0]
    shuffled = [
        n.model_copy(update={"start_beat": n.start_beat + (0.25 * (i % 3))})
        if int(n.start_beat // 4) % 2
        else n
        for i, n in enumerate(region.notes)
    ]
    loose = song.model_copy(
        update={
            "tracks": [
                drums.model_copy(
                    update={"regions": [region.model_copy(update={"notes": shuffled})]}
                ),
                *song.tracks[1:],
            ]
        }
    )

    assert score_song(loose, pop_intent()).rhythm < score_song(song, pop_intent()).rhythm


def test_a_part_far_busier_than_the_genre_is_called_busy() -> None:
    song = clean_song()
    bass = song.tracks[1]
    region = bass.regions[0]
    busy = [
        Note(pitch=36, velocity=90, start_beat=bar * 4 + i / 8, duration_beats=0.1)
        for bar in range(int(region.length_beats // 4))
        for i in range(32)
    ]
    hectic = song.model_copy(
        update={
            "tracks": [
                song.tracks[0],
                bass.model_copy(update={"regions": [region.model_copy(update={"notes": busy})]}),
                *song.tracks[2:],
            ]
        }
    )

    score = score_song(hectic, pop_intent(energy=0.2))

    assert score.rhythm < score_song(song, pop_intent(energy=0.2)).rhythm
    assert any("busier" in n for n in score.notes), score.notes


def test_scores_are_deterministic() -> None:
    first = score_song(clean_song(lead_shift=1), pop_intent())

    assert score_song(clean_song(lead_shift=1), pop_intent()) == first
    assert score_song(clean_song(lead_shift=1), pop_intent()).to_json() == first.to_json()


def test_a_song_scores_without_an_intent() -> None:
    score = score_song(clean_song(), None)

    assert score.passed
    assert all(0 <= v <= 1 for v in (score.harmony, score.rhythm, score.arrangement, score.vibe))


def test_the_gate_uses_the_configured_thresholds() -> None:
    song, intent = clean_song(), pop_intent()

    assert not score_song(song, intent, QualityGateConfig(min_composite=1.0)).passed
    assert score_song(song, intent, QualityGateConfig(min_axis=0.0, min_composite=0.0)).passed


def test_an_empty_song_fails() -> None:
    score = score_song(clean_song().model_copy(update={"tracks": []}), pop_intent())

    assert not score.passed
    assert score.harmony == 0.0


def axes(harmony: float, rhythm: float, arrangement: float, vibe: float) -> QualityScore:
    composite = (harmony + rhythm + arrangement + vibe) / 4
    return QualityScore(
        harmony=harmony,
        rhythm=rhythm,
        arrangement=arrangement,
        vibe=vibe,
        composite=composite,
        passed=False,
    )


@pytest.mark.parametrize(
    ("score", "stage"),
    [
        (axes(0.2, 0.9, 0.9, 0.9), 2),
        (axes(0.9, 0.9, 0.2, 0.9), 3),
        (axes(0.9, 0.2, 0.9, 0.9), 4),
        (axes(0.9, 0.9, 0.9, 0.2), 4),
        (axes(0.4, 0.9, 0.4, 0.9), 2),  # a tie goes upstream
        (axes(0.9, 0.4, 0.4, 0.9), 3),
    ],
)
def test_the_weakest_axis_picks_the_stage_to_regenerate(score: QualityScore, stage: int) -> None:
    assert weakest_stage(score) == stage
