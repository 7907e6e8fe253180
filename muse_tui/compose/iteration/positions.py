"""Where a request lands: a `Position` read from the producer's words, resolved against the song.

"at bar 9", "the second chorus", "after the intro", "Loop B", "4 bars before
the last chorus", "before chorus - 4". Reading needs no song; resolving does,
and a section the song does not have is refused in one sentence that lists the
sections it does have, so the producer can say it again with a real name.
"""

from __future__ import annotations

import re
from functools import cache

from muse_tui.contracts import Position, Relation, Section, SongState
from muse_tui.knowledge.edit_words import edit_words

from .revision import EditError, listed
from .section_edits import sections_of

#: Section names a song may carry that are not section kinds ("Loop B", "Part 2").
_NAMED = r"(?:loop|part|scene|section)\s+(?:[a-z]|\d{1,2})"


def read_position(text: str) -> Position | None:
    """The position a clause names, or None: a bar number wins over a section word."""
    lower = " ".join(text.lower().split())
    if bar := re.search(r"\b(?:bar|measure)\s+(\d{1,4})\b", lower):
        relation = _relation(lower[: bar.start()])
        return Position(bar=max(1, int(bar.group(1))), relation=relation)
    found = _section_pattern().search(lower)
    if found is None:
        return None
    section = found.group("kind")
    ordinal = _ordinal(found.group("ord"), found.group("num"))
    if re.fullmatch(_NAMED, section):
        section, ordinal = " ".join(w.capitalize() for w in section.split()), 1
    else:
        section = edit_words().section_words.get(section, section)
    before = lower[: found.start()]
    relation = _relation(before)
    offset = _offset(before, lower[found.end() :], relation)
    return Position(section=section, ordinal=ordinal, relation=relation, offset_bars=offset)


def section_index(song: SongState, position: Position) -> int:
    """The index of the section a position names; EditError listing the song's sections if none."""
    if position.section is None:
        return bar_section(song, bar_of(song, position))
    sections = sections_of(song)
    wanted = position.section.lower().replace("-", "_").replace(" ", "_")
    named = [i for i, s in enumerate(sections) if s.name.lower().replace(" ", "_") == wanted]
    if named:
        return named[0]
    of_kind = [i for i, s in enumerate(sections) if s.kind == wanted]
    if not of_kind:
        raise EditError(unknown_section(song, position.section))
    number = position.ordinal if position.ordinal > 0 else len(of_kind) + position.ordinal + 1
    if not 1 <= number <= len(of_kind):
        names = listed([sections[i].name for i in of_kind])
        raise EditError(f"this song has only {len(of_kind)} {_plural(wanted)} ({names}).")
    return of_kind[number - 1]


def bar_of(song: SongState, position: Position) -> int:
    """The 0-based bar a position resolves to (a section's start, or its end after "after")."""
    if position.bar is not None:
        bar = position.bar - 1
    else:
        section = sections_of(song)[section_index(song, position)]
        bar = section.end_bar if position.relation == "after" else section.start_bar
    bar += position.offset_bars
    total = song_bars(song)
    if not 0 <= bar <= total:
        raise EditError(f"bar {bar + 1} is outside the song, which has {total} bars.")
    return bar


def beat_of(song: SongState, position: Position) -> float:
    """The beat (from the song's start) a position resolves to."""
    return bar_of(song, position) * song.beats_per_bar


def bar_section(song: SongState, bar: int) -> int:
    """The index of the section that holds a 0-based bar (the last one at or past the end)."""
    sections = sections_of(song)
    found = (i for i, s in enumerate(sections) if s.start_bar <= bar < s.end_bar)
    return next(found, len(sections) - 1)


def song_bars(song: SongState) -> int:
    """How many bars the song's sections span."""
    return sections_of(song)[-1].end_bar


def unknown_section(song: SongState, name: str) -> str:
    """One sentence: the section is not there, and which ones are."""
    have = listed([_with_bars(s) for s in sections_of(song)])
    return f"There is no {name.replace('_', '-')} in this song; it has {have}."


def _with_bars(section: Section) -> str:
    return f"{section.name} (bars {section.start_bar + 1}–{section.end_bar})"


def _plural(kind: str) -> str:
    word = kind.replace("_", "-")
    return f"{word}es" if word.endswith(("ch", "sh", "x", "s")) else f"{word}s"


@cache
def _section_pattern() -> re.Pattern[str]:
    words = edit_words()
    kinds = sorted(words.section_words, key=len, reverse=True)
    ordinals = "|".join(sorted(words.ordinals, key=len, reverse=True))
    return re.compile(
        rf"\b(?:(?P<ord>{ordinals}|\d{{1,2}}(?:st|nd|rd|th))\s+)?"
        rf"(?P<kind>{_NAMED}|{'|'.join(re.escape(k) for k in kinds)})"
        r"(?:\s+(?P<num>\d{1,2})(?!\s*bars?\b))?\b"
    )


def _ordinal(word: str | None, number: str | None) -> int:
    if number:
        return max(1, int(number))
    if word is None:
        return 1
    if digits := re.match(r"\d+", word):
        return max(1, int(digits.group()))
    return edit_words().ordinals[word]


def _relation(before: str) -> Relation:
    """'before' or 'after' said just ahead of the place; otherwise 'at'."""
    found = re.findall(r"\b(before|after|ahead of|following|in|at|on|into|during)\b", before)
    last = found[-1] if found else "at"
    if last in ("before", "ahead of"):
        return "before"
    return "after" if last in ("after", "following") else "at"


def _offset(before: str, after: str, relation: str) -> int:
    """Bars either side: '4 bars before the chorus' is -4, 'the chorus - 4' is -4, '+2' is 2."""
    if sign := re.match(r"\s*([-+]|minus|plus)\s*(\d{1,3})\b", after):
        count = int(sign.group(2))
        return -count if sign.group(1) in ("-", "minus") else count
    words = edit_words().number_words
    count_word = "|".join(["\\d{1,3}", *words])
    if spaced := re.search(rf"\b({count_word})\s+bars?\s+(?:before|after)\b", before):
        said = spaced.group(1)
        count = int(said) if said.isdigit() else words[said]
        return -count if relation == "before" else count
    return 0
