"""Keys and tempos in the words of French, Spanish, Italian and German producers (issue 33).

Before, "house mélancolique en ré mineur" was composed in a major key and "lofi in
fis-Moll" in Bb major; "allegro" and "adagio" set no tempo.
"""

from __future__ import annotations

import pytest

from muse_tui.compose.intent import decompose


@pytest.mark.parametrize(
    ("prompt", "key", "mode"),
    [
        ("house mélancolique, en ré mineur", "D", "minor"),  # French
        ("trap sombre en la mineur", "A", "minor"),
        ("chill en do majeur", "C", "major"),
        ("reggaeton en sol menor", "G", "minor"),  # Spanish
        ("boom bap en si bemol menor", "Bb", "minor"),
        ("bolero en fa sostenido mayor", "F#", "major"),
        ("jazz in mi bemolle maggiore", "Eb", "major"),  # Italian
        ("pop in re minore", "D", "minor"),
        ("lofi in fis-Moll", "F#", "minor"),  # German: -is sharpens
        ("techno in H-Moll", "B", "minor"),  # H is B
        ("B-Dur ballad", "Bb", "major"),  # and B is B flat
        ("soul in Es-Dur", "Eb", "major"),  # -s/-es flattens
        ("house in as-Dur", "Ab", "major"),
        ("dark trap, 140, key of Am", "A", "minor"),  # English as before
    ],
)
def test_keys_named_in_other_languages(prompt: str, key: str, mode: str) -> None:
    intent = decompose(prompt).intent
    assert (intent.key, intent.mode) == (key, mode)


def test_a_solfege_syllable_alone_is_a_word_not_a_key() -> None:
    intent = decompose("la la la, do it slow, trap in C minor").intent
    assert (intent.key, intent.mode) == ("C", "minor")


@pytest.mark.parametrize(("slow", "fast"), [("adagio", "allegro"), ("largo", "presto")])
def test_italian_tempo_words_move_the_tempo(slow: str, fast: str) -> None:
    assert decompose(f"jazz, {slow}").intent.tempo < decompose(f"jazz, {fast}").intent.tempo


@pytest.mark.parametrize(
    ("prompt", "unread"),
    [
        ("house mélancolique, en ré mineur", ["mélancolique"]),
        ("house mélancolique avec des cordes en ré mineur", ["mélancolique", "cordes"]),
        ("lofi tranquilo con lluvia, en sol menor", ["tranquilo", "lluvia"]),
    ],
)
def test_a_word_of_another_language_not_understood_is_said(prompt: str, unread: list[str]) -> None:
    """Issue 33: a French prompt's mood word was dropped without a word, and the mood guessed."""
    result = decompose(prompt)
    notes = [a for a in result.intent.ambiguities if a.field == "words"]
    assert len(notes) == 1 and notes[0].severity == "optional"
    assert all(f"'{word}'" in notes[0].reason for word in unread), notes[0].reason
    assert notes[0].reason in result.summary, "the stage line says it, not only the intent"


@pytest.mark.parametrize(
    "prompt",
    [
        "dark trap, 140, key of Am",
        "Frank Ocean meets Burial, late-night vibes",
        "lofi hip hop, rainy evening, 80 bpm, in C minor",
        "trap sombre en la mineur",  # every word read: nothing to say
    ],
)
def test_a_prompt_read_whole_says_nothing_of_words(prompt: str) -> None:
    assert not [a for a in decompose(prompt).intent.ambiguities if a.field == "words"]
