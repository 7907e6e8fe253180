"""The genres that used to borrow another's bar now play their own idiom (issue 13).

Disco is not house, deep house shuffles where house ticks, tropical house claps on 3,
the blues shuffles, a ballad leaves space, Indian fusion plays a tabla theka; the kit
leaves what the percussion track plays to it; a blast beat waits for a fast song.
"""

from __future__ import annotations

import pytest

from muse_tui.contracts import CreativityDials, PipelineIntent, Region, Track
from muse_tui.knowledge import genre_table
from muse_tui.theory.drums import VOICE_PITCHES
from tests.unit.parts.songs import song, write_song

from .test_band_world_idioms import (
    BACKBEAT,
    CHORUS,
    SEEDS,
    TIME,
    VERSE,
    Bar,
    drum_bars,
    main_bars,
    steps,
)

FOUR = {0, 4, 8, 12}
OFFBEATS = {2, 6, 10, 14}
PITCH_VOICE = {pitch: voice for voice, pitch in VOICE_PITCHES.items()}


@pytest.mark.parametrize("seed", SEEDS)
def test_disco_runs_16th_hats_that_open_on_the_offbeat(seed: int) -> None:
    """Earl Young's hats: all sixteen 16ths, the open hat on every '&', snare on 2 and 4."""
    for bar in main_bars("disco", seed):
        assert steps(bar, "kick") >= FOUR
        assert steps(bar, "open_hat") == OFFBEATS
        assert steps(bar, TIME) == set(range(16))
        assert {4, 12} <= steps(bar, BACKBEAT)


@pytest.mark.parametrize("seed", SEEDS)
def test_house_ticks_its_hats_in_8ths_and_disco_does_not_share_its_bar(seed: int) -> None:
    for house, disco in zip(main_bars("house", seed), main_bars("disco", seed), strict=True):
        assert len(steps(house, TIME)) <= 8 < len(steps(disco, TIME))


@pytest.mark.parametrize("seed", SEEDS)
def test_deep_house_opens_only_on_the_offbeat_with_a_rim_answering(seed: int) -> None:
    for bar in main_bars("deep_house", seed):
        assert steps(bar, "open_hat") <= OFFBEATS
        assert steps(bar, "rim") - {4, 12}, "a rim off the backbeat"
        assert len(steps(bar, TIME)) <= 8, "the 16ths belong to the shaker"


@pytest.mark.parametrize("seed", SEEDS)
def test_tropical_house_claps_on_three_in_half_time(seed: int) -> None:
    for bar in main_bars("tropical_house", seed):
        assert 8 in steps(bar, BACKBEAT)
        assert not steps(bar, BACKBEAT) & {4, 12}


@pytest.mark.parametrize("seed", SEEDS)
def test_a_ballad_keeps_its_hats_to_the_quarters(seed: int) -> None:
    for bar in main_bars("ballad", seed):
        assert {4, 12} <= steps(bar, BACKBEAT)
        assert len(steps(bar, TIME)) <= 5


@pytest.mark.parametrize("seed", SEEDS)
def test_indian_fusion_plays_keherwa_on_the_kick_rim_and_congas(seed: int) -> None:
    """dha ge na ti | na ka dhi na: bass strokes on the kick, 'na' on the rim, no hats."""
    for bar in main_bars("indian_fusion", seed):
        assert 0 in steps(bar, "kick")
        assert {4, 8} <= steps(bar, "rim")
        assert steps(bar, {"conga_high", "conga_mute"})
        assert not steps(bar, TIME)


def test_the_blues_shuffles_its_8ths_into_triplets() -> None:
    """The swung '&' lands two thirds into the beat, where the 16th grid cannot write it."""
    dna = genre_table().get("blues")
    intent = _intent("blues")
    tracks = write_song(intent, song(tempo=dna.tempo_default), seed=1)
    drums = next(t for t in tracks if t.role == "drums")
    offbeats = [
        n.start_beat % 1
        for n in drums.regions[VERSE].notes
        if PITCH_VOICE.get(n.pitch) in TIME and 0.1 < n.start_beat % 1 < 0.9
    ]
    assert offbeats
    assert all(abs(at - 2 / 3) < 0.06 for at in offbeats), offbeats


@pytest.mark.parametrize("genre", ["folk", "bossa_nova", "house", "disco", "deep_house"])
def test_the_kit_never_doubles_a_sound_the_percussion_track_plays(genre: str) -> None:
    tracks = write_song(_intent(genre, roles=True), song(tempo=100), seed=1)
    drums, percussion = (_track(tracks, role) for role in ("drums", "percussion"))
    for kit, hand in zip(drums.regions, percussion.regions, strict=True):
        assert not _voices(kit) & _voices(hand)


def test_without_a_percussion_track_the_kit_keeps_its_shaker() -> None:
    intent = _intent("house").model_copy(update={"roles": ["drums", "bass", "chords"]})
    tracks = write_song(intent, song(tempo=124), seed=1)
    kit = set().union(*(_voices(r) for r in _track(tracks, "drums").regions))
    assert kit & {"shaker", "tambourine", "conga_high", "cowbell"}


def blast(bar: Bar) -> bool:
    """Kick and snare alternating 16ths."""
    return steps(bar, "kick") == set(range(0, 16, 2)) and steps(bar, "snare") == set(
        range(1, 16, 2)
    )


def test_metal_blasts_when_the_song_is_fast_and_never_when_it_is_not() -> None:
    def chorus(tempo: float, seed: int) -> list[Bar]:
        return drum_bars("metal", seed, CHORUS, tempo=tempo)[:3]

    assert all(blast(bar) for seed in SEEDS for bar in chorus(190, seed))
    assert not any(blast(bar) for seed in SEEDS for bar in chorus(140, seed))


def _intent(genre: str, *, roles: bool = False) -> PipelineIntent:
    dna = genre_table().get(genre)
    return PipelineIntent(
        genre=[genre],
        raw_prompt=f"a {genre} song",
        genre_dna=dna,
        roles=list(dict.fromkeys([*dna.roles, "percussion"])) if roles else [],
        creativity_dials=CreativityDials(harmonic=0.2, rhythmic=0.3),
    )


def _track(tracks: list[Track], role: str) -> Track:
    return next(t for t in tracks if t.role == role)


def _voices(region: Region) -> set[str]:
    return {v for n in region.notes if (v := PITCH_VOICE.get(n.pitch)) is not None}
