"""Words of a prompt in another language that nothing read: said, never dropped in silence.

The lexicon reads English, and keys and tempo words in French, Spanish, Italian and
German. A prompt written in one of those ("house mélancolique avec des cordes en ré
mineur") would otherwise lose its other words quietly and have them guessed. A prompt
counts as another language's when a key was named in it, a word carries an accent, or
one of the lexicon's `foreignWords` (en, avec, con, mit…) is left over; then every
word left over, but those, is named back as written.
"""

from __future__ import annotations

import re

from muse_tui.compose.intent.text import PromptText
from muse_tui.knowledge.lexicon import IntentLexicon, fold

_WORD = re.compile(r"[^\W\d_](?:[\w'-]*[^\W_])?")


def unread_words(
    text: PromptText, prompt: str, lexicon: IntentLexicon, *, foreign_key: bool, names: list[str]
) -> list[str]:
    """The words nobody read in a prompt in another language, as the producer wrote them."""
    written = _WORD.findall(prompt)
    as_written = {fold(word).lower(): word for word in written}
    left = [word.lower() for word in _WORD.findall(text.free_text())]
    function_words = {word.lower() for word in lexicon.foreign_words}
    named = {fold(part).lower() for name in names for part in _WORD.findall(name)}
    accented = any(fold(word) != word for word in written if fold(word).lower() in left)
    if not (foreign_key or accented or function_words.intersection(left)):
        return []
    unread = [w for w in left if w not in function_words and w not in named and len(w) > 1]
    return list(dict.fromkeys(as_written.get(word, word) for word in unread))


def unread_sentence(words: list[str]) -> str:
    """What the stage line says of them."""
    listed = ", ".join(f"'{word}'" for word in words)
    return (
        f"I didn't understand {listed}: I read English, and keys and tempo words in French, "
        "Spanish, Italian and German."
    )
