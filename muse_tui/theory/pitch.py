"""Note names, pitch classes and MIDI numbers."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

LETTERS = "CDEFGAB"
LETTER_PITCH_CLASSES = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}
_ACCIDENTAL_STEPS = {"#": 1, "♯": 1, "b": -1, "♭": -1}

# Spellings for a pitch class heard on its own (no key): the names a producer
# meets on a lead sheet most often.
COMMON_NAMES = ("C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B")
SHARP_NAMES = ("C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B")
FLAT_NAMES = ("C", "Db", "D", "Eb", "E", "F", "Gb", "G", "Ab", "A", "Bb", "B")


class NoteSyntaxError(ValueError):
    """A note name that cannot be read."""


@dataclass(frozen=True, order=True)
class NoteName:
    """A spelled note without octave: a letter and how far it is raised or lowered."""

    letter: str
    alteration: int = 0

    def __post_init__(self) -> None:
        if self.letter not in LETTER_PITCH_CLASSES:
            raise NoteSyntaxError(f"{self.letter!r} is not a note letter (A–G)")

    @property
    def pitch_class(self) -> int:
        return (LETTER_PITCH_CLASSES[self.letter] + self.alteration) % 12

    @property
    def text(self) -> str:
        sign = "#" if self.alteration > 0 else "b"
        return self.letter + sign * abs(self.alteration)

    def __str__(self) -> str:
        return self.text


def read_note(text: str, start: int = 0) -> tuple[NoteName, int] | None:
    """Read a note name at `start`; return it and the index after it, or None.

    Accidentals are read greedily, so "Bbm" is B-flat then "m".
    """
    if start >= len(text) or text[start].upper() not in LETTER_PITCH_CLASSES:
        return None
    end = start + 1
    alteration = 0
    while end < len(text) and text[end] in _ACCIDENTAL_STEPS:
        alteration += _ACCIDENTAL_STEPS[text[end]]
        end += 1
    return NoteName(text[start].upper(), alteration), end


def _leading_note(text: str) -> tuple[str, NoteName, int]:
    """The text stripped, the note it starts with, and where that note ends."""
    stripped = text.strip()
    found = read_note(stripped)
    if found is None:
        raise NoteSyntaxError(f"{text!r} is not a note name; expected a letter A–G")
    return stripped, *found


@lru_cache(maxsize=1024)  # NoteName is immutable; keys and chords read the same few names
def parse_note(text: str) -> NoteName:
    """Parse a note name such as "C", "c#", "Db", "E♭", "F##" or "Cb"."""
    stripped, note, end = _leading_note(text)
    if end != len(stripped):
        raise NoteSyntaxError(
            f"unexpected {stripped[end]!r} at position {end} in note name {stripped!r}"
        )
    return note


def pitch_class(note: str | NoteName) -> int:
    """The pitch class 0–11 of a note name (C = 0)."""
    return (note if isinstance(note, NoteName) else parse_note(note)).pitch_class


def note_name(pc: int, *, flats: bool | None = None) -> str:
    """A plain spelling of a pitch class: sharps, flats, or (None) the common choice."""
    table = COMMON_NAMES if flats is None else FLAT_NAMES if flats else SHARP_NAMES
    return table[pc % 12]


def spell_with_letter(pc: int, letter: str) -> NoteName:
    """Spell a pitch class on a given letter, e.g. pc 1 on "B" is B##."""
    alteration = (pc - LETTER_PITCH_CLASSES[letter] + 6) % 12 - 6
    return NoteName(letter, alteration)


def simplest(note: NoteName) -> NoteName:
    """The same note without double accidentals (Bbb → A, F## → G)."""
    if abs(note.alteration) < 2:
        return note
    return parse_note(note_name(note.pitch_class, flats=note.alteration < 0))


def letter_above(letter: str, steps: int) -> str:
    """The letter `steps` scale steps above `letter` (C, 2 → E)."""
    return LETTERS[(LETTERS.index(letter) + steps) % 7]


def midi_to_name(midi: int, spelling: str | NoteName | None = None) -> str:
    """A MIDI number as a name with octave (60 → "C4").

    `spelling` chooses the letter for this pitch, e.g. midi_to_name(59, "Cb") is
    "Cb4": the octave follows the letter, as in scientific pitch notation.
    """
    if not 0 <= midi <= 127:
        raise ValueError(f"MIDI note {midi} is outside 0–127")
    if spelling is None:
        note = parse_note(note_name(midi % 12))
    else:
        note = spelling if isinstance(spelling, NoteName) else parse_note(spelling)
        if note.pitch_class != midi % 12:
            raise ValueError(f"{note.text} is not a spelling of MIDI note {midi}")
    octave = (midi - note.alteration - LETTER_PITCH_CLASSES[note.letter]) // 12 - 1
    return f"{note.text}{octave}"


def name_to_midi(text: str) -> int:
    """A note name with octave as a MIDI number ("C4" → 60, "Cb4" → 59, "A-1" → 9)."""
    stripped, note, end = _leading_note(text)
    octave_text = stripped[end:]
    try:
        octave = int(octave_text)
    except ValueError:
        raise NoteSyntaxError(
            f"{text!r} needs an octave number after the note, like 'C4'"
        ) from None
    midi = (octave + 1) * 12 + LETTER_PITCH_CLASSES[note.letter] + note.alteration
    if not 0 <= midi <= 127:
        raise NoteSyntaxError(f"{text!r} is MIDI {midi}, outside 0–127")
    return midi


def fold_into(pitch: int, low: int, high: int) -> int:
    """`pitch` moved by octaves into low..high (above `high` only when the range is
    narrower than an octave and nothing else fits)."""
    while pitch < low:
        pitch += 12
    while pitch > high and pitch - 12 >= low:
        pitch -= 12
    return pitch
