"""The pure edits: chord colour, thinning, ghost notes, swing, tone, standing edits."""

from __future__ import annotations

import random

from muse_tui.compose.iteration.chain_edits import tone_of, toned
from muse_tui.compose.iteration.chord_edits import recoloured
from muse_tui.compose.iteration.note_edits import Groove, reswung, thinned, with_ghost_notes
from muse_tui.compose.iteration.takes import standing_edits, with_standing_edit
from muse_tui.contracts import (
    EffectChain,
    EnrichedProgression,
    Note,
    PipelineIntent,
    ProgressionChord,
    Region,
    StandingEdit,
)


def _progression(*symbols: str, key: str = "C", mode: str = "major") -> EnrichedProgression:
    chords = [ProgressionChord(symbol=s, roman="?", voicing=[60, 64, 67], beats=4) for s in symbols]
    return EnrichedProgression(key=key, mode=mode, chords=chords)


def test_darker_chords_keep_their_function_where_they_can() -> None:
    p = recoloured(_progression("C", "F", "G7", "Am"), [1, 2, 3], "darker")
    assert [c.symbol for c in p.chords] == ["C", "Fm", "G7b9", "F"]  # iv, V7b9, vi → IV
    assert p.chords[1].function == "borrowed"


def test_brighter_undoes_darker_on_a_major_chord() -> None:
    assert recoloured(_progression("C", "Fm"), [1], "brighter").chords[1].symbol == "F"


def _region(notes: list[Note]) -> Region:
    return Region(
        id="00000000-0000-4000-8000-000000000001",
        name="r",
        start_beat=0,
        length_beats=8,
        notes=notes,
    )


def _note(start: float, pitch: int = 40, velocity: int = 90) -> Note:
    return Note(pitch=pitch, velocity=velocity, start_beat=start, duration_beats=0.2)


def test_thinning_keeps_every_downbeat_and_drops_the_weak_16ths() -> None:
    busy = _region([_note(i / 4) for i in range(32)])
    simpler = thinned(busy, 1, Groove(), "bass")
    starts = {n.start_beat for n in simpler.notes}
    assert len(simpler.notes) <= 0.75 * 32
    assert {i / 2 for i in range(16)} <= starts  # the 8ths and beats stay; only 16ths go


def test_ghost_notes_are_soft_snares_around_the_backbeat() -> None:
    groove = [_note(b, 36) for b in (0, 2, 4, 6)] + [_note(b, 38) for b in (1, 3, 5, 7)]
    ghosted = with_ghost_notes(_region(groove), Groove(), "drums", random.Random(1))
    ghosts = [n for n in ghosted.notes if n not in groove]
    assert ghosts and all(n.pitch == 38 and n.velocity < 45 for n in ghosts)
    assert any(abs(n.start_beat - 2.75) < 1e-6 for n in ghosts)  # leading into the backbeat


def test_more_swing_moves_only_the_offbeats() -> None:
    straight = _region([_note(0.0), _note(0.25), _note(0.5)])
    swung = reswung(straight, 50, 62, "16th")
    assert [n.start_beat for n in swung.notes][0::2] == [0.0, 0.5]
    assert swung.notes[1].start_beat > 0.25


def test_warm_and_bright_live_on_two_bands_and_the_latest_wins_on_one() -> None:
    chain = EffectChain(id="fx", target_id="t")
    both = toned(toned(chain, "warmer"), "brighter")
    assert tone_of(both) == {"low_mid_db": 2.5, "air_db": 3.0}
    assert tone_of(toned(both, "darker"))["air_db"] == -3.0
    assert tone_of(toned(both, "brighter"))["air_db"] == 6.0


def _edit(role: str, kind: str, value: float) -> StandingEdit:
    return StandingEdit(role=role, kind=kind, value=value)  # type: ignore[arg-type]


def test_standing_edits_add_up_one_way_and_replace_the_other() -> None:
    intent = PipelineIntent(genre=["neo_soul"], raw_prompt="neo soul")
    simpler = _edit("bass", "density", -1)
    twice = with_standing_edit(with_standing_edit(intent, simpler), simpler)
    assert standing_edits(twice) == [_edit("bass", "density", -2)]
    busier = with_standing_edit(twice, _edit("bass", "density", 1))
    assert standing_edits(busier) == [_edit("bass", "density", 1)]


def test_an_older_checkpoint_s_phrases_become_standing_edits_and_takes() -> None:
    intent = PipelineIntent.model_validate(
        {
            "genre": ["neo_soul"],
            "rawPrompt": "neo soul",
            "constraints": ["no reverb", "edit all swing +6", "take bass variant=3 dials=+0.15"],
        }
    )
    assert intent.constraints == ["no reverb"]
    assert standing_edits(intent, "drums") == [_edit("all", "swing", 6)]
    assert [(t.role, t.variant, t.dials) for t in intent.takes] == [("bass", 3, 0.15)]


def test_a_progression_in_the_dna_spelling_of_a_mode_keeps_its_key() -> None:
    from muse_tui.compose.harmony import song_key

    chord = {"symbol": "Am", "roman": "i", "beats": 4, "voicing": [57, 60, 64]}
    progression = EnrichedProgression.model_validate(
        {"key": "A", "mode": "harmonic_minor", "chords": [chord]}
    )
    assert song_key(progression).name == "A harmonic minor"  # it read as A major
