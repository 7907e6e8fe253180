"""Keys written in French, Spanish, Italian or German: "en ré mineur", "la menor", "fis-Moll".

The prompt is folded before it is read (accents off: "ré" is "re"). A solfège name
(do, ré, mi… from the lexicon's `noteWords`) counts as a key only with a mode word
after it, and a sharp or flat word between ("si bemol menor"): alone, "la", "do" and
"mi" are words. German names count only before Dur or Moll, and follow German rules:
H is B, B is B flat, "-is" sharpens (fis is F#), "-es" or "-s" flattens (es is Eb).
"""

from __future__ import annotations

import re

from muse_tui.compose.intent.keys import KeyRequest, enharmonic
from muse_tui.compose.intent.text import PromptText
from muse_tui.knowledge.lexicon import IntentLexicon

_GERMAN = re.compile(
    r"(?<![\w#])(?P<note>[a-h])(?P<suffix>is|es|s)?\s?-?\s?(?P<mode>dur|moll)(?!\w)", re.I
)
_GERMAN_LETTERS = {"h": "B", "b": "Bb"}


def read_note_words(prompt: PromptText, lexicon: IntentLexicon) -> list[tuple[int, KeyRequest]]:
    """Each key named in solfège or in German, with where it starts; their words are claimed."""
    found = [*_solfege(prompt, lexicon), *_german(prompt)]
    return sorted(found, key=lambda pair: pair[0])


def _solfege(prompt: PromptText, lexicon: IntentLexicon) -> list[tuple[int, KeyRequest]]:
    letters = {w: letter for letter, words in lexicon.note_words.items() for w in words}
    signs = {w: "#" if kind == "sharp" else "b" for kind, ws in lexicon.accidental_words.items()
             for w in ws}  # fmt: skip
    modes = {w: mode for mode, ws in lexicon.modes.items() for w in ws if len(w) > 2}
    if not letters or not modes:
        return []
    pattern = re.compile(
        rf"(?<!\w)(?P<note>{_either(letters)})(?:\s(?P<acc>{_either(signs)}))?"
        rf"\s(?P<mode>{_either(modes)})(?!\w)",
        re.I,
    )
    found = []
    for match in prompt.free_matches(pattern):
        tonic = letters[match["note"].lower()] + signs.get((match["acc"] or "").lower(), "")
        prompt.claim(match.start(), match.end())
        found.append((match.start(), KeyRequest(enharmonic(tonic), modes[match["mode"].lower()])))
    return found


def _german(prompt: PromptText) -> list[tuple[int, KeyRequest]]:
    found = []
    for match in prompt.free_matches(_GERMAN):
        note, suffix = match["note"].lower(), (match["suffix"] or "").lower()
        if suffix == "s" and note not in "ae":
            continue  # only "as" and "es" flatten with a bare s
        tonic = _GERMAN_LETTERS.get(note, note.upper()) if not suffix else note.upper()
        if suffix == "is":
            tonic += "#"
        elif suffix in ("es", "s"):
            tonic = "Bb" if note == "h" else tonic + "b"  # "hes" is B flat too
        mode = "minor" if match["mode"].lower() == "moll" else "major"
        prompt.claim(match.start(), match.end())
        found.append((match.start(), KeyRequest(enharmonic(tonic), mode)))
    return found


def _either(words: dict[str, str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
