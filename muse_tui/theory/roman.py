"""Roman numerals: "V7/ii" in a key to a Chord, and a Chord back to its numeral.

Conventions follow music21's RomanNumeral where it is standard:

- case gives the triad (I major, ii minor), then ° or o diminished, ø
  half-diminished (a seventh chord), + augmented;
- figures 6 and 64 invert triads; 7, 65, 43, 42 (or 2) set sevenths and their
  inversions; 9 adds the ninth; maj7/M7 forces a major seventh and d7 (d65…)
  a dominant seventh chord;
- a plain 7 is the key's own seventh above the degree, except that a minor
  triad never gets a major seventh by accident (i7 and iv7 in major are minor
  sevenths); o7 is fully diminished;
- in a minor key the sixth and seventh degrees follow music21's CAUTIONARY
  reading: lowercase vi and vii (and #vi, #vii) stand on the raised notes, so
  vii° is the leading-tone chord; uppercase VI and VII (and bVI, bVII) on the
  natural ones. V is major because its case says so;
- "X/Y" reads X in the key of Y (major if Y is major, minor if minor);
- N and N6 are the Neapolitan, bII in first inversion.

Where we part from music21, to read numerals as pop and jazz charts mean them:

- A flat always lowers the degree of the parallel major, so bIII, bVI and bVII
  name the same chords in C major and C minor (Eb, Ab, Bb). music21 extends
  its CAUTIONARY reading to 6 and 7 only, so its bIII in A minor is C-flat.
- The seventh on a flattened root comes from the parallel minor: bVII7 in C is
  Bb7 (the backdoor dominant); music21 gives Bbmaj7. bII7, bIII7, bVI7 agree.
- maj7 means a major seventh in every key: Imaj7 in A minor is Amaj7, where
  music21 ignores the "maj" and keeps the key's G.

Anything after the figure is read as chord-symbol modifiers: V7b9, Vsus4, Iadd9.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from muse_tui.theory.chord import Chord, ChordSyntaxError, parse_modifiers
from muse_tui.theory.chord_vocabulary import Tone, apply_all, explain
from muse_tui.theory.key import Key, parse_key
from muse_tui.theory.pitch import (
    LETTERS,
    NoteName,
    letter_above,
    parse_note,
    simplest,
    spell_with_letter,
)
from muse_tui.theory.scale import Scale

_NUMERAL = re.compile(
    r"(?P<accidentals>[b♭#♯]*)"
    r"(?P<numeral>VII|VI|V|IV|III|II|I|vii|vi|v|iv|iii|ii|i|N)"
    r"(?P<quality>[o°ø+]?)"
    r"(?P<seventh>maj|Maj|M|d)?"
    r"(?P<figure>6/5|65|4/3|43|4/2|42|6/4|64|7|6|9|2)?"
)
_DEGREES = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7}
_NUMERALS = {value: key for key, value in _DEGREES.items()}
# Which chord tone is in the bass for each figure.
_BASS_DEGREE = {"6": 3, "64": 5, "65": 3, "43": 5, "42": 7, "2": 7}
_SEVENTH_FIGURES = {"7", "65", "43", "42", "2", "9"}
_TRIADS = {"major": (4, 7), "minor": (3, 7), "dim": (3, 6), "aug": (4, 8), "half-dim": (3, 6)}


class RomanSyntaxError(ValueError):
    """A Roman numeral that cannot be read."""


#: The most numerals one "X/Y/Z" may chain; real charts use one or two.
MAX_CHAIN = 16


@lru_cache(maxsize=4096)  # Chord is immutable; a progression pick reads the same numerals often
def parse_roman(numeral: str, key: Key | str) -> Chord:
    """The chord a Roman numeral names in a key: parse_roman("V7/ii", "C") is A7.

    "X/Y/Z" is read from the right: Z in the key, Y in Z's key, X in Y's.
    """
    the_key = parse_key(key)
    text = numeral.strip()
    if text.count("/") >= MAX_CHAIN:
        raise RomanSyntaxError(
            f"{text[:40]!r}… chains {text.count('/') + 1} numerals; at most {MAX_CHAIN} "
            "are read, as in 'V/V' or 'V7/IV'"
        )
    levels: list[tuple[str, str]] = []  # (numeral, the text it heads), outermost first
    head, slash, target = text.partition("/")
    while slash:
        levels.append((head, text))
        text = target.strip()
        head, slash, target = text.partition("/")
    chord = _build(text, the_key, text)
    for head, whole in reversed(levels):
        local = Key(chord.root_name, "minor" if chord.is_minor else "major")
        chord = _build(head, local, whole)
    return chord


def _build(text: str, key: Key, whole: str) -> Chord:
    match = _NUMERAL.match(text)
    if match is None:
        raise RomanSyntaxError(
            f"{whole!r} is not a Roman numeral; expected e.g. 'I', 'ii7', 'V65', 'bVII', 'V/V'"
        )
    accidentals, numeral = match["accidentals"], match["numeral"]
    figure = (match["figure"] or "").replace("/", "")
    if numeral == "N":  # the Neapolitan: bII, first inversion unless a figure says otherwise
        accidentals, numeral, figure = "b" + accidentals, "II", figure or "6"
    degree = _DEGREES[numeral.upper()]
    quality = {"o": "dim", "°": "dim", "ø": "half-dim", "+": "aug"}.get(
        match["quality"], "major" if numeral.isupper() or match["seventh"] == "d" else "minor"
    )
    if quality == "half-dim" and not figure:
        figure = "7"
    flats = sum(accidentals.count(sign) for sign in "b♭")
    sharps = len(accidentals) - flats
    raise_minor_six_seven = (
        key.mode == "minor" and numeral.islower() and quality != "aug" and not accidentals
    )
    root = _root(key, degree, sharps - flats, raise_minor_six_seven)
    third, fifth = _TRIADS[quality]
    tones: set[Tone] = {(1, 0), (3, third - 4), (5, fifth - 7)}
    # Sevenths and ninths above a flattened root come from the parallel minor.
    colour = Scale(key.tonic_pc, "minor") if flats else key.scale
    if figure in _SEVENTH_FIGURES or match["seventh"]:
        if figure not in _SEVENTH_FIGURES:
            raise RomanSyntaxError(
                f"{whole!r}: {match['seventh']!r} needs a seventh figure, as in 'Imaj7' or 'Id7'"
            )
        tones.add(_seventh(quality, match["seventh"], colour, degree, root, whole))
    if figure == "9":
        ninth = (colour.degree_pc(degree + 1) - root.pitch_class) % 12
        if ninth not in (1, 2, 3):
            raise RomanSyntaxError(f"{whole!r}: no ninth fits above {root.text} in {key.name}")
        tones.add((9, ninth - 2))
    try:
        modifiers = parse_modifiers(text, match.end())
    except ChordSyntaxError as error:
        raise RomanSyntaxError(str(error)) from None
    bass = None
    if figure in _BASS_DEGREE:
        wanted = _BASS_DEGREE[figure]
        # A "seventh" a diminished seventh above a non-diminished triad is held as a sixth.
        bass_tone = next(t for t in tones if t[0] == wanted or (wanted == 7 and t[0] == 6))
        bass = _tone_name(root, bass_tone).text
    return Chord(root.text, apply_all(frozenset(tones), modifiers), bass)


def _root(key: Key, degree: int, shift: int, raise_minor_six_seven: bool) -> NoteName:
    tonic = parse_note(key.tonic)
    letter = letter_above(tonic.letter, degree - 1)
    if shift < 0:
        pc = Scale(key.tonic_pc, "major").degree_pc(degree) + shift
    else:
        pc = key.degree_pc(degree) + shift
        if raise_minor_six_seven and degree in (6, 7):
            pc += 1
    return simplest(spell_with_letter(pc % 12, letter))


def _seventh(
    quality: str, kind: str | None, colour: Scale, degree: int, root: NoteName, whole: str
) -> Tone:
    if quality == "half-dim" or kind == "d":
        size = 10
    elif kind:  # maj, Maj, M
        size = 11
    elif quality == "dim":
        size = 9
    else:
        size = (colour.degree_pc(degree + 6) - root.pitch_class) % 12
        if quality == "minor" and size == 11:
            size = 10  # i7 and iv7 in a major key: music21 reads these as minor sevenths
    if size not in (9, 10, 11):
        raise RomanSyntaxError(f"{whole!r}: no seventh fits above {root.text}")
    if size == 9:
        # A diminished seventh over a diminished triad; over anything else it sounds as a sixth.
        return (7, -2) if quality == "dim" else (6, 0)
    return (7, size - 11)


def _tone_name(root: NoteName, tone: Tone) -> NoteName:
    degree, alteration = tone
    semitones = {1: 0, 3: 4, 5: 7, 6: 9, 7: 11}[degree] + alteration
    letter = letter_above(root.letter, degree - 1)
    return simplest(spell_with_letter((root.pitch_class + semitones) % 12, letter))


def to_roman(chord: Chord, key: Key | str) -> str:
    """The Roman numeral of a chord in a key: G7 in C is "V7", Bb is "bVII", D is "V/V".

    Diatonic chords get plain numerals; a non-diatonic major or dominant chord
    that resolves to a chord of the key is written as a secondary (V7/ii);
    other chords get an accidental (bVI, #iv). Tensions and suspensions follow
    as chord modifiers ("V7b9", "Vsus4"). A bass that no figure can show
    (C/D, Csus4/F, an altered fifth) is left out and the root position named.
    """
    the_key = parse_key(key)
    root_position = Chord(chord.root_name, chord.degrees)  # the same chord in root position
    for any_bass in (False, True):
        for core in _candidates(root_position if any_bass else chord, the_key):
            head, slash, target = core.partition("/")
            try:
                built = parse_roman(core, the_key)
            except ValueError:  # e.g. a secondary pointing at a key that cannot exist
                continue
            if built.root_pc != chord.root_pc:
                continue
            if not (built.bass_name is None if any_bass else _bass_matches(built, chord)):
                continue
            modifiers = explain(built.degrees, chord.degrees)
            if modifiers is None or ("9" in head and any(m.degree == 9 for m in modifiers)):
                continue  # "V9b9" says less than "V7b9"
            return head + "".join(modifier.text for modifier in modifiers) + slash + target
    raise ValueError(f"{chord.symbol} has no Roman numeral in {the_key.name}")


def _bass_matches(built: Chord, chord: Chord) -> bool:
    figured = {(chord.root_pc + i) % 12 for d in (1, 3, 5, 6, 7) for i in chord.semitones_of(d)}
    if chord.bass_pc in figured:
        return built.bass_pc == chord.bass_pc
    return built.bass_name is None  # a bass no figure can show: name the root position


def _candidates(chord: Chord, key: Key) -> Iterator[str]:
    """Numerals worth trying, best first."""
    thirds, fifths, sevenths = (chord.semitones_of(d) for d in (3, 5, 7))
    # A missing 3rd or 5th is read from the seventh: only a diminished seventh implies them.
    diminished = sevenths == (9,)
    third = thirds[0] if thirds else 3 if diminished else 4
    fifth = fifths[0] if fifths else 6 if diminished else 7
    symbol = ""
    if third == 3 and (fifth == 6 or diminished):  # a dim7 with an altered fifth is still one
        symbol = {(10,): "ø", (9,): "o"}.get(sevenths, "o")
    elif third == 4 and fifth == 8:
        symbol = "+"
    lower = third == 3
    figures = _figures(chord, seventh=True) if sevenths or chord.semitones_of(6) else []
    figures += _figures(chord, seventh=False)
    cores = [symbol + figure for figure in figures]
    dominant = third == 4 and fifth in (7, 8) and sevenths in ((), (10,))
    leading = third == 3 and fifth == 6
    allowed = set(key.pitch_classes)
    if key.is_minor:
        allowed |= {(key.tonic_pc + 9) % 12, (key.tonic_pc + 11) % 12}
    diatonic = chord.pitch_classes <= allowed

    # The root's letter says which degree it is: F# in C is #iv, Gb would be bV.
    letter_degree = (
        LETTERS.index(parse_note(chord.root_name).letter)
        - LETTERS.index(parse_note(key.tonic).letter)
    ) % 7 + 1
    degrees = sorted(range(1, 8), key=lambda degree: degree != letter_degree)

    def plain(accidental: str) -> list[str]:
        return [accidental + _numeral(degree, lower) + core for degree in degrees for core in cores]

    if diatonic:
        yield from plain("")
    if dominant or leading:
        for target in _targets(key, chromatic=False):
            for core in cores:
                yield ("V" if dominant else "vii") + core + "/" + target
    if not diatonic:
        yield from plain("")
    sharp_first = parse_note(chord.root_name).alteration > 0
    yield from plain("#" if sharp_first else "b")
    yield from plain("b" if sharp_first else "#")
    if dominant or leading:
        for target in _targets(key, chromatic=True):
            for core in cores:
                yield ("V" if dominant else "vii") + core + "/" + target


def _figures(chord: Chord, *, seventh: bool) -> list[str]:
    bass = (chord.bass_pc - chord.root_pc) % 12
    position = next((d for d in (3, 5, 7, 6) if bass in {i % 12 for i in chord.semitones_of(d)}), 1)
    if seventh:
        plain = {1: "7", 3: "65", 5: "43"}.get(position, "42")
        figures = [plain, "maj" + plain, "d" + plain]
        if position == 1 and chord.semitones_of(9):
            figures = ["9", *figures]
        return figures
    return {3: ["6"], 5: ["64"]}.get(position, [""])


def _numeral(degree: int, lower: bool) -> str:
    return _NUMERALS[degree].lower() if lower else _NUMERALS[degree]


def _targets(key: Key, *, chromatic: bool) -> list[str]:
    """Chords a secondary function can point at (never the tonic, never a diminished chord)."""
    if chromatic:
        return [
            accidental + _numeral(degree, lower)
            for accidental in ("b", "#")
            for degree in range(1, 8)
            for lower in (False, True)
        ]
    targets = []
    for degree in range(2, 8):
        root = key.degree_pc(degree)
        third = (key.degree_pc(degree + 2) - root) % 12
        fifth = (key.degree_pc(degree + 4) - root) % 12
        if fifth != 7:
            continue
        lower = third == 3 and not (key.is_minor and degree == 5)
        targets.append(_numeral(degree, lower))
    return targets
