"""The seven cases of the S1 spec (P6-T1), as a producer would check them."""

from __future__ import annotations

from muse_tui.compose.intent import decompose


def test_an_explicit_trap_prompt_is_taken_as_written() -> None:
    result = decompose("Trap beat, dark, 140 BPM, key of Am")
    intent = result.intent

    assert intent.genre == ["trap"]
    assert intent.tempo == 140
    assert (intent.key, intent.mode) == ("A", "minor")
    assert intent.mood == ["dark"]
    assert intent.ambiguities == []
    assert result.ready_to_execute
    assert not {"genre", "tempo", "key", "mode", "mood"} & set(result.inferred_fields)


def test_frank_ocean_meets_burial_runs_at_135_felt_at_half_time() -> None:
    result = decompose("Frank Ocean meets Burial, late-night vibes")
    intent = result.intent
    tempo = intent.tempo_analysis
    assert tempo is not None and intent.genre_dna is not None

    assert tempo.half_time
    assert tempo.bpm == 135
    assert tempo.perceived_bpm == 67.5
    assert tempo.source == "influence_intersection"
    assert intent.genre == ["neo_soul", "uk_garage"]
    assert intent.genre_dna.blend == {"neo_soul": 0.5, "uk_garage": 0.5}
    assert intent.mood == ["late-night"]
    assert intent.influences == ["Frank Ocean", "Burial"]
    burial = intent.influence_analysis[1]
    assert burial.genre_mapping == "uk_garage" and burial.known  # the artist, not a funeral
    assert result.ready_to_execute


def test_something_warm_asks_which_way_to_go_before_composing() -> None:
    result = decompose("Something warm")
    first = result.intent.ambiguities[0]

    assert first.severity == "blocking"
    assert first.field == "genre"
    assert first.options == ["neo_soul", "lo_fi", "ambient", "gospel"]
    assert not result.ready_to_execute
    assert result.intent.mood == ["warm"]


def test_make_me_a_beat_infers_everything_and_proceeds() -> None:
    result = decompose("Make me a beat")
    intent = result.intent
    dna = intent.genre_dna
    assert dna is not None

    assert intent.genre == ["hip_hop"]
    assert dna.tempo_range[0] <= (intent.tempo or 0) <= dna.tempo_range[1]
    assert intent.key in dna.preferred_keys and intent.mode in dna.preferred_modes
    assert result.inferred_fields == ["genre", "tempo", "key", "mode", "mood", "roles", "duration"]
    assert result.ready_to_execute


def test_make_me_a_beat_honours_the_producers_preferred_genre() -> None:
    assert decompose("Make me a beat", preferred_genre="house").intent.genre == ["house"]


def test_happy_trap_at_70_proceeds_but_notes_the_unusual_tempo() -> None:
    result = decompose("Happy trap at 70 BPM")
    intent = result.intent
    first = intent.ambiguities[0]

    assert intent.tempo == 70  # what was asked
    assert first.severity == "optional"
    assert first.field == "tempo"
    assert "tempo 70 BPM is outside typical trap range" in first.reason
    assert "140" in first.options  # the double-time reading is offered
    assert intent.mode == "major"  # happy
    assert result.ready_to_execute


def test_jazz_house_with_complex_chords_and_four_on_the_floor() -> None:
    result = decompose("Jazz house, complex chords, 4-on-floor, 122 BPM")
    intent = result.intent
    dna, dials = intent.genre_dna, intent.creativity_dials
    assert dna is not None and dials is not None

    assert intent.genre == ["jazz", "house"]
    assert intent.tempo == 122
    assert "4-on-floor" in intent.structure_hints
    assert dna.drum_family == "four_on_floor"
    assert dials.harmonic >= dna.creativity.harmonic + 0.2
    assert result.ready_to_execute


def test_lo_fi_piano_with_808s_and_only_a_kick() -> None:
    result = decompose("Lo-fi piano with 808s, no drums except kick")
    intent = result.intent

    assert intent.genre == ["lo_fi"]
    assert intent.instrument_requests == ["lo-fi piano", "808 bass"]
    assert intent.constraints == ["no drums except kick"]
    assert set(intent.roles) == {"chords", "lead", "sub_bass", "drums"}  # the piano leads too
    assert result.ready_to_execute
