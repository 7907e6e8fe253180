"""Theory answers need no song, and music21 agrees with every note they name."""

from __future__ import annotations

import pytest
from music21 import harmony, pitch, roman, scale

from muse_tui.compose.answers import answer


def _pcs(names: list[str]) -> set[int]:
    return {pitch.Pitch(n.replace("b", "-") if len(n) > 1 else n).pitchClass for n in names}


@pytest.mark.parametrize(
    ("question", "symbol"),
    [
        ("notes in Cmaj9", "CM9"),
        ("what notes are in F#m7b5?", "F#m7b5"),
        ("spell Bb7", "B-7"),
        ("what's in an Ebm9 chord?", "E-m9"),
        ("notes of Dsus4", "Dsus4"),
        ("tones in Abmaj7", "A-maj7"),
        ("notes in G7b9", "G7b9"),
    ],
)
def test_a_chords_notes_are_the_ones_music21_spells(question: str, symbol: str) -> None:
    said = answer(question)
    assert said.topic == "chord_notes"
    oracle = {p.pitchClass for p in harmony.ChordSymbol(symbol).pitches}
    assert _pcs(said.facts["notes"]) == oracle
    assert said.text.startswith(said.facts["chord"])


def test_the_producers_case_is_kept_cm7_is_not_cM7() -> None:
    assert answer("notes in CM7").facts["notes"] == ["C", "E", "G", "B"]
    assert answer("notes in Cm7").facts["notes"] == ["C", "Eb", "G", "Bb"]


@pytest.mark.parametrize(
    ("question", "key", "numerals"),
    [
        ("what is a ii-V in Eb?", "E-", ["ii", "V"]),
        ("I vi IV V in G", "G", ["I", "vi", "IV", "V"]),
        ("what's a ii–V–i in C minor", "c", ["ii", "V", "i"]),
        ("play I bVII bVI in C major", "C", ["I", "bVII", "bVI"]),  # borrowed from C minor
        ("i VI VII in A minor", "a", ["i", "VI", "VII"]),
    ],
)
def test_numerals_in_a_key_are_the_chords_music21_builds(
    question: str, key: str, numerals: list[str]
) -> None:
    said = answer(question)
    assert said.topic == "numerals_in_key"
    assert [c["numeral"] for c in said.facts["chords"]] == numerals
    for row, numeral in zip(said.facts["chords"], numerals, strict=True):
        oracle = {p.pitchClass for p in roman.RomanNumeral(numeral.replace("b", "-"), key).pitches}
        assert _pcs(row["notes"]) == oracle, row


@pytest.mark.parametrize(
    ("question", "tonic", "kind"),
    [
        ("notes in D dorian", "D", scale.DorianScale),
        ("what is the Eb minor scale?", "E-", scale.MinorScale),
        ("notes in F# major", "F#", scale.MajorScale),
    ],
)
def test_a_scales_notes_are_music21s(question: str, tonic: str, kind: type) -> None:
    said = answer(question)
    assert said.topic == "scale_notes"
    oracle = {p.pitchClass for p in kind(tonic).getPitches()}
    assert _pcs(said.facts["notes"]) == oracle and len(said.facts["notes"]) == 7


def test_a_song_question_with_no_song_says_how_to_get_one() -> None:
    said = answer("why did you pick Eb minor?")
    assert said.topic == "no_session"
    assert "Compose one or open a session" in said.text


def test_a_question_no_topic_covers_says_what_can_be_asked() -> None:
    said = answer("who is the best drummer ever?")
    assert said.topic == "unknown" and "notes in Cmaj9" in said.text


def test_an_unreadable_chord_is_one_sentence() -> None:
    said = answer("notes in Hmaj7")
    assert said.topic in ("chord_notes", "unknown")
    assert "\n" not in said.text and "Traceback" not in said.text
