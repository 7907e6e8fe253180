"""Phrases passed over by their needle are exactly those whose pattern could not match."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from muse_tui.compose.intent.extract import read_prompt
from muse_tui.compose.intent.text import PromptText
from muse_tui.knowledge.artists import artist_table
from muse_tui.knowledge.lexicon import Phrase, intent_lexicon

LEXICON = intent_lexicon()
ARTISTS = artist_table()
WORDS = sorted(
    {
        word
        for phrase in (*ARTISTS.phrases, *LEXICON.phrases)
        for word in phrase.key.replace("_", " ").split()
    }
)


@st.composite
def prompts(draw: st.DrawFn) -> str:
    """Prompts made of the lexicon's own words, in any case, with separators and noise."""
    pieces = draw(
        st.lists(
            st.one_of(
                st.sampled_from(WORDS),
                st.sampled_from(["lo-fi", "LoFi", "r&b", "Neo Soul", "drum'n'bass", "140", "Am"]),
                st.text(alphabet="abcdeéıſKİ -_,'", max_size=8),
            ),
            max_size=8,
        )
    )
    separators = draw(st.lists(st.sampled_from([" ", ", ", "-", "_", ""]), min_size=len(pieces)))
    text = "".join(p + s for p, s in zip(pieces, separators, strict=False))
    return draw(st.sampled_from([text, text.upper(), text.title()]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prompt=prompts())
def test_the_needles_change_no_reading(prompt: str) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PromptText, "may_hold", lambda self, needle: True)
        every = read_prompt(prompt, LEXICON, ARTISTS)
    assert read_prompt(prompt, LEXICON, ARTISTS) == every


def test_most_phrases_are_passed_over_for_a_short_prompt() -> None:
    text = PromptText.of("drill, 140, key of F#m")
    phrases = (*ARTISTS.phrases, *LEXICON.phrases)
    tried = [p for p in phrases if text.may_hold(p.needle)]
    assert len(tried) < len(phrases) / 4
    assert any(p.key == "drill" for p in tried)


def test_a_needle_is_the_first_word_in_lower_case_and_empty_outside_ascii() -> None:
    assert Phrase.of("genre", "lofi", "Lo-Fi hip hop").needle == "lo"
    assert Phrase.of("artist", "Beyoncé", "Beyoncé").needle == "beyonce"  # folded first
    assert Phrase.of("artist", "x", "Sigur Rós").needle == "sigur"
    assert Phrase.of("mood", "x", "ǆ").needle == ""


def test_text_outside_ascii_tries_every_phrase() -> None:
    assert PromptText.of("trap with ıntro").may_hold("anything")
