"""Filling what the prompt left open from conventions: genre, key, dials, length, moods."""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

from muse_tui.compose.intent.extract import PromptReading
from muse_tui.compose.intent.tempo import genre_words
from muse_tui.contracts.intent import (
    Ambiguity,
    CreativityDials,
    DurationRange,
    GenreDNAVector,
    KeyAnalysis,
)
from muse_tui.knowledge.artists import ArtistTable
from muse_tui.knowledge.genres import GenreTable
from muse_tui.knowledge.lexicon import IntentLexicon
from muse_tui.theory.key import mode_name

#: A genre written just before another ("jazz house") colours it rather than equals it.
MODIFIER_WEIGHT = 0.6
#: A genre that arrives only through a named artist, beside genres named outright.
INFLUENCE_WEIGHT = 0.5
#: The shortest and longest song in bars, from the prompt or `--bars` alike.
SONG_BARS = (8, 512)


@dataclass
class GenreChoice:
    """The genres to blend, how much of each, and whether the prompt named them."""

    weights: dict[str, float]
    named: list[str]
    inferred: bool
    ambiguity: Ambiguity | None = None


def choose_genres(
    reading: PromptReading,
    artists: ArtistTable,
    lexicon: IntentLexicon,
    genres: GenreTable,
    preferred_genre: str | None = None,
) -> GenreChoice:
    """Named genres first (in order), then artists' genres; else a guess from moods and words."""
    weights: dict[str, float] = {}
    for index, mention in enumerate(reading.genres):
        following = reading.genres[index + 1 : index + 2]
        modifier = bool(following) and reading.compound(mention, following[0])
        weight = MODIFIER_WEIGHT if modifier and following[0].genre != mention.genre else 1.0
        weights[mention.genre] = max(weights.get(mention.genre, 0.0), weight)
    named = list(weights)
    for name in reading.artists:
        genre = artists.get(name).genre
        if not named:
            weights[genre] = weights.get(genre, 0.0) + 1.0
        elif genre not in named:
            weights[genre] = weights.get(genre, 0.0) + INFLUENCE_WEIGHT
    if weights:
        return GenreChoice(weights, named, inferred=not named)

    hints = _genre_hints(reading, lexicon, genres)
    default = preferred_genre if preferred_genre in genres else lexicon.default_genre
    concrete = reading.is_specific
    if hints and (concrete or len(hints) == 1):
        ambiguity = None
        if len(hints) > 1:
            ambiguity = Ambiguity(
                field="genre",
                reason=f"No genre was named, so I went with {_genre_list(hints[:1], genres)}; "
                f"{_genre_list(hints[1:4], genres, 'or')} would suit too.",
                options=hints[:4],
                default_value=hints[0],
                severity="optional",
            )
        return GenreChoice({hints[0]: 1.0}, [], True, ambiguity)
    if not hints and concrete:
        return GenreChoice({default: 1.0}, [], True)
    options = hints[:4] or list(lexicon.vague_options)
    ambiguity = Ambiguity(
        field="genre",
        reason=f"{_quoted(reading.text)} could go several ways, so pick a genre to start from: "
        f"{_genre_list(options, genres, 'or')}.",
        options=options,
        default_value=options[0],
        severity="blocking",
    )
    return GenreChoice({options[0]: 1.0}, [], True, ambiguity)


def _genre_hints(reading: PromptReading, lexicon: IntentLexicon, genres: GenreTable) -> list[str]:
    """Genres suggested by vague words, moods and instruments, strongest first."""
    scores: dict[str, float] = {}
    sources: list[tuple[list[str], float]] = [
        (lexicon.vague_genre_words[w], 1.5) for w in reading.vague_genre_words
    ]
    sources += [(lexicon.tempo_words[w].genre_hints, 1.5) for w in reading.tempo_words]
    sources += [(lexicon.moods[m].genre_hints, 1.0) for m in reading.moods]
    sources += [
        ([hint], 0.8)
        for i in reading.instruments
        if (hint := lexicon.instruments[i].genre_hint) is not None
    ]
    sources = [(hints, strength) for hints, strength in sources if hints]
    for order, (hints, strength) in enumerate(sources):
        for rank, genre in enumerate(hints):
            score = strength / (order + 1) * (1 - rank * 0.15)
            scores[genre] = scores.get(genre, 0.0) + score
    ranked = sorted(scores, key=lambda g: -scores[g])
    if reading.tempo and reading.tempo.bpms:
        bpm = reading.tempo.bpms[0]
        fitting = [
            g for g in ranked if genres.get(g).tempo_range[0] <= bpm <= genres.get(g).tempo_range[1]
        ]
        ranked = fitting or ranked
    return ranked


