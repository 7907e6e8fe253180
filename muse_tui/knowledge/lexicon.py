"""The words S1 understands, from `skills/harmony/intent-lexicon.json`, validated and cached.

Phrases are plain words ("lo-fi", "late night"); spaces, hyphens and
underscores between their words are interchangeable or may be left out, and a
trailing "s" is allowed. Rules (constraints, structure hints, chord and rhythm
requests) are regular expressions, matched case-insensitively as whole words.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import Field, PrivateAttr, field_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.intent import BassStyle, DrumFamily
from muse_tui.contracts.song import TrackRole
from muse_tui.knowledge.genres import GenreTable, Mode, genre_table
from muse_tui.knowledge.instruments import INSTRUMENTS_FILE, Instrument, instrument_table
from muse_tui.knowledge.loader import SkillFileError, load_table
from muse_tui.knowledge.rhythm import FAMILIES_DIR, rhythm_table
from muse_tui.knowledge.table import skill_table

LEXICON_FILE = "harmony/intent-lexicon.json"

NoteLetter = Literal["C", "D", "E", "F", "G", "A", "B"]
PhraseKind = Literal[
    "artist", "sub_genre", "genre", "instrument", "mood", "tempo_word", "vague_genre", "song_word"
]
#: Which reading wins when two phrases of the same length cover the same words.
PHRASE_PRIORITY: dict[str, int] = {
    kind: rank
    for rank, kind in enumerate(PhraseKind.__args__)  # type: ignore[attr-defined]
}

_SEPARATOR = r"[\s\-_]*"
_TYPOGRAPHY = str.maketrans({"’": "'", "‘": "'", "–": "-", "—": "-", "♯": "#", "♭": "b"})
_MOOD_NAME = re.compile(r"^[a-z][a-z\-]*$")


def fold(text: str) -> str:
    """Accents and typographic quotes/dashes/♯/♭ to ASCII, one character for one."""
    out = []
    for char in text.translate(_TYPOGRAPHY):
        if char.isascii():
            out.append(char)
            continue
        decomposed = unicodedata.normalize("NFKD", char)
        base = "".join(c for c in decomposed if not unicodedata.combining(c))
        out.append(base if len(base) == 1 else char)
    return "".join(out)


@functools.lru_cache(maxsize=8192)
def phrase_pattern(phrase: str, *, case_sensitive: bool = False) -> re.Pattern[str]:
    """A whole-word pattern for `phrase`; separators are optional, a plural 's' is allowed.

    Remembered: the lexicon is validated twice as it loads (then with the
    instruments), and its ~900 phrases overflow `re`'s own cache of 512.
    """
    words = _words(phrase)
    body = _SEPARATOR.join(re.escape(word) for word in words)
    flags = 0 if case_sensitive else re.IGNORECASE
    return re.compile(rf"(?<!\w){body}(?:'?s)?(?!\w)", flags)


def _words(phrase: str) -> list[str]:
    """The words of a phrase as its pattern spells them: folded, split at separators."""
    return [w for w in re.split(r"[\s\-_]+", fold(phrase).strip()) if w]


@functools.lru_cache(maxsize=4096)
def rule_pattern(source: str) -> re.Pattern[str]:
    """A lexicon rule's regular expression, as a case-insensitive whole-word pattern."""
    return re.compile(rf"(?<!\w)(?:{source})(?!\w)", re.IGNORECASE)


@dataclass(frozen=True)
class Phrase:
    """One way of saying something S1 knows: `kind` and `key` say what it means.

    `needle` is the phrase's first word in lower case: a prompt whose lower case
    lacks it cannot match `pattern`, so most of the ~1,400 phrases are passed
    over without running their expression. Empty when that does not hold (a
    word outside ASCII, where case folding is wider than `str.lower`).
    """

    kind: PhraseKind
    key: str
    pattern: re.Pattern[str]
    needle: str = ""

    @classmethod
    def of(cls, kind: PhraseKind, key: str, text: str, *, case_sensitive: bool = False) -> Phrase:
        """The phrase `text` read as `kind`/`key`, with its pattern and needle."""
        words = _words(text)
        first = words[0].lower() if words else ""
        return cls(
            kind,
            key,
            phrase_pattern(text, case_sensitive=case_sensitive),
            first if first.isascii() else "",
        )


