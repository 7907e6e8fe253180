"""Effect chains: compression on the low end, one shared reverb, genre colour, tempo-timed."""

from __future__ import annotations

import random

import pytest

from muse_tui.compose.effects import pre_delay_ms
from muse_tui.compose.sounds import SoundPlan, assign_sounds
from muse_tui.contracts.song import TRACK_ROLES, Effect, EffectChain
from tests.unit.sounds.songs import band, intent_for

BUS = "bus-reverb"


def mix(genre: str, *, tempo: float = 120.0, roles=TRACK_ROLES, **intent) -> SoundPlan:
    song = band(roles, tempo=tempo, genre=genre)
    return assign_sounds(song, intent_for(genre, **intent), random.Random(4))


def chain(plan: SoundPlan, role: str, roles=TRACK_ROLES) -> EffectChain:
    return plan.effect_chains[list(roles).index(role)]


def kinds(chain: EffectChain) -> list[str]:
    return [e.kind for e in chain.effects]


def effect(chain: EffectChain, kind: str) -> Effect:
    return next(e for e in chain.effects if e.kind == kind)


@pytest.mark.parametrize("genre", ["pop", "trap", "house", "jazz", "lo_fi", "rock"])
def test_drums_and_bass_are_compressed(genre: str) -> None:
    plan = mix(genre)

    for role in ("drums", "bass", "sub_bass"):
        assert "compressor" in kinds(chain(plan, role)), (genre, role)
        assert effect(chain(plan, role), "compressor").name == "AIR Compressor"


@pytest.mark.parametrize("genre", ["pop", "trap", "ambient", "jazz"])
def test_pads_lead_and_chords_share_one_reverb_bus(genre: str) -> None:
    plan = mix(genre)

    for role in ("pad", "lead", "chords"):
        level = chain(plan, role).sends.get(BUS)
        assert level is not None and 0 < level <= 1, (genre, role)
    assert [b.id for b in plan.buses] == [BUS]
    bus = plan.buses[0]
    assert bus.effect_chain is not None and kinds(bus.effect_chain) == ["reverb"]
    assert plan.effect_chains[-1] == bus.effect_chain
    assert len(plan.effect_chains) == len(TRACK_ROLES) + 1


@pytest.mark.parametrize("genre", ["pop", "trap", "ambient", "rock"])
def test_reverb_is_a_send_not_an_insert(genre: str) -> None:
    plan = mix(genre)

    assert not any(e.kind == "reverb" for c in plan.effect_chains[:-1] for e in c.effects)


def test_lo_fi_filters_the_drums_and_chorus_thickens_the_keys() -> None:
    plan = mix("lo_fi")

    filtered = effect(chain(plan, "drums"), "filter")
    assert filtered.parameters["mode"] == "low_pass"
    assert "chorus" in kinds(chain(plan, "keys"))
    assert "filter" not in kinds(chain(mix("pop"), "drums"))


def test_rock_drives_the_lead_before_its_delay() -> None:
    plan = mix("rock")

    assert kinds(chain(plan, "lead"))[:2] == ["drive", "delay"]
    assert "drive" not in kinds(chain(mix("pop"), "lead"))


def test_jazz_puts_a_small_room_on_the_chords_and_the_comping_keys() -> None:
    plan = mix("jazz")

    for role in ("chords", "keys"):
        room = effect(chain(plan, role), "reverb")
        assert room.parameters["space"] == "room"
        assert 0 < room.parameters["pre_delay_ms"] <= 60
    assert "reverb" not in kinds(chain(mix("pop"), "chords"))


def test_a_genre_blend_takes_both_styles() -> None:
    song = band(TRACK_ROLES, genre="lo_fi")
    intent = intent_for("lo_fi").model_copy(update={"genre": ["lo_fi", "jazz"]})

    plan = assign_sounds(song, intent, random.Random(1))

    assert "filter" in kinds(chain(plan, "drums"))
    assert effect(chain(plan, "chords"), "reverb").parameters["space"] == "room"


@pytest.mark.parametrize("words", ["no effects", "No-Effects", "no_effects please", "no fx"])
def test_no_effects_leaves_every_chain_empty(words: str) -> None:
    plan = mix("rock", constraints=[words])

    assert len(plan.effect_chains) == len(TRACK_ROLES)
    assert all(c.effects == [] and c.sends == {} for c in plan.effect_chains)
    assert plan.buses == []


def test_no_reverb_keeps_compression_but_drops_sends_bus_and_room() -> None:
    plan = mix("jazz", constraints=["no reverb"])

    assert "compressor" in kinds(chain(plan, "drums"))
    assert "delay" in kinds(chain(plan, "lead"))
    assert all(BUS not in c.sends for c in plan.effect_chains)
    assert not any(e.kind == "reverb" for c in plan.effect_chains for e in c.effects)
    assert plan.buses == []


def test_dry_takes_away_reverb_and_delay_only() -> None:
    plan = mix("pop", constraints=["keep it dry"])

    assert "compressor" in kinds(chain(plan, "bass"))
    assert not any(e.kind in ("reverb", "delay") for c in plan.effect_chains for e in c.effects)
    assert plan.buses == []


@pytest.mark.parametrize("bpm", [90, 140])
def test_delay_times_follow_the_tempo(bpm: float) -> None:
    plan = mix("pop", tempo=bpm)

    quarter = 60000 / bpm
    assert effect(chain(plan, "lead"), "delay").parameters["time_ms"] == pytest.approx(
        quarter, abs=0.01
    )
    assert effect(chain(plan, "arp"), "delay").parameters["time_ms"] == pytest.approx(
        0.75 * quarter, abs=0.01
    )


@pytest.mark.parametrize(("bpm", "note"), [(90, 64), (120, 64), (140, 32), (175, 32)])
def test_reverb_pre_delay_is_a_short_note_within_60_ms(bpm: float, note: int) -> None:
    plan = mix("pop", tempo=bpm)

    reverb = plan.buses[0].effect_chain.effects[0]  # type: ignore[union-attr]
    expected = 60000 / bpm * 4 / note
    assert reverb.parameters["pre_delay_ms"] == pytest.approx(expected, abs=0.01)
    assert 0 <= reverb.parameters["pre_delay_ms"] <= 60


def test_pre_delay_is_clamped_at_very_slow_tempos() -> None:
    assert pre_delay_ms(30) == 60.0
    assert 0 < pre_delay_ms(400) <= 60