def choose_key(
    reading: PromptReading, dna: GenreDNAVector, moods: list[str], lexicon: IntentLexicon
) -> tuple[KeyAnalysis, bool, bool]:
    """The key: as asked, from the progression, by mood, or by genre convention.

    Returns the analysis and whether the tonic and the mode were inferred. A
    guessed tonic is picked from the genre's preferred keys by a checksum of the
    prompt, so one prompt always gets the same key but prompts don't all share one.
    """
    tonic = next((k.tonic for k in reading.keys if k.tonic), None)
    mode = next((k.mode for k in reading.keys if k.mode), None)
    tonic_asked, mode_asked = tonic is not None, mode is not None
    from_chords = _key_of_progression(reading.progression)
    if from_chords is not None:
        tonic = tonic or from_chords[0]
        mode = mode or from_chords[1]
    mood_mode = _mood_mode(moods, dna, lexicon)
    if mode is None:
        mode = mood_mode or dna.preferred_modes[0]
    if tonic is None:
        folded = " ".join(reading.text.lower().split())
        # "surrogatepass": a prompt from argv may carry undecodable bytes as lone surrogates
        digest = zlib.crc32(folded.encode("utf-8", "surrogatepass"))
        tonic = dna.preferred_keys[digest % len(dna.preferred_keys)]
    named = f"{tonic} {_mode_words(mode)}"
    if tonic_asked and mode_asked:
        source, confidence, why = "explicit", 1.0, f"You asked for {named}."
    elif tonic_asked:
        source, confidence = "explicit", 0.8
        why = f"You asked for {tonic}; {_mode_words(mode)} suits {genre_words(dna)}."
    elif from_chords and from_chords[0]:
        source, confidence = "explicit", 0.75
        why = f"{named} is where your progression starts."
    elif from_chords:
        source, confidence = "genre_convention", 0.6
        why = f"{named}: your numerals start on a {_mode_words(mode)} chord."
    elif not mode_asked and mood_mode is not None and mode == mood_mode:
        source, confidence = "mood_mapping", 0.6
        why = f"{named}: the mood asks for {_mode_words(mode)}."
    else:
        source, confidence = "genre_convention", 0.5
        why = f"{named} is a common key for {genre_words(dna)}."
    analysis = KeyAnalysis(
        root=tonic, mode=mode, source=source, confidence=confidence, reasoning=why
    )
    return analysis, not tonic_asked, not mode_asked


def _mood_mode(moods: list[str], dna: GenreDNAVector, lexicon: IntentLexicon) -> str | None:
    """The mode most moods lean to; modal leans only where the genre uses that mode."""
    votes: dict[str, int] = {}
    for mood in moods:
        lean = lexicon.moods[mood].mode if mood in lexicon.moods else None
        if lean and (lean in ("major", "minor") or lean in dna.preferred_modes):
            votes[lean] = votes.get(lean, 0) + 1
    return max(votes, key=lambda m: votes[m]) if votes else None


def _key_of_progression(progression: list[str]) -> tuple[str | None, str] | None:
    """Chord names give a tonic and mode ("Cm Ab Eb Bb": C minor); numerals only a mode."""
    if not progression:
        return None
    first = progression[0].split("/")[0]
    if first[0] not in "ABCDEFG":
        numeral = first.lstrip("b#")
        return None, "major" if numeral[:1].isupper() else "minor"
    tonic = first[:2] if first[1:2] in ("#", "b") else first[:1]
    quality = first[len(tonic) :]
    minor = quality.startswith("m") and not quality.startswith("maj")
    return tonic, "minor" if minor else "major"


