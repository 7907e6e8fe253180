"""S2 harmony: the chord progression, spelled for the key, with numerals and voice-led voicings.

A generated progression comes from the genre's library (`skills/harmony/progressions/`):
a seeded pick weighted by the library, in the key's mode, with its own chord rhythm.
A genre without one gets the plain loops of its mode. Either way the tonic must be
heard: the chords alone should name the asked key, or the pick leans to one that does.

The harmonic dial decides how far from the key the chords may go: diatonic at 0,
borrowed chords from around 0.25, secondary dominants (modal interchange) from
around 0.5, tritone substitutions (chromatic colour) beyond 0.75. The genre's
harmonic vocabulary and complexity decide the extensions (triads for trap,
maj9s for neo-soul, shells and rootless voicings for jazz).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from muse_tui.compose.dials import creativity_of
from muse_tui.compose.progression_pick import library_key, names_key, pick_from_library
from muse_tui.contracts import (
    EnrichedProgression,
    HarmonicFunction,
    PipelineIntent,
    ProgressionChord,
    SongState,
)
from muse_tui.knowledge.progressions import (
    LONGEST_LOOP_BARS,
    ProgressionTable,
    progression_table,
)
from muse_tui.theory import (
    Chord,
    ChordSyntaxError,
    Key,
    RomanSyntaxError,
    key_of,
    parse_chord,
    parse_roman,
    to_roman,
    voice,
    voice_lead,
)

#: Register of each voicing style (low, high): comping sits around middle C.
REGISTERS = {
    "close": (52, 76),
    "open": (48, 79),
    "drop2": (48, 76),
    "spread": (40, 84),
    "shell": (48, 72),
    "rootless": (50, 74),
}
#: Extensions from the plainest to the richest; `richness` is how far up the stack they reach.
RICHNESS = {3: 0, 4: 1, 5: 2, 6: 3, 7: 3}
_ROMAN_TOKEN = re.compile(
    r"^[b#♭♯]?(?:iii|ii|iv|vii|vi|v|i|III|II|IV|VII|VI|V|I)(?![a-z])", re.IGNORECASE
)
_DEGREE_FUNCTION: dict[int, HarmonicFunction] = {
    1: "tonic",
    3: "tonic",
    6: "tonic",
    2: "predominant",
    4: "predominant",
    5: "dominant",
    7: "dominant",
}


class ProgressionError(ValueError):
    """An explicit progression from the prompt that cannot be read; says which chord."""


@dataclass(frozen=True)
class _Choice:
    chord: Chord
    numeral: str  # the numeral it was built from, before extensions ("" for explicit symbols)
    function: HarmonicFunction


def generate_progression(
    intent: PipelineIntent,
    rng: random.Random,
    *,
    variant: int = 0,
    beats_per_bar: float = 4.0,
    table: ProgressionTable | None = None,
    take: int | None = None,
) -> EnrichedProgression:
    """The progression the intent asks for: its explicit chords, or one from the genre's library.

    `take` (the song's seed) walks the library so that each seed picks another
    progression (`pick_from_library`); without it the RNG alone picks.
    """
    key = song_key(intent)
    dna = intent.genre_dna
    style = dna.voicing_style if dna else "close"
    table = table or progression_table()
    if intent.explicit_progression:
        choices = [_explicit(token, key) for token in intent.explicit_progression]
        bars = [_bars_per_chord(len(choices))] * len(choices)
        source = "explicit"
    else:
        dial = creativity_of(intent).harmonic
        complexity = dna.harmonic_complexity if dna else 0.3
        vocabulary = dna.harmonic_vocabulary if dna else ["", "m", "7", "maj7", "m7"]
        length_range = dna.progression_length if dna else (1, 16)
        picked = pick_from_library(intent.genre[0], key, dial, length_range, rng, table, take=take)
        if picked is not None:
            return progression_from(
                picked.chords,
                picked.chord_bars,
                intent,
                rng,
                mode_key=library_key(key, picked),
                variant=variant,
                beats_per_bar=beats_per_bar,
                table=table,
            )
        jazz = style in ("shell", "rootless")
        degrees = _numerals(key, rng, length_range, jazz, table)
        choices = _colour([_numeral_choice(n, key) for n in degrees], key, dial, rng, table)
        bars = [_bars_per_chord(len(choices))] * len(choices)
        extended = [_extend(c, key, dial, complexity, vocabulary, rng) for c in choices]
        choices = _heard_first([extended, choices], bars, key)
        source = "generated"
    return _voiced(choices, bars, key, style, source, variant, beats_per_bar)


def progression_from(
    numerals: Sequence[str],
    bars: Sequence[float],
    intent: PipelineIntent,
    rng: random.Random,
    *,
    mode_key: Key | None = None,
    name: str = "main",
    variant: int = 0,
    beats_per_bar: float = 4.0,
    table: ProgressionTable | None = None,
) -> EnrichedProgression:
    """Idiomatic numerals (read in `mode_key`, default the song's key) coloured, extended and
    voiced for the intent's genre and dials, as S2 does a progression of its library."""
    key = song_key(intent)
    dna = intent.genre_dna
    style = dna.voicing_style if dna else "close"
    table = table or progression_table()
    dial = creativity_of(intent).harmonic
    complexity = dna.harmonic_complexity if dna else 0.3
    vocabulary = dna.harmonic_vocabulary if dna else ["", "m", "7", "maj7", "m7"]
    written = [_numeral_choice(n, mode_key or key) for n in numerals]
    form = sum(bars) > LONGEST_LOOP_BARS  # a whole song form brings its own colour
    coloured = _colour(written, key, dial, rng, table, idiomatic=True, form=form)
    choices = _heard_first([coloured, written], bars, key)
    extended = [_extend(c, key, dial, complexity, vocabulary, rng) for c in choices]
    choices = _heard_first([extended, choices], bars, key)
    progression = _voiced(choices, bars, key, style, "generated", variant, beats_per_bar)
    return progression if name == "main" else progression.model_copy(update={"name": name})


def _voiced(
    choices: list[_Choice],
    bars: Sequence[float],
    key: Key,
    style: str,
    source: Literal["generated", "explicit"],
    variant: int,
    beats_per_bar: float,
) -> EnrichedProgression:
    voicings = _voice_lead([c.chord for c in choices], style)
    choices[0], voicings[0] = _name_what_sounds(choices[0], voicings[0], key, style)
    chords = [
        _described(c, v, b * beats_per_bar, key)
        for c, v, b in zip(choices, voicings, bars, strict=True)
    ]
    return EnrichedProgression(
        key=key.tonic, mode=key.mode, chords=chords, source=source, variant=variant
    )


def placed_progression(
    chords: Sequence[Chord], key: Key, beats_per_chord: float, name: str
) -> EnrichedProgression:
    """Chords a producer placed, described as S2 describes explicit ones (numerals, functions).

    Voiced close, so each symbol says exactly what sounds: the producer's names are kept.
    """
    voicings = _voice_lead(chords, "close")
    placed = [
        _described(_named(chord, key), voicing, beats_per_chord, key)
        for chord, voicing in zip(chords, voicings, strict=True)
    ]
    return EnrichedProgression(
        name=name, key=key.tonic, mode=key.mode, chords=placed, source="explicit"
    )


def song_key(source: PipelineIntent | SongState | EnrichedProgression) -> Key:
    """The key of an intent, a progression, or a song (its progression's, else its own).

    The one reading of a (key, mode) pair for the music: C major when it names none.
    """
    if isinstance(source, SongState) and source.progression is not None:
        source = source.progression
    return key_of(source.key, source.mode)


def describe_progression(progression: EnrichedProgression) -> str:
    """'8-chord progression in Eb minor (Ebm9 → Dbmaj7/F → …)' for the stage tracker."""
    symbols = [c.symbol for c in progression.chords]
    shown = " → ".join(symbols[:6]) + (" → …" if len(symbols) > 6 else "")
    return f"{len(symbols)}-chord progression in {progression.key} {progression.mode} ({shown})"


# ── choosing the numerals ───────────────────────────────────────────────────
def _numerals(
    key: Key, rng: random.Random, length: tuple[int, int], jazz: bool, table: ProgressionTable
) -> list[str]:
    low, high = length
    wanted = rng.choice([n for n in (4, 6, 8, 12, 16) if low <= n <= high] or [max(low, 4)])
    pool = table.loops_for(key.mode, jazz=jazz) or table.loops_for(key.mode)
    numerals: list[str] = []
    loop = rng.choice(pool)
    while len(numerals) < wanted:
        numerals.extend(loop)
        # Later passes answer the first with another loop that still starts off the tonic.
        loop = rng.choice(pool)
    numerals = numerals[:wanted]
    if wanted >= 8 and numerals[-1].lower().lstrip("b#") not in ("v", "vii"):
        numerals[-1] = (
            "V" if key.mode in ("major", "harmonic minor", "melodic minor") else numerals[-1]
        )
    return numerals


def _heard_first(takes: Sequence[list[_Choice]], bars: Sequence[float], key: Key) -> list[_Choice]:
    """The first take whose chords still name the key (colour must not move the tonic)."""
    for take in takes:
        if names_key([c.chord for c in take], bars, key):
            return take
    return takes[0]


def _numeral_choice(numeral: str, key: Key) -> _Choice:
    return _Choice(parse_roman(numeral, key), numeral, _function_of(numeral))


def _colour(
    written: Sequence[_Choice],
    key: Key,
    dial: float,
    rng: random.Random,
    table: ProgressionTable,
    *,
    idiomatic: bool = False,
    form: bool = False,
) -> list[_Choice]:
    """Borrowed, secondary and substituted chords in place of diatonic ones, as the dial allows.

    An `idiomatic` progression (from a genre's library) borrows half as often, and
    its last chord (the cadence), its tonic and any chord already outside the key
    (its own passing or borrowed chords) stay as written. A whole song `form` (a 32-bar
    AABA) has its secondary dominants and departures written out: only the dial's
    tritone substitutes reach it, so every chorus keeps the tune's changes.
    """
    borrowed_pool = table.borrowed.get(key.mode, [])
    choices = list(written)
    scale = set(key.pitch_classes)
    borrow_chance = max(0.0, (dial - 0.15) * 0.8) * (0.5 if idiomatic else 1.0)
    secondary_chance = max(0.0, (dial - 0.4) * 0.7)
    if form:
        borrow_chance = secondary_chance = 0.0
    substitute_chance = max(0.0, (dial - 0.7) * 1.2)
    for i in range(1, len(choices)):
        roll = rng.random()
        if idiomatic and (
            i == len(choices) - 1
            or not choices[i].chord.pitch_classes <= scale
            or _strip_figures(choices[i].numeral).upper() == "I"
        ):
            continue  # the cadence, the tonic and the library's own colour stay as written
        if choices[i].function == "dominant" and roll < substitute_chance:
            # The tritone substitute of the dominant: same tritone, root a half step above the goal.
            # Checked first: the borrowed-chord chance is always the larger, and would hide it.
            dominant_root = parse_roman("V", key).root_pc
            choices[i] = _Choice(
                parse_chord(f"{key.spell((dominant_root + 6) % 12)}7"), "", "chromatic"
            )
        elif borrowed_pool and roll < borrow_chance:
            n = rng.choice(borrowed_pool)
            choices[i] = _Choice(parse_roman(n, key), n, "borrowed")
        elif i + 1 < len(choices) and roll < borrow_chance + secondary_chance:
            target = choices[i + 1].numeral
            if target and _can_tonicize(target):
                n = f"V7/{_strip_figures(target)}"
                choices[i] = _Choice(parse_roman(n, key), n, "secondary_dominant")
    return choices


def _extend(
    choice: _Choice,
    key: Key,
    dial: float,
    complexity: float,
    vocabulary: Sequence[str],
    rng: random.Random,
) -> _Choice:
    """The richest extension of the chord the genre's vocabulary and complexity allow."""
    level = 0 if complexity < 0.3 else 1 if complexity < 0.6 else 2 if complexity < 0.85 else 3
    base = choice.chord
    base_pcs = base.pitch_classes
    # Below the borrowed-chord threshold an extension may only add notes of the key;
    # a borrowed chord keeps its own outside notes but gains no new ones.
    # Altered tensions from outside the key (b9, #9) come only on chords that pull
    # to the next one, with modal interchange and beyond: a tonic never turns into a dominant.
    pulls = choice.function in ("dominant", "secondary_dominant", "chromatic")
    allowed = set(range(12)) if pulls and dial >= 0.5 else set(key.pitch_classes) | base_pcs
    dominant = (pulls or _strip_figures(choice.numeral).upper() == "V") and 4 in base.intervals
    candidates: list[tuple[int, Chord]] = []
    for suffix in vocabulary:
        try:
            chord = parse_chord(f"{base.root_name}{suffix}")
        except ChordSyntaxError:
            continue
        richness = RICHNESS.get(len(chord.pitch_classes), 3)
        # An extension adds notes: it never drops one the numeral asked for (Em7 is not Em6).
        keeps_triad = _triad(chord) == _triad(base) and base_pcs <= chord.pitch_classes
        # A dominant keeps its flat seventh: G7 may become G9 or G13, never Gmaj7.
        keeps_pull = not dominant or 11 not in chord.intervals
        if richness and dominant and 10 not in chord.intervals:
            keeps_pull = False
        fits = chord.pitch_classes <= allowed
        if keeps_triad and keeps_pull and fits and richness <= max(level, _given(base)):
            candidates.append((richness, chord))
    if not candidates:
        return choice
    top = max(r for r, _ in candidates)
    richest = [c for r, c in candidates if r >= top - (1 if top >= 2 else 0)]
    chord = rng.choice(sorted(richest, key=lambda c: c.symbol))
    if base.bass_name:
        chord = parse_chord(f"{chord.symbol}/{base.bass_name}")
    return _Choice(chord, choice.numeral, choice.function)


def _given(chord: Chord) -> int:
    """How rich the chord already is (a secondary V7 is a seventh chord before extending)."""
    return RICHNESS.get(len(chord.pitch_classes), 3)


def _triad(chord: Chord) -> frozenset[int]:
    """Root, third and fifth as intervals (the part an extension must not change)."""
    return frozenset(i % 12 for i in chord.intervals if i % 12 in (0, 3, 4, 6, 7, 8))


def _explicit(token: str, key: Key) -> _Choice:
    try:
        if _ROMAN_TOKEN.match(token):
            chord = parse_roman(token, key)
            return _Choice(chord, token, _function_of(token))
        chord = parse_chord(token)
    except (RomanSyntaxError, ChordSyntaxError, ValueError) as exc:
        raise ProgressionError(
            f"cannot read the chord {token!r} in the progression: {exc}"
        ) from None
    return _named(chord, key)


def _named(chord: Chord, key: Key) -> _Choice:
    """A chord given by its symbol, with the numeral and function it has in the key."""
    numeral = to_roman(chord, key)
    return _Choice(chord, numeral, _function_of(numeral) if numeral else "chromatic")


# ── describing the chords ───────────────────────────────────────────────────
def _function_of(numeral: str) -> HarmonicFunction:
    if re.search(r"[°o]7", numeral):
        return "passing"  # a diminished seventh walks between two chords
    if "/" in numeral:
        return "secondary_dominant"
    if numeral[:1] in "b#♭♯":
        return "borrowed"
    base = _strip_figures(numeral).upper().rstrip("°ØO+")
    degree = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7}.get(base)
    return _DEGREE_FUNCTION.get(degree or 1, "tonic")


def _strip_figures(numeral: str) -> str:
    match = re.match(r"^[b#]?[ivIV]+[°øo+]?", numeral)
    return match.group(0) if match else numeral


def _can_tonicize(numeral: str) -> bool:
    """Secondary dominants aim at major or minor chords, not diminished ones."""
    return "°" not in numeral and "ø" not in numeral and _strip_figures(numeral).upper() != "I"


def _described(choice: _Choice, voicing: Sequence[int], beats: float, key: Key) -> ProgressionChord:
    return ProgressionChord(
        symbol=choice.chord.symbol,
        roman=_roman(choice, key),
        voicing=list(voicing),
        beats=beats,
        function=choice.function,
        tension=_tension(choice, key),
    )


def _roman(choice: _Choice, key: Key) -> str:
    if choice.function == "secondary_dominant" and choice.numeral:
        return choice.numeral
    return to_roman(choice.chord, key) or choice.numeral or "?"


def _tension(choice: _Choice, key: Key) -> float:
    """0 at rest on the tonic, rising with dominant function, colour notes and chromaticism."""
    base = {
        "tonic": 0.1,
        "predominant": 0.35,
        "dominant": 0.6,
        "secondary_dominant": 0.65,
        "borrowed": 0.45,
        "chromatic": 0.75,
        "passing": 0.5,
    }[choice.function]
    outside = len(choice.chord.pitch_classes - set(key.pitch_classes))
    extensions = max(0, len(choice.chord.pitch_classes) - 3)
    return round(min(1.0, base + 0.05 * extensions + 0.08 * outside), 3)


def _bars_per_chord(count: int) -> float:
    """A bar per chord; long progressions (12+) move twice a bar like a jazz form."""
    return 0.5 if count >= 12 else 1.0


#: Extensions a rootless voicing may have added (it adds the 9th to a plain seventh chord).
_NINTHS = ("m9", "9", "maj9", "m9b5", "6/9", "m6/9", "mMaj9", "7b9")


def _name_what_sounds(
    choice: _Choice, voicing: tuple[int, ...], key: Key, style: str
) -> tuple[_Choice, tuple[int, ...]]:
    """Rename a chord whose voicing added a tone (rootless adds the 9th), or revoice it.

    The symbol must say exactly what sounds. An added tone outside the key is not
    wanted at a low dial, so then the chord is voiced plainly instead.
    """
    sounding = {n % 12 for n in voicing}
    chord = choice.chord
    if sounding <= chord.pitch_classes:
        return choice, voicing
    wanted = chord.pitch_classes | sounding
    for suffix in _NINTHS:
        try:
            named = parse_chord(f"{chord.root_name}{suffix}")
        except ChordSyntaxError:
            continue
        if named.pitch_classes == wanted and (
            wanted <= set(key.pitch_classes) or choice.function != "tonic"
        ):
            return _Choice(named, choice.numeral, choice.function), voicing
    low, high = REGISTERS["drop2"]
    return choice, voice(chord, "drop2", low, high)


def _voice_lead(chords: Sequence[Chord], style: str) -> list[tuple[int, ...]]:
    """The first chord voiced in the style's register, each next one moving as little as it can."""
    low, high = REGISTERS.get(style, REGISTERS["close"])
    voicings = [voice(chords[0], style, low, high)]
    for chord in chords[1:]:
        voicings.append(voice_lead(voicings[-1], chord, low, high))
    return voicings
