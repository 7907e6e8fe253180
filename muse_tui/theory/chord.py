"""Chord symbols: reading "Dbmaj7/F" into a Chord and printing it back."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

from muse_tui.theory.chord_vocabulary import (
    ADDABLE,
    ALIASES,
    ALTERABLE,
    DEGREE_SEMITONES,
    OMITTABLE,
    Modifier,
    Tone,
    apply_all,
    name_tones,
    tone_semitones,
)
from muse_tui.theory.key import Key, parse_key, spell, tonic_name
from muse_tui.theory.pitch import letter_above, parse_note, read_note, simplest, spell_with_letter

_SIGNS = {"b": -1, "♭": -1, "-": -1, "#": 1, "♯": 1, "+": 1}


class ChordSyntaxError(ValueError):
    """A chord symbol that cannot be read; the message says where it goes wrong."""


@dataclass(frozen=True)
class Chord:
    """A chord: a spelled root, its tones as (degree, alteration) pairs, an optional bass.

    Build one with parse_chord(); two chords are equal when they have the same
    root spelling, the same tones and the same bass, however they were written.
    """

    root_name: str
    degrees: frozenset[Tone]
    bass_name: str | None = None

    def __post_init__(self) -> None:
        root = parse_note(self.root_name)
        object.__setattr__(self, "root_name", root.text)
        object.__setattr__(self, "degrees", frozenset(self.degrees))
        for degree, _ in self.degrees:
            if degree not in DEGREE_SEMITONES:
                raise ValueError(f"{degree} is not a chord degree")
        if self.bass_name is not None:
            bass = parse_note(self.bass_name)
            same = bass.pitch_class == root.pitch_class
            object.__setattr__(self, "bass_name", None if same else bass.text)

    @property
    def root_pc(self) -> int:
        return parse_note(self.root_name).pitch_class

    @property
    def bass_pc(self) -> int:
        """The lowest note's pitch class: the slash bass, or the root."""
        return parse_note(self.bass_name).pitch_class if self.bass_name else self.root_pc

    @property
    def intervals(self) -> tuple[int, ...]:
        """Semitones above the root, lowest first; extensions keep their octave (9th = 14)."""
        return tuple(sorted({tone_semitones(tone) for tone in self.degrees}))

    @property
    def pitch_classes(self) -> frozenset[int]:
        """Every pitch class in the chord, the slash bass included."""
        root = self.root_pc
        return frozenset((root + interval) % 12 for interval in self.intervals) | {self.bass_pc}

    @cached_property
    def suffix(self) -> str:
        """What follows the root in the symbol: "" for a major triad, "m7b5", "7alt"."""
        return name_tones(self.degrees)

    @property
    def quality(self) -> str:
        """A short canonical quality: "maj", "m", "7", "maj7", "m7b5", "sus4", "7alt"…"""
        return self.suffix.strip("()") or "maj"

    @property
    def symbol(self) -> str:
        """The canonical spelling; parse_chord(chord.symbol) == chord."""
        bass = f"/{self.bass_name}" if self.bass_name else ""
        return f"{self.root_name}{self.suffix}{bass}"

    @property
    def is_minor(self) -> bool:
        """A minor third and no major third."""
        return (3, -1) in self.degrees and (3, 0) not in self.degrees

    def semitones_of(self, degree: int) -> tuple[int, ...]:
        """Semitones above the root of the tones on a degree (3 → (3,) in a minor chord)."""
        return tuple(sorted(tone_semitones(t) for t in self.degrees if t[0] == degree))

    def transpose(self, semitones: int) -> Chord:
        """The same chord moved by semitones, respelled as a chart would write it.

        The root takes the spelling with the simpler key signature (Db, not C#;
        C#m, not Dbm); a slash bass is spelled in the new root's key.
        """
        if semitones % 12 == 0:
            return self
        mode = "minor" if self.is_minor else "major"
        root = tonic_name(self.root_pc + semitones, mode)
        bass = None
        if self.bass_name is not None:
            bass = spell(self.bass_pc + semitones, Key(root, mode))
        return Chord(root, self.degrees, bass)

    def tones(self, key: Key | str | None = None) -> tuple[str, ...]:
        """Note names, bass first, then up from the root: Cm7 → ("C", "Eb", "G", "Bb").

        Each tone is spelled on its degree's letter (C7#9 has D#, C7b9 Db),
        double accidentals simplified (Cdim7 → A). With a key, the root and the
        notes of the key take the key's spelling and the rest follow their
        degree from there: C#m in Db major is Db Fb Ab, Gb7 in Db is Gb Bb Db Fb.
        """
        the_key = parse_key(key) if key is not None else None
        root = parse_note(self.root_name if the_key is None else the_key.spell(self.root_pc))
        names = []
        if self.bass_name:
            names.append(self.bass_name if the_key is None else the_key.spell(self.bass_pc))
        for tone in sorted(self.degrees, key=tone_semitones):
            pc = (root.pitch_class + tone_semitones(tone)) % 12
            if the_key is not None and the_key.contains(pc):
                names.append(the_key.spell(pc))
            else:
                letter = letter_above(root.letter, (tone[0] - 1) % 7)
                names.append(simplest(spell_with_letter(pc, letter)).text)
        unique: dict[int, str] = {}
        for name in names:
            unique.setdefault(parse_note(name).pitch_class, name)
        return tuple(unique.values())

    def __str__(self) -> str:
        return self.symbol