def creativity_dials(
    dna: GenreDNAVector, reading: PromptReading, lexicon: IntentLexicon
) -> CreativityDials:
    """The genre's dials moved by moods ("dark" +0.1 harmonic), requests and constraints."""
    harmonic, rhythmic = dna.creativity.harmonic, dna.creativity.rhythmic
    nudges = [lexicon.moods[m] for m in reading.moods]
    nudges += [lexicon.dial_phrases[d] for d in reading.dial_requests]
    nudges += [lexicon.constraints[c] for c in reading.constraints]
    for nudge in nudges:
        harmonic += nudge.harmonic
        rhythmic += nudge.rhythmic
    return CreativityDials(harmonic=_dial(harmonic), rhythmic=_dial(rhythmic))


def _dial(value: float) -> float:
    return round(min(max(value, 0.0), 1.0), 3)


def song_length(
    reading: PromptReading,
    bpm: float,
    loop: bool,
    lexicon: IntentLexicon,
    *,
    beats_per_bar: float = 4.0,
) -> tuple[DurationRange, bool, Ambiguity | None]:
    """Bars from "32 bars" or "2 minutes" at `bpm` (quarter notes), within SONG_BARS; else the
    usual length. Minutes count the meter's bars: two minutes of 3/4 is a third more bars
    than two of 4/4.

    A length outside SONG_BARS (what `--bars` accepts) is clamped, and the
    returned note says so in one sentence.
    """
    asked = reading.length
    if asked is None and loop:  # "a short loop" is a length asked for, not one guessed
        low, high = lexicon.loop_bars
        return DurationRange(min=low, max=high), False, None
    if asked is None:
        short, long = lexicon.song_minutes
        low = max(8, 8 * round(short * bpm / beats_per_bar / 8))
        high = max(low, 8 * round(long * bpm / beats_per_bar / 8))
        return DurationRange(min=low, max=high), True, None
    if asked.unit == "bars":
        low, high = max(1, int(asked.low)), max(1, int(asked.high))
    else:
        low = max(4, 4 * math.floor(asked.low * bpm / beats_per_bar / 4))
        high = max(low, 4 * math.ceil(asked.high * bpm / beats_per_bar / 4))
    shortest, longest = SONG_BARS
    bounded = DurationRange(
        min=min(max(low, shortest), longest), max=min(max(high, shortest), longest)
    )
    if (bounded.min, bounded.max) == (low, high):
        return bounded, False, None
    wanted = f"You asked for {_span(low, high)} bar{'' if high == 1 else 's'}"
    if asked.unit == "minutes":
        minutes = _span(asked.low, asked.high, "g")
        plural = "" if asked.high == 1 else "s"
        wanted = f"{minutes} minute{plural} at {bpm:g} BPM is {_span(low, high)} bars"
    became = _span(bounded.min, bounded.max)
    limit = f"at most {longest}" if high > longest else f"at least {shortest}"
    note = Ambiguity(
        field="duration",
        reason=f"{wanted}; a song has {limit} bars, so this one has {became}.",
        options=[became],
        default_value=became,
        severity="optional",
    )
    return bounded, False, note


def _span(low: float, high: float, spec: str = ",") -> str:
    return f"{low:{spec}}" if low == high else f"{low:{spec}}-{high:{spec}}"


def song_moods(
    reading: PromptReading, artists: ArtistTable, primary: str, lexicon: IntentLexicon
) -> tuple[list[str], bool]:
    """The moods asked for; else the named artists' moods; else the genre's usual ones."""
    if reading.moods:
        return list(reading.moods), False
    moods: list[str] = []
    for name in reading.artists:
        moods += [m for m in artists.get(name).moods[:1] if m not in moods]
    return (moods or list(lexicon.genre_moods.get(primary, []))), True


def _genre_list(ids: list[str], genres: GenreTable, joiner: str = "and") -> str:
    names = [genre_words(genres.get(g)) for g in ids]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {joiner} {names[-1]}"


def _quoted(text: str, limit: int = 60) -> str:
    if not text.strip():
        return "An empty prompt"
    return f"“{text if len(text) <= limit else text[: limit - 1].rstrip() + '…'}”"


def _mode_words(mode: str) -> str:
    """A mode as a producer reads it ('harmonic_minor' → 'harmonic minor')."""
    return mode_name(mode) or mode
