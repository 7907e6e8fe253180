"""Reading a prompt the way producers write one: tempos, keys, lengths, requests, names."""

from __future__ import annotations

import pytest

from muse_tui.compose.intent import decompose


@pytest.mark.parametrize(
    ("prompt", "bpm"),
    [
        ("trap 140BPM", 140),
        ("trap 140 bpm", 140),
        ("trap 140 Bpm's", 140),
        ("trap 140bmp", 140),
        ("trap, 140 b.p.m.", 140),
        ("trap 140 beats per minute", 140),
        ("trap @ 140", 140),
        ("trap @140", 140),
        ("trap tempo 140", 140),
        ("trap, BPM: 140", 140),
        ("house at 124", 124),
        ("house ~124", 124),
        ("house around 124 bpm", 124),
        ("house 124ish", 124),
        ("dark trap, 140, key of Am", 140),
        ("lofi 85-90 bpm", 87.5),
    ],
)
def test_explicit_tempos_in_every_spelling(prompt: str, bpm: float) -> None:
    intent = decompose(prompt).intent
    assert intent.tempo == bpm
    assert intent.tempo_analysis is not None and intent.tempo_analysis.source == "explicit"


@pytest.mark.parametrize(
    "prompt",
    [
        "90s boom bap with 808s and a 909",
        "house, drop at bar 32",
        "house, drop at 64",
        "trap, 64 bars",
        "lofi, 2 minutes",
        "garage in 3/4",
        "21 Savage type beat",
    ],
)
def test_numbers_that_are_not_tempos(prompt: str) -> None:
    analysis = decompose(prompt).intent.tempo_analysis
    assert analysis is not None and analysis.source != "explicit"


def test_trap_written_at_140_over_70_is_half_time() -> None:
    analysis = decompose("trap 140/70").intent.tempo_analysis
    assert analysis is not None
    assert (analysis.bpm, analysis.half_time, analysis.perceived_bpm) == (140, True, 70)


@pytest.mark.parametrize(
    ("prompt", "key", "mode"),
    [
        ("trap, key of Am", "A", "minor"),
        ("trap in F#m", "F#", "minor"),
        ("trap in f# minor", "F#", "minor"),
        ("jazz in the key of Bb", "Bb", "major"),
        ("trap, Ebm", "Eb", "minor"),
        ("dark trap in Eb", "Eb", "minor"),
        ("funk, D dorian", "D", "dorian"),
        ("techno in e phrygian", "E", "phrygian"),
        ("house in C major", "C", "major"),
        ("ambient, F lydian", "F", "lydian"),
        ("trap in E flat minor", "Eb", "minor"),
        ("trap in C sharp minor", "C#", "minor"),
        ("lofi, Fmaj", "F", "major"),
        ("LOFI, A MINOR", "A", "minor"),
        ("house, 126, C", "C", "major"),
        ("drill in g harmonic minor", "G", "harmonic_minor"),
    ],
)
def test_keys_in_every_spelling(prompt: str, key: str, mode: str) -> None:
    intent = decompose(prompt).intent
    assert (intent.key, intent.mode) == (key, mode)
    assert intent.key_analysis is not None and intent.key_analysis.source == "explicit"


@pytest.mark.parametrize(
    "prompt",
    [
        "A dark beat",
        "a dark trap beat",
        "be bold, trap",
        "in a dark mood, trap",
        "am I dreaming, lofi",
    ],
)
def test_words_are_not_keys(prompt: str) -> None:
    analysis = decompose(prompt).intent.key_analysis
    assert analysis is not None and analysis.source != "explicit"


def test_a_minor_key_is_a_mode_not_the_note_a() -> None:
    result = decompose("lofi in a minor key")
    assert result.intent.mode == "minor"
    assert "key" in result.inferred_fields and "mode" not in result.inferred_fields


def test_two_keys_take_the_first_and_say_so() -> None:
    intent = decompose("C# minor trap in F").intent
    assert intent.key == "C#"
    assert [a.field for a in intent.ambiguities] == ["key"]


@pytest.mark.parametrize(
    ("prompt", "progression", "key", "mode"),
    [
        ("I vi IV V, pop", ["I", "vi", "IV", "V"], None, "major"),
        ("i-VI-III-VII trap", ["i", "VI", "III", "VII"], None, "minor"),
        ("Cm Ab Eb Bb, slow trap", ["Cm", "Ab", "Eb", "Bb"], "C", "minor"),
        ("jazz, progression: Dm7 G7 Cmaj7", ["Dm7", "G7", "Cmaj7"], "D", "minor"),
        # Altered and extended chords the theory parser reads are kept, none dropped.
        (
            "neo soul, chords Cmaj7 E7#9 Am9 Bbmaj7#11",
            ["Cmaj7", "E7#9", "Am9", "Bbmaj7#11"],
            "C",
            "major",
        ),
        ("jazz, Dm7 G7 Cmaj7 A7b9", ["Dm7", "G7", "Cmaj7", "A7b9"], None, "minor"),
        ("bVII7 - IV - I, rock", ["bVII7", "IV", "I"], None, "major"),
    ],
)
def test_explicit_progressions(
    prompt: str, progression: list[str], key: str | None, mode: str
) -> None:
    intent = decompose(prompt).intent
    assert intent.explicit_progression == progression
    assert intent.mode == mode
    if key:
        assert intent.key == key


