"""Drums: every family plays, genres sound like themselves, constraints are honoured."""

from __future__ import annotations

import random

import pytest

from muse_tui.compose.parts import allowed_voices, choose_tracks, write_part
from muse_tui.contracts import Region, Section
from muse_tui.knowledge.rhythm import rhythm_table
from muse_tui.theory.drums import DRUM_NAMES, VOICE_PITCHES, drum_name

from .songs import GENRES, intent, song

CLAP, SNARE, CLOSED_HAT, OPEN_HAT = 39, 38, 42, 46


def drums_of(family: str, section: int = 2, seed: int = 3, **options: object) -> Region:
    the_intent = intent(family, **options)  # type: ignore[arg-type]
    the_song = song()
    assert the_song.arrangement is not None
    track = next(t for t in choose_tracks(the_intent, random.Random(0)) if t.role == "drums")
    chosen = the_song.arrangement.sections[section]
    return write_part(track, the_song, the_intent, chosen, random.Random(seed))


def onsets(region: Region, pitch: int) -> list[float]:
    return sorted(n.start_beat for n in region.notes if n.pitch == pitch)


def near(beat: float, grid: float) -> bool:
    return abs(beat - grid) < 0.06


def test_every_voice_a_pattern_may_name_has_a_gm_key() -> None:
    assert set(rhythm_table().tracks.kit_voices) == set(VOICE_PITCHES)
    assert all(pitch in DRUM_NAMES for pitch in VOICE_PITCHES.values())
    assert drum_name(36) == "Kick" and drum_name(42) == "Closed Hat" and drum_name(5) == "Key 5"


@pytest.mark.parametrize("family", sorted(GENRES))
def test_every_family_plays_in_every_section(family: str) -> None:
    for section in range(4):
        region = drums_of(family, section)
        assert region.notes, f"{family} is silent in section {section}"
        assert all(n.channel == 9 for n in region.notes)
        assert {n.pitch for n in region.notes} <= set(DRUM_NAMES)


def test_no_drums_except_kick_leaves_only_the_kick() -> None:
    for family in GENRES:
        region = drums_of(family, constraints=["no drums except kick"])
        assert region.notes and {n.pitch for n in region.notes} == {36}, family


def test_constraints_read_like_a_producer_writes_them() -> None:
    words = rhythm_table().drums.voice_words
    assert allowed_voices(["kick only"], words) == {"kick"}
    assert allowed_voices(["only piano and 808"], words) is None
    assert allowed_voices(["no drums"], words) == set()
    no_hats = allowed_voices(["no hi-hats"], words)
    assert no_hats is not None and "closed_hat" not in no_hats and "snare" in no_hats
    region = drums_of("trap", constraints=["no hi-hats"])
    assert not {CLOSED_HAT, OPEN_HAT} & {n.pitch for n in region.notes}


def test_trap_puts_the_clap_on_three_and_rolls_the_hats() -> None:
    region = drums_of("trap")
    claps = onsets(region, CLAP)
    bars = int(region.length_beats // 4)
    on_three = sum(any(near(c, bar * 4 + 2) for c in claps) for bar in range(bars))
    assert on_three >= bars - 1  # the last bar may be a fill
    hats = onsets(region, CLOSED_HAT)
    rolls = [h for i, h in enumerate(hats[:-2]) if hats[i + 2] - h < 0.25]
    assert rolls, "no group of three hats inside one 16th"


def test_house_is_four_on_the_floor_with_offbeat_open_hats() -> None:
    region = drums_of("four_on_floor", section=1)
    kicks = onsets(region, 36)
    for beat in range(int(region.length_beats) - 4):
        assert any(near(k, beat) for k in kicks), f"no kick on beat {beat}"
    opens = onsets(region, OPEN_HAT)
    assert opens and all(near(o % 1, 0.5) for o in opens[:8])


def test_dembow_plays_its_rhythm() -> None:
    region = drums_of("dembow", section=1)
    snares = [s % 4 for s in onsets(region, SNARE)[:8]]
    # boom-ch-boom-chick: the snare on the 'a' of 1 and the 'and' of 2, twice a bar
    for place in (0.75, 1.5, 2.75, 3.5):
        assert any(near(s, place) for s in snares), place


def test_boom_bap_swings_and_ghosts_the_snare() -> None:
    region = drums_of("boom_bap", section=2, swing=62)
    hats = onsets(region, CLOSED_HAT)
    offbeat_16ths = [h % 0.5 for h in hats if 0.2 < h % 0.5 < 0.45]
    assert not offbeat_16ths or min(offbeat_16ths) > 0.26  # swung late, not straight
    snares = [n for n in region.notes if n.pitch == SNARE]
    assert any(n.velocity < 70 for n in snares), "no ghost snares"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_fill_leads_into_the_next_section(seed: int) -> None:
    region = drums_of("rock", section=1, seed=seed)
    toms_and_snares = {SNARE, 41, 45, 47, 50}

    def busy(bar: int) -> int:
        start = bar * 4
        return sum(
            1
            for n in region.notes
            if n.pitch in toms_and_snares and start <= n.start_beat < start + 4
        )

    assert busy(int(region.length_beats // 4) - 1) > busy(1)


def test_percussion_shares_the_kit_channel_without_colliding_with_the_drums() -> None:
    the_intent = intent("afrobeats", roles=["drums", "percussion", "bass"])
    tracks = choose_tracks(the_intent, random.Random(0))
    drums, percussion = tracks[0], tracks[1]
    assert drums.channel == percussion.channel == 9
    the_song = song()
    assert the_song.arrangement is not None
    section = the_song.arrangement.sections[2]
    kit = write_part(drums, the_song, the_intent, section, random.Random(1))
    hands = write_part(percussion, the_song, the_intent, section, random.Random(1))
    assert hands.notes
    assert not {n.pitch for n in kit.notes} & {n.pitch for n in hands.notes}


def test_a_section_handing_over_with_a_cut_goes_silent_on_its_last_beat() -> None:
    the_intent = intent("trap")
    the_song = song()
    track = choose_tracks(the_intent, random.Random(0))[0]
    cut = Section(name="Build", kind="build", start_bar=4, bars=4, energy=0.6, transition="cut")
    region = write_part(track, the_song, the_intent, cut, random.Random(2))
    assert region.notes and all(n.start_beat < region.length_beats - 1 for n in region.notes)
