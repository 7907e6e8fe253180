"""Remembered lookups answer as the lookups they replace did."""

from __future__ import annotations

from muse_tui.knowledge.genres import genre_table
from muse_tui.knowledge.lexicon import IntentLexicon, intent_lexicon
from muse_tui.theory import parse_key, parse_roman


def _searched(lexicon: IntentLexicon, text: str) -> str | None:
    """The instrument lookup as the part writers did it before it was remembered."""
    found = [
        (match.end() - match.start(), phrase.key)
        for phrase in lexicon.phrases
        if phrase.kind == "instrument" and (match := phrase.pattern.search(text))
    ]
    return max(found)[1] if found else None


def test_every_genre_instrument_word_names_what_a_search_finds() -> None:
    lexicon = intent_lexicon()
    texts = {text for dna in genre_table().genres.values() for text in dna.instruments}
    assert len(texts) > 50
    for text in sorted(texts):
        assert lexicon.instrument_in(text) == _searched(lexicon, text), text
        assert lexicon.instrument_in(text) == _searched(lexicon, text), text  # remembered


def test_a_reloaded_lexicon_remembers_nothing_of_the_old_one() -> None:
    before = intent_lexicon()
    before.instrument_in("dark bells")
    intent_lexicon.reload()
    after = intent_lexicon()
    assert after is not before
    assert after.instrument_in("dark bells") == "bells"


def test_a_remembered_numeral_is_the_same_chord_in_each_key() -> None:
    minor, major = parse_key("F# minor"), parse_key("A major")
    assert parse_roman("V7", minor).symbol == "C#7"
    assert parse_roman("V7", major).symbol == "E7"
    assert parse_roman("V7", minor) is parse_roman("V7", minor)