@pytest.mark.parametrize(
    ("prompt", "low", "high"),
    [
        ("house, 32 bars", 32, 32),
        ("house, 16-32 bars", 16, 32),
        ("house at 120 bpm, 2 minutes", 60, 60),
        ("house at 120 bpm, 2-3 min", 60, 92),
        ("house at 120 bpm, 2:30", 72, 76),
        ("house at 120 bpm, 90 seconds", 44, 48),
    ],
)
def test_song_lengths(prompt: str, low: int, high: int) -> None:
    result = decompose(prompt)
    duration = result.intent.duration
    assert duration is not None and (duration.min, duration.max) == (low, high)
    assert "duration" not in result.inferred_fields


def test_an_intro_length_is_a_structure_hint_not_the_song_length() -> None:
    result = decompose("house, 8 bar intro, 64 bars")
    assert "8-bar intro" in result.intent.structure_hints
    assert result.intent.duration is not None and result.intent.duration.min == 64


@pytest.mark.parametrize(
    ("prompt", "hint"),
    [
        ("pop, no chorus", "no chorus"),
        ("house with a long intro", "long intro"),
        ("techno, drop at bar 32", "drop at bar 32"),
        ("lofi, loop-based", "loop-based"),
        ("just a loop, trap", "loop-based"),
        ("house, four on the floor", "4-on-floor"),
        ("garage, half-time feel", "half-time"),
        ("trap, hard ending", "no outro"),
    ],
)
def test_structure_hints(prompt: str, hint: str) -> None:
    assert hint in decompose(prompt).intent.structure_hints


def test_a_loop_without_a_length_is_a_loop_length() -> None:
    duration = decompose("lofi, just a loop").intent.duration
    assert duration is not None and duration.max <= 16


@pytest.mark.parametrize(
    ("prompt", "constraint"),
    [
        ("trap, no drums except the kick", "no drums except kick"),
        ("trap, just kick for drums", "no drums except kick"),
        ("ambient, no reverb", "no reverb"),
        ("lofi, keep it simple", "keep it simple"),
        ("lofi, stripped back", "keep it simple"),
        ("ambient, drumless", "no drums"),
        ("trap, no 808s", "no 808"),
    ],
)
def test_constraints(prompt: str, constraint: str) -> None:
    assert decompose(prompt).intent.constraints == [constraint]


def test_drumless_means_no_drum_track() -> None:
    roles = decompose("lofi with piano, no drums").intent.roles
    assert "drums" not in roles and "chords" in roles


def test_piano_only_is_just_the_piano() -> None:
    intent = decompose("solo piano, sad, 70 bpm").intent
    assert intent.roles == ["chords", "lead"]  # the left hand's chords, the right hand's tune
    assert intent.instrument_requests == ["piano"]


@pytest.mark.parametrize(
    ("prompt", "influences", "genre"),
    [
        ("Burial vibes", ["Burial"], "uk_garage"),
        ("frank ocean meets burial", ["Frank Ocean", "Burial"], "neo_soul"),
        ("Future type beat", ["Future"], "trap"),
        ("Beyonce style r&b", ["Beyoncé"], "rnb"),
        ("like Tyler, the Creator", ["Tyler, the Creator"], "hip_hop"),
        ("joey badass type beat", ["Joey Bada$$"], "boom_bap"),
        ("something like Beach House", ["Beach House"], "indie"),
    ],
)
def test_artists_are_recognised_however_written(
    prompt: str, influences: list[str], genre: str
) -> None:
    intent = decompose(prompt).intent
    assert intent.influences == influences
    assert intent.genre[0] == genre


@pytest.mark.parametrize(
    ("prompt", "genre", "influences"),
    [
        ("future bass, euphoric", "future_bass", []),
        ("beach house vibes, summer", "house", []),
    ],
)
def test_words_are_not_mistaken_for_everyday_artists(
    prompt: str, genre: str, influences: list[str]
) -> None:
    intent = decompose(prompt).intent
    assert intent.genre[0] == genre
    assert intent.influences == influences


def test_an_unknown_name_is_a_loose_influence_with_a_note() -> None:
    intent = decompose("dark trap in the style of Zorblax Quintet").intent
    assert intent.genre == ["trap"]
    assert intent.influences == ["Zorblax Quintet"]
    unknown = intent.influence_analysis[0]
    assert not unknown.known and unknown.confidence < 0.5
    note = intent.ambiguities[0]
    assert (note.field, note.severity) == ("influences", "optional")
    assert "Zorblax Quintet" in note.reason


@pytest.mark.parametrize(
    "prompt", ["Sad Piano Ballad In C Minor", "Chill beat for Sunday in London", "Make me a beat"]
)
def test_capitalised_words_are_not_artists(prompt: str) -> None:
    assert decompose(prompt).intent.influences == []


def test_instruments_become_roles() -> None:
    intent = decompose("house with rhodes, sub bass and congas").intent
    assert intent.instrument_requests == ["rhodes", "sub bass", "congas"]
    assert {"keys", "sub_bass", "percussion", "drums"} <= set(intent.roles)
