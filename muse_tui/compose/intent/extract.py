"""Read a prompt into what it literally says: genres, artists, moods, tempo, key, requests.

Nothing is guessed here; `enrich` fills the gaps. Readings that claim more of
the prompt win ("future bass" over the artist Future, "Beach House" over house),
and numbers, rules and progressions are read before words so "drop at bar 32"
is never a tempo and "Cm Ab Eb Bb" never a key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from muse_tui.compose.intent.keys import KeyRequest, read_keys
from muse_tui.compose.intent.note_words import read_note_words
from muse_tui.compose.intent.numbers import (
    LengthRequest,
    TempoRequest,
    read_bare_tempo,
    read_length,
    read_progression,
    read_tempo,
)
from muse_tui.compose.intent.text import Match, PromptText
from muse_tui.compose.intent.unread import unread_words
from muse_tui.knowledge.artists import ArtistTable
from muse_tui.knowledge.lexicon import PHRASE_PRIORITY, IntentLexicon

_RULE_PRIORITY = {"constraint": 0, "structure": 1, "dial": 2}
_NAME_TOKEN = re.compile(r"[A-Z][\w$'&.\-]*[\w$]|[A-Z]{2,}")
_NAME_JOINERS = {"of", "the", "de", "van", "von", "del", "da", "la", "le", "&"}
_PUNCTUATION = ',!?;:()".'
_SENTENCE_BREAK = re.compile(r"[.!?;:\n]\s*$")
#: A genre written as a style ("Dilla-style", "Memphis style") names the song's playing.
_STYLE_WORD = re.compile(r"[\s-]style$", re.IGNORECASE)
#: What may stand between the words of a listed set ("drums, bass and keys", "piano + 808").
_LIST_GAP = re.compile(r"(?:\s*(?:,|&|\+|/|\band\b|\bplus\b)?\s*)+")
#: Words after an instrument that ask it to carry the melody ("oboe lead", "banjo solo").
_LEAD_AFTER = re.compile(r"\s+(?:lead|leads|solo|melody|on (?:the )?(?:lead|melody))\b", re.I)
#: A listed set names at least this many instruments in a row; fewer is a passing mention.
LISTED_SET_SIZE = 3


@dataclass(frozen=True)
class GenreMention:
    """A genre named in the prompt, directly, as a sub-genre, or by an instrument."""

    genre: str
    start: int
    end: int


@dataclass
class PromptReading:
    """Everything the prompt says outright, in the order it says it."""

    genres: list[GenreMention] = field(default_factory=list)
    sub_genres: list[str] = field(default_factory=list)
    artists: list[str] = field(default_factory=list)
    unknown_names: list[str] = field(default_factory=list)
    moods: list[str] = field(default_factory=list)
    tempo_words: list[str] = field(default_factory=list)
    instruments: list[str] = field(default_factory=list)
    #: The instrument written as the lead ("oboe lead", "banjo solo"), if any.
    lead_instrument: str | None = None
    #: The instruments written as one list ("drums bass chords lead"): the whole band.
    listed_instruments: list[str] = field(default_factory=list)
    vague_genre_words: list[str] = field(default_factory=list)
    has_song_word: bool = False
    dial_requests: list[str] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)
    structure: list[tuple[str, str]] = field(default_factory=list)  # (hint as written, rule)
    tempo: TempoRequest | None = None
    #: A tempo marking without a number ("Presto"): (lowest BPM, highest BPM, the word).
    tempo_marking: tuple[float, float, str] | None = None
    length: LengthRequest | None = None
    keys: list[KeyRequest] = field(default_factory=list)
    progression: list[str] = field(default_factory=list)
    #: Words of a prompt in another language that nothing read, as written.
    unread: list[str] = field(default_factory=list)
    text: str = ""

    @property
    def is_specific(self) -> bool:
        """It asks for something concrete (a beat, a tempo, a key, an instrument…).

        A specific prompt without a genre gets a best guess rather than a question.
        """
        asked = (self.has_song_word, self.tempo, self.keys, self.instruments, self.progression)
        shaped = (self.length, self.structure, self.constraints, self.dial_requests)
        return any(asked) or any(shaped) or bool(self.unknown_names)

    def compound(self, first: GenreMention, second: GenreMention) -> bool:
        """Two genres written as one name ("jazz house"): the first colours the second.

        "Dilla-style lo-fi" is not one: a genre named as a style is what the song
        is played in, so it stands beside the other at full weight.
        """
        between = self.text[first.end : second.start]
        if _STYLE_WORD.search(self.text[first.start : first.end]):
            return False
        return second.start >= first.end and re.fullmatch(r"[\s-]*", between) is not None


def _length_words(text: PromptText, lexicon: IntentLexicon) -> LengthRequest | None:
    """A length said in words ("a short fragment", "a long piece"), as minutes."""
    for word in lexicon.length_words.values():
        for match in (m for pattern in word.compiled for m in text.free_matches(pattern)):
            text.claim(match.start(), match.end())
            low, high = word.seconds
            return LengthRequest(low / 60, high / 60, "minutes")
    return None


def _tempo_marking(text: PromptText, lexicon: IntentLexicon) -> tuple[float, float, str] | None:
    """The longest tempo marking written ("allegro moderato" over "moderato"), claimed."""
    found = [
        (match, marking)
        for marking in lexicon.tempo_markings.values()
        for pattern in marking.compiled
        for match in text.free_matches(pattern)
    ]
    if not found:
        return None
    match, marking = max(found, key=lambda f: f[0].end() - f[0].start())
    text.claim(match.start(), match.end())
    low, high = marking.bpm
    return low, high, match.group(0)


def read_prompt(prompt: str, lexicon: IntentLexicon, artists: ArtistTable) -> PromptReading:
    """What `prompt` names outright."""
    text = PromptText.of(prompt)
    reading = PromptReading(text=text.text)
    reading.progression = read_progression(text)
    reading.tempo = read_tempo(text)
    reading.length = read_length(text) or _length_words(text, lexicon)
    if reading.tempo is None:
        reading.tempo_marking = _tempo_marking(text, lexicon)
    _read_rules(text, lexicon, reading)
    if reading.tempo is None:
        reading.tempo = read_bare_tempo(text)
    _read_words(text, lexicon, artists, reading)
    if not reading.genres:
        reading.genres += _genres_of_constraints(reading, lexicon)
    foreign = read_note_words(text, lexicon)  # first: "fis-Moll" holds an "f"
    reading.keys = read_keys(text, lexicon.modes, foreign)
    reading.unknown_names = _unknown_names(text, lexicon)
    reading.unread = unread_words(
        text, prompt, lexicon, foreign_key=bool(foreign), names=reading.unknown_names
    )
    return reading


def _read_rules(text: PromptText, lexicon: IntentLexicon, reading: PromptReading) -> None:
    tables = (
        ("constraint", lexicon.constraints),
        ("structure", lexicon.structure_hints),
        ("dial", lexicon.dial_phrases),
    )
    candidates = [
        Match(found.start(), found.end(), kind, name, found.groups())
        for kind, table in tables
        for name, rule in table.items()
        for pattern in rule.compiled
        for found in text.free_matches(pattern)
    ]
    for match in text.claim_longest(candidates, _RULE_PRIORITY):
        if match.kind == "constraint":
            _add(reading.constraints, match.key)
        elif match.kind == "dial":
            _add(reading.dial_requests, match.key)
        else:
            hint = _hint(match.key, next((g for g in match.groups if g), ""))
            if all(hint != written for written, _ in reading.structure):
                reading.structure.append((hint, match.key))


def _hint(name: str, group: str) -> str:
    """A structure hint as S3 reads it: `{n}` is a number ("drop at bar 32"), `{words}` the
    words as written, in lower case and single-spaced ("form v-c-v-c-b-c")."""
    if "{n}" in name:
        return name.replace("{n}", str(int(group)))
    if "{words}" in name:
        return " ".join(name.replace("{words}", group.lower()).split())
    return name


def _genres_of_constraints(reading: PromptReading, lexicon: IntentLexicon) -> list[GenreMention]:
    """The genre a constraint names ("solo piano" is a genre as well as a limit on the band)."""
    rules = (lexicon.constraints[key] for key in reading.constraints)
    return [GenreMention(rule.implies_genre, 0, 0) for rule in rules if rule.implies_genre][:1]


def _read_words(
    text: PromptText, lexicon: IntentLexicon, artists: ArtistTable, reading: PromptReading
) -> None:
    candidates = [
        Match(found.start(), found.end(), phrase.kind, phrase.key)
        for phrase in (*artists.phrases, *lexicon.phrases)
        if text.may_hold(phrase.needle)
        for found in text.free_matches(phrase.pattern)
    ]
    claimed = text.claim_longest(candidates, PHRASE_PRIORITY)
    reading.listed_instruments = _listed_set(
        text.text, [m for m in claimed if m.kind == "instrument"]
    )
    for match in claimed:
        key = match.key
        if match.kind == "genre":
            reading.genres.append(GenreMention(key, match.start, match.end))
        elif match.kind == "sub_genre":
            _add(reading.sub_genres, key)
            genre = lexicon.sub_genres[key].genre
            reading.genres.append(GenreMention(genre, match.start, match.end))
        elif match.kind == "artist":
            _add(reading.artists, key)
        elif match.kind == "mood":
            _add(reading.moods, key)
        elif match.kind == "tempo_word":
            _add(reading.tempo_words, key)
        elif match.kind == "instrument":
            _add(reading.instruments, key)
            if _LEAD_AFTER.match(text.text, match.end) and reading.lead_instrument is None:
                reading.lead_instrument = key
            implied = lexicon.instruments[key].implies_genre
            if implied:
                reading.genres.append(GenreMention(implied, match.start, match.end))
        elif match.kind == "vague_genre":
            _add(reading.vague_genre_words, key)
        elif match.kind == "song_word":
            reading.has_song_word = True


def _listed_set(text: str, mentions: list[Match]) -> list[str]:
    """The longest run of instruments written one after another, if it is a list of three+."""
    ordered = sorted(mentions, key=lambda m: m.start)
    best: list[Match] = []
    run: list[Match] = []
    for mention in ordered:
        joined = run and _LIST_GAP.fullmatch(text[run[-1].end : mention.start]) is not None
        run = [*run, mention] if joined else [mention]
        best = run if len(run) > len(best) else best
    keys = list(dict.fromkeys(m.key for m in best))
    return keys if len(keys) >= LISTED_SET_SIZE else []


def _unknown_names(text: PromptText, lexicon: IntentLexicon) -> list[str]:
    """Capitalised names the tables don't know ("in the style of Zorblax").

    A name at the start of a sentence, or anywhere in a Title Case prompt, only
    counts next to an influence cue ("meets", "type beat", "like").
    """
    free = text.free_text()
    not_names = {w.lower() for w in lexicon.not_names}
    words = re.findall(r"[A-Za-z][\w']*", text.text)
    title_case = len(words) >= 3 and sum(w[0].isupper() for w in words) >= 0.7 * len(words)
    names: list[str] = []
    for start, end in _name_runs(free, not_names):
        name = re.sub(r"'s$", "", free[start:end]).strip(".-'")
        at_sentence_start = start == 0 or bool(_SENTENCE_BREAK.search(text.text[:start]))
        cued = _next_to_cue(text.text, start, end, lexicon.influence_cues)
        if name and (cued or not (at_sentence_start or title_case)):
            _add(names, name)
    return names


def _name_runs(free: str, not_names: set[str]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    run: list[tuple[int, int, bool]] = []  # (start, end, is a joiner like "of")

    def close() -> None:
        while run and run[-1][2]:
            run.pop()
        if run:
            runs.append((run[0][0], run[-1][1]))
        run.clear()

    for token in re.finditer(r"\S+", free):
        raw = token.group()
        word = raw.strip(_PUNCTUATION)
        lead = len(raw) - len(raw.lstrip(_PUNCTUATION))
        span = (token.start() + lead, token.start() + lead + len(word))
        if run and free[run[-1][1] : token.start()] != " ":
            close()
        if _NAME_TOKEN.fullmatch(word) and word.lower() not in not_names:
            run.append((*span, False))
        elif run and word.lower() in _NAME_JOINERS:
            run.append((*span, True))
        else:
            close()
        if word != raw:  # punctuation around a word ends the name
            close()
    close()
    return runs


def _next_to_cue(text: str, start: int, end: int, cues: list[str]) -> bool:
    before = text[:start].lower().rstrip(" ,")
    after = text[end:].lower().lstrip(" ,")
    after = re.sub(r"^'s\b\s*", "", after)
    for cue in cues:
        cue = cue.lower()
        if re.search(rf"(?<!\w){re.escape(cue)}$", before):
            return True
        if cue.startswith("-") and text[end:].lower().startswith(cue):
            return True
        if re.match(rf"{re.escape(cue)}(?!\w)", after):
            return True
    return False


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)
