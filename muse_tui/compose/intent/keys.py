"""Keys and modes written in a prompt: "key of Am", "in F# minor", "Ebm", "Eb", "D dorian".

A letter only counts as a key when something says so: "key of"/"in", a minor
or major suffix, a mode word, or a sharp/flat. "a dark beat" is not A and
"be" is not B.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from muse_tui.compose.intent.text import PromptText
from muse_tui.theory.key import mode_name

_ENHARMONIC = {"E#": "F", "B#": "C", "Fb": "E", "Cb": "B"}
#: The lexicon's modes that name more than major or minor ("a dorian feel").
_PLAIN = ("major", "minor")
#: A lone capital letter as an item of a comma-separated list is a key.
_LISTED = re.compile(r"(?<=,)\s?(?P<note>[A-G])(?=\s?,|\s?$)")
#: Words after "a minor"/"a dorian" that make the "a" an article: "a minor key".
_KEY_NOUNS = r"(?:key|mode|scale|tonality|feel|vibe|flavou?r|sound)"


@dataclass(frozen=True)
class KeyRequest:
    """A tonic and/or mode the producer named; either may be missing."""

    tonic: str | None
    mode: str | None


def read_keys(
    prompt: PromptText,
    mode_words: dict[str, list[str]],
    already: list[tuple[int, KeyRequest]] | None = None,
) -> list[KeyRequest]:
    """Every key or mode named, in the order written, among those `already` read (by place)."""
    words = {w.lower(): mode for mode, spellings in mode_words.items() for w in spellings}
    long_words = sorted((w for w in words if len(w) > 1), key=len, reverse=True)
    spelled = "|".join(re.escape(w).replace(r"\ ", r"\s?") for w in long_words)
    acc = r"(?P<acc>#|b|\s?-?\s?(?i:sharp|flat)(?!\w))?"
    mode = rf"(?:(?P<short>m|min|maj)(?![a-z])|\s?-?\s?(?P<mode>(?i:{spelled}))(?!\w))?"
    found: list[tuple[int, KeyRequest]] = list(already or ())

    context = re.compile(
        rf"(?<!\w)(?P<ctx>in\s(?:the\s)?key\sof|key\sof|key\s?(?:is|=|:)?|in|tonic)\s"
        rf"(?P<note>[A-Ga-g]){acc}{mode}(?![\w#])",
        re.I,
    )
    upper = re.compile(rf"(?<![\w#])(?P<note>[A-G]){acc}{mode}(?![\w#])")
    lower = re.compile(rf"(?<![\w#])(?P<note>[a-g]){acc}{mode}(?![\w#])")
    for pattern, strictness in ((context, "context"), (upper, "upper"), (lower, "lower")):
        for match in prompt.free_matches(pattern):
            request = _key_from(match, words, strictness, prompt.text)
            if request is not None:
                prompt.claim(match.start(), match.end())
                found.append((match.start(), request))
    for match in prompt.free_matches(_LISTED):  # "house, 126, uplifting, C"
        prompt.claim(match.start(), match.end())
        found.append((match.start(), KeyRequest(_tonic(match["note"], ""), None)))

    mode_only = [
        re.compile(rf"(?<!\w)(?:in\s)?(?:an?\s)?(?P<mode>{spelled})\s{_KEY_NOUNS}(?!\w)", re.I),
        re.compile(rf"(?<!\w)in\s(?P<mode>{spelled})(?!\w)", re.I),
        re.compile(rf"(?<!\w)(?P<mode>{'|'.join(_modal_spellings(words))})(?!\w)", re.I),
    ]
    for pattern in mode_only:
        for match in prompt.free_matches(pattern):
            prompt.claim(match.start(), match.end())
            found.append((match.start(), KeyRequest(None, words[_squash(match["mode"])])))
    return [request for _, request in sorted(found, key=lambda pair: pair[0])]


def _key_from(
    match: re.Match[str], words: dict[str, str], strictness: str, text: str
) -> KeyRequest | None:
    note, accidental = match["note"], (match["acc"] or "").strip(" -").lower()
    short, spelled = match["short"], match["mode"]
    named_mode = mode_name(short) if short else words.get(_squash(spelled or ""))
    if strictness == "context":
        context = match["ctx"].lower()
        if context == "in" and note.islower() and not accidental and not named_mode:
            return None  # "in a dark mood"
    elif strictness == "upper":
        if not accidental and not named_mode:
            return None  # "A dark beat"
    else:
        if not accidental and not spelled:
            return None  # "am", "be"
        if accidental == "b" and not named_mode:
            return None  # "eb" alone could be anything; "Eb" is fine
    if note.lower() == "a" and spelled and not accidental and _article(match, text):
        return KeyRequest(None, named_mode)  # "in a minor key": some minor key
    return KeyRequest(_tonic(note, accidental), named_mode)


def _article(match: re.Match[str], text: str) -> bool:
    """'a minor key' or 'a dorian feel': the 'a' is an article, not the note A."""
    if match["note"] != "a":
        return False
    return re.match(rf"\s{_KEY_NOUNS}(?!\w)", text[match.end() :], re.I) is not None


def _tonic(note: str, accidental: str) -> str:
    sign = "#" if accidental in {"#", "sharp"} else "b" if accidental in {"b", "flat"} else ""
    return enharmonic(note.upper() + sign)


def enharmonic(tonic: str) -> str:
    """A tonic as a key is named: E# is F, Cb is B."""
    return _ENHARMONIC.get(tonic, tonic)


def _squash(word: str) -> str:
    return " ".join(word.lower().split())


def _modal_spellings(words: dict[str, str]) -> list[str]:
    modal = [w for w, mode in words.items() if mode not in _PLAIN and len(w) > 3]
    return [re.escape(w).replace(r"\ ", r"\s?") for w in sorted(modal, key=len, reverse=True)]