class PhraseRule(Contract):
    """Regular expressions for a constraint, structure hint or chord/rhythm request."""

    patterns: list[str] = Field(min_length=1)
    _compiled: tuple[re.Pattern[str], ...] = PrivateAttr(default=())

    @field_validator("patterns")
    @classmethod
    def _valid_expressions(cls, patterns: list[str]) -> list[str]:
        for number, source in enumerate(patterns):
            try:
                re.compile(source)
                rule_pattern(source)
            except re.error as exc:
                raise ValueError(
                    f"pattern {number} {source!r} is not a valid expression: {exc}"
                ) from None
        return patterns

    def model_post_init(self, context: object, /) -> None:
        self._compiled = tuple(rule_pattern(source) for source in self.patterns)

    @property
    def compiled(self) -> tuple[re.Pattern[str], ...]:
        return self._compiled


class DialRule(PhraseRule):
    """A request that moves the creativity dials ("complex chords": harmonic +0.25)."""

    harmonic: float = Field(default=0.0, ge=-1, le=1)
    rhythmic: float = Field(default=0.0, ge=-1, le=1)


class ConstraintRule(DialRule):
    """Something the producer rules out, and what it does to the band."""

    removes_roles: list[TrackRole] = Field(default_factory=list)
    drum_voices: list[str] = Field(default_factory=list, description="only these drums play")
    muted_drum_voices: list[str] = Field(default_factory=list)
    muted_effects: list[str] = Field(default_factory=list)
    adds_instruments: list[str] = Field(default_factory=list)
    only_requested: bool = Field(default=False, description="play only what was named")
    implies_genre: str | None = Field(
        default=None, description="the genre it names when no other is named ('solo piano')"
    )


class StructureRule(PhraseRule):
    """A form or groove hint; `{n}` in its name is filled from the pattern's first group (a
    number), `{words}` with that group's words (an asked form: "form v-c-v-c-b-c")."""

    drum_family: DrumFamily | None = None
    half_time: bool | None = None
    swing: float | None = Field(default=None, ge=50, le=75)
    loop: bool = False


class MoodWord(Contract):
    """A mood, its synonyms, and how it nudges the dials, the mode and the tempo."""

    phrases: list[str] = Field(min_length=1)
    harmonic: float = Field(default=0.0, ge=-1, le=1)
    rhythmic: float = Field(default=0.0, ge=-1, le=1)
    mode: Mode | None = None
    tempo_shift: float = Field(default=0.0, ge=-1, le=1, description="-1 slowest … +1 fastest")
    genre_hints: list[str] = Field(default_factory=list, description="genres it suggests alone")


class TempoWord(Contract):
    """A word about speed ("slow", "uptempo") and where in the genre's range it points."""

    phrases: list[str] = Field(min_length=1)
    tempo_shift: float = Field(ge=-1, le=1)
    genre_hints: list[str] = Field(default_factory=list, description="for forms like 'ballad'")


class SubGenre(Contract):
    """A sub-genre and the genre whose DNA it uses."""

    genre: str
    phrases: list[str] = Field(min_length=1)
    tempo_shift: float = Field(
        default=0.0,
        ge=-1,
        le=1,
        description="where in the genre's range it sits: a jazz ballad is slow",
    )
    #: The sub-genre's own players where they differ from the genre's: a cumbia bass is not
    #: a salsa tumbao, a latin jazz band plays the clave on the kit, not the swing ride.
    bass_style: BassStyle | None = None
    drum_family: DrumFamily | None = None