@lru_cache(maxsize=4096)  # Chord is immutable; progressions ask for the same symbols often
def parse_chord(symbol: str) -> Chord:
    """Read a chord symbol: "C", "F#m7", "Bbmaj9", "C7(b9,#11)", "Dbmaj7/F", "Cø7".

    Flats are b or ♭, sharps # or ♯; qualities are case-sensitive where charts
    are (CM7 is major seventh, Cm7 minor seventh).
    """
    text = symbol.strip()
    if not text:
        raise ChordSyntaxError("empty chord symbol; expected e.g. 'C', 'Am7', 'F#m7b5'")
    found = read_note(text)
    if found is None:
        raise ChordSyntaxError(
            f"unexpected {text[0]!r} at position 0 in {text!r}; a chord starts with a root A–G"
        )
    root, start = found
    errors: list[tuple[int, str]] = []
    for alias, quality in ALIASES:
        if not text.startswith(alias, start):
            continue
        try:
            modifiers, bass = _read_rest(text, start + len(alias))
        except _ReadError as error:
            errors.append((error.position, error.message))
            continue
        return Chord(root.text, apply_all(quality.tones, modifiers), bass)
    # Report the reading that got furthest: it is the one the writer meant.
    _, message = max(errors, key=lambda error: error[0])
    raise ChordSyntaxError(message)


def parse_modifiers(text: str, start: int = 0) -> tuple[Modifier, ...]:
    """Read chord modifiers alone ("b9", "sus4", "(add9)") from `start` to the end of `text`."""
    try:
        modifiers, bass = _read_rest(text, start)
    except _ReadError as error:
        raise ChordSyntaxError(error.message) from None
    if bass is not None:
        raise ChordSyntaxError(f"unexpected '/' in {text!r}: no slash bass here")
    return modifiers


#: Digits a chord number may have (degrees run to 13); longer is a typo, not a chord.
_NUMBER_DIGITS = 3


class _ReadError(Exception):
    def __init__(self, position: int, message: str) -> None:
        super().__init__(message)
        self.position = position
        self.message = message


def _unexpected(text: str, position: int, length: int = 1) -> _ReadError:
    token = text[position : position + length]
    return _ReadError(position, f"unexpected {token!r} at position {position} in {text!r}")


def _read_number(text: str, position: int) -> tuple[int | None, int]:
    end = position
    while end < len(text) and text[end].isdigit():
        end += 1
    if end - position > _NUMBER_DIGITS:  # no chord degree is that long; int() would balk
        raise _unexpected(text, position, end - position)
    return (int(text[position:end]) if end > position else None), end


def _read_rest(text: str, position: int) -> tuple[tuple[Modifier, ...], str | None]:
    """Read the modifiers after the quality, then an optional "/bass"."""
    modifiers: list[Modifier] = []
    open_at: int | None = None
    while position < len(text):
        char = text[position]
        if char == "(" and open_at is None:
            open_at = position
            position += 1
        elif char == ")" and open_at is not None:
            open_at = None
            position += 1
        elif char == " " or (char == "," and open_at is not None):
            position += 1
        elif char == "/" and open_at is None:
            return tuple(modifiers), _read_bass(text, position)
        else:
            modifier, position = _read_modifier(text, position, inside=open_at is not None)
            modifiers.append(modifier)
    if open_at is not None:
        raise _ReadError(len(text), f"missing ')' for the '(' at position {open_at} in {text!r}")
    return tuple(modifiers), None


def _read_modifier(text: str, position: int, *, inside: bool) -> tuple[Modifier, int]:
    for word, kind, allowed in (
        ("add", "add", ADDABLE),
        ("omit", "omit", OMITTABLE),
        ("no", "omit", OMITTABLE),
    ):
        if text.startswith(word, position):
            after = position + len(word)
            sign = 0
            if kind == "add" and after < len(text) and text[after] in "b♭#♯":
                sign = _SIGNS[text[after]]
                after += 1
            number, end = _read_number(text, after)
            if sign and number in ALTERABLE:
                return Modifier("alter", number, sign), end  # "add#11" is just #11
            if number is None or number not in allowed or sign:
                raise _unexpected(text, position, max(end - position, len(word)))
            return Modifier(kind, number), end
    if text.startswith("sus", position):
        number, end = _read_number(text, position + 3)
        if number is None:
            return Modifier("sus", 4), end
        if number not in (2, 4):
            raise _unexpected(text, position, end - position)
        return Modifier("sus", number), end
    char = text[position]
    if char in _SIGNS:
        number, end = _read_number(text, position + 1)
        if number not in ALTERABLE:
            raise _unexpected(text, position, max(end - position, 1))
        return Modifier("alter", number, _SIGNS[char]), end
    if char.isdigit() and inside:
        # "C7(13)": a bare number in brackets adds that tone.
        number, end = _read_number(text, position)
        if number not in ADDABLE:
            raise _unexpected(text, position, end - position)
        return Modifier("add", number), end
    raise _unexpected(text, position)


def _read_bass(text: str, slash: int) -> str:
    found = read_note(text, slash + 1)
    if found is None:
        raise _ReadError(
            slash + 1, f"expected a bass note after '/' at position {slash} in {text!r}"
        )
    bass, end = found
    if end != len(text):
        raise _unexpected(text, end)
    return bass.text