class LengthWord(PhraseRule):
    """Words for a length without a number ("a short fragment", "a long piece"), in seconds."""

    seconds: tuple[float, float]
    source: str = ""


class TempoMarking(PhraseRule):
    """A tempo named by its marking ("Presto", "Largo"): the range of BPM it means."""

    bpm: tuple[float, float]
    source: str = ""


class IntentLexicon(Contract):
    """Everything S1 reads a prompt with."""

    about: str = ""
    version: int = 1
    default_genre: str
    vague_options: list[str] = Field(min_length=2)
    song_words: list[str] = Field(min_length=1)
    influence_cues: list[str] = Field(default_factory=list)
    not_names: list[str] = Field(default_factory=list)
    song_minutes: tuple[float, float] = (2.5, 3.5)
    loop_bars: tuple[int, int] = (8, 16)
    modes: dict[Mode, list[str]]
    note_words: dict[NoteLetter, list[str]] = Field(
        default_factory=dict, description="note names in solfege: do, re, mi… (la is A)"
    )
    accidental_words: dict[Literal["sharp", "flat"], list[str]] = Field(
        default_factory=dict, description="diese, bemol… after a solfege note name"
    )
    foreign_words: list[str] = Field(
        default_factory=list,
        description="en, avec, con, mit…: left over, they mark a prompt in another language",
    )
    genre_aliases: dict[str, list[str]]
    sub_genres: dict[str, SubGenre] = Field(default_factory=dict)
    vague_genre_words: dict[str, list[str]] = Field(default_factory=dict)
    genre_moods: dict[str, list[str]] = Field(default_factory=dict)
    moods: dict[str, MoodWord]
    tempo_words: dict[str, TempoWord] = Field(default_factory=dict)
    tempo_markings: dict[str, TempoMarking] = Field(default_factory=dict)
    length_words: dict[str, LengthWord] = Field(default_factory=dict)
    dial_phrases: dict[str, DialRule] = Field(default_factory=dict)
    instruments: dict[str, Instrument] = Field(
        default_factory=dict, description="read from sound/instruments.json, not written here"
    )
    constraints: dict[str, ConstraintRule] = Field(default_factory=dict)
    structure_hints: dict[str, StructureRule] = Field(default_factory=dict)
    _phrases: tuple[Phrase, ...] = PrivateAttr(default=())
    _instrument_found: dict[str, str | None] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: object, /) -> None:
        self._phrases = tuple(self._build_phrases())

    def with_instruments(self, instruments: Mapping[str, Instrument]) -> IntentLexicon:
        """A copy that reads these instrument words (the table of sound/instruments.json)."""
        return IntentLexicon.model_validate({**self.__dict__, "instruments": dict(instruments)})

    @property
    def phrases(self) -> tuple[Phrase, ...]:
        """Every plain phrase, compiled: genres, sub-genres, moods, instruments, song words."""
        return self._phrases

    def instrument_in(self, text: str) -> str | None:
        """The instrument a few words name ("dark bells" → bells): the longest phrase found.

        Remembered per text: every section of every part asks about the same few
        genre instrument lists, and each ask searches every phrase.
        """
        try:
            return self._instrument_found[text]
        except KeyError:
            pass
        found = [
            (match.end() - match.start(), phrase.key)
            for phrase in self._phrases
            if phrase.kind == "instrument" and (match := phrase.pattern.search(text))
        ]
        self._instrument_found[text] = key = max(found)[1] if found else None
        return key

    def _build_phrases(self) -> list[Phrase]:
        groups: list[tuple[PhraseKind, dict[str, list[str]]]] = [
            ("genre", self.genre_aliases),
            ("sub_genre", {k: v.phrases for k, v in self.sub_genres.items()}),
            ("vague_genre", {k: [k] for k in self.vague_genre_words}),
            ("mood", {k: v.phrases for k, v in self.moods.items()}),
            ("tempo_word", {k: v.phrases for k, v in self.tempo_words.items()}),
            ("instrument", {k: v.phrases for k, v in self.instruments.items()}),
            ("song_word", {w: [w] for w in self.song_words}),
        ]
        return [
            Phrase.of(kind, key, text)
            for kind, table in groups
            for key, texts in table.items()
            for text in texts
        ]


@skill_table
def intent_lexicon(root: Path) -> IntentLexicon:
    """The intent lexicon under `root`, validated and cached."""
    genres = genre_table(root)
    lexicon = load_table(LEXICON_FILE, IntentLexicon, root=root).with_instruments(
        instrument_table(root).instruments
    )
    _check_against(lexicon, genres, rhythm_table(root).drums.families, root / LEXICON_FILE)
    return lexicon


def _check_against(
    lexicon: IntentLexicon, genres: GenreTable, families: Mapping[str, object], path: Path
) -> None:
    """Every genre, mood, instrument and drum family the lexicon names must exist."""

    def genre(where: str, genre_id: str | None) -> None:
        if genre_id is not None and genre_id not in genres:
            raise SkillFileError(path, f"{where}: {genre_id!r} is not a genre in genre-dna.json")

    genre("defaultGenre", lexicon.default_genre)
    for option in lexicon.vague_options:
        genre("vagueOptions", option)
    for genre_id in lexicon.genre_aliases:
        genre(f"genreAliases.{genre_id}", genre_id)
    for genre_id in genres.genres:
        if genre_id not in lexicon.genre_aliases:
            raise SkillFileError(
                path, f"genreAliases.{genre_id}: every genre needs a way to say it"
            )
        if genre_id not in lexicon.genre_moods:
            raise SkillFileError(path, f"genreMoods.{genre_id}: every genre needs default moods")
    for name, sub in lexicon.sub_genres.items():
        genre(f"subGenres.{name}.genre", sub.genre)
    for word, hints in lexicon.vague_genre_words.items():
        for hint in hints:
            genre(f"vagueGenreWords.{word}", hint)
    for genre_id, moods in lexicon.genre_moods.items():
        genre(f"genreMoods.{genre_id}", genre_id)
        for mood in moods:
            if mood not in lexicon.moods:
                raise SkillFileError(path, f"genreMoods.{genre_id}: {mood!r} is not in moods")
    for name, mood in lexicon.moods.items():
        if not _MOOD_NAME.match(name):
            raise SkillFileError(path, f"moods.{name}: a mood is lowercase words joined by '-'")
        for hint in mood.genre_hints:
            genre(f"moods.{name}.genreHints", hint)
    for name, word in lexicon.tempo_words.items():
        for hint in word.genre_hints:
            genre(f"tempoWords.{name}.genreHints", hint)
    for name, instrument in lexicon.instruments.items():
        for field, genre_id in (
            ("genreHint", instrument.genre_hint),
            ("impliesGenre", instrument.implies_genre),
        ):
            if genre_id is not None and genre_id not in genres:
                raise SkillFileError(
                    path.parent.parent / INSTRUMENTS_FILE,
                    f"instruments.{name}.{field}: {genre_id!r} is not a genre in genre-dna.json",
                )
    for name, rule in lexicon.constraints.items():
        for added in rule.adds_instruments:
            if added not in lexicon.instruments:
                raise SkillFileError(
                    path, f"constraints.{name}.addsInstruments: {added!r} is not an instrument"
                )
    for name, hint in lexicon.structure_hints.items():
        family = hint.drum_family
        if family is not None and family != "none" and family not in families:
            raise SkillFileError(
                path,
                f"structureHints.{name}.drumFamily: {family!r} is not a family in {FAMILIES_DIR}/",
            )
        for slot in ("{n}", "{words}"):
            if slot in name and any(p.groups < 1 for p in hint.compiled):
                where = f"structureHints.{name}.patterns"
                raise SkillFileError(path, f"{where}: every pattern needs a (group) for {slot}")
