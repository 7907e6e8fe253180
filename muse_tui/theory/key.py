"""Keys (a tonic and a mode), key names and spelling notes in a key."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

from muse_tui.theory.pitch import (
    COMMON_NAMES,
    FLAT_NAMES,
    LETTER_PITCH_CLASSES,
    SHARP_NAMES,
    NoteName,
    NoteSyntaxError,
    letter_above,
    parse_note,
    read_note,
    spell_with_letter,
)
from muse_tui.theory.scale import SCALE_STEPS, Scale

KEY_MODES = (
    "major",
    "minor",
    "dorian",
    "phrygian",
    "lydian",
    "mixolydian",
    "locrian",
    "harmonic minor",
    "melodic minor",
)
MINOR_MODES = frozenset({"minor", "harmonic minor", "melodic minor"})

#: Every spelling of a mode, folded (lowercase, single spaces), to its name in `KEY_MODES`.
MODE_SPELLINGS = {
    "": "major",
    "maj": "major",
    "major": "major",
    "ionian": "major",
    "m": "minor",
    "min": "minor",
    "minor": "minor",
    "aeolian": "minor",
    "natural minor": "minor",
    "harmonic minor": "harmonic minor",
    "melodic minor": "melodic minor",
    **{mode: mode for mode in ("dorian", "phrygian", "lydian", "mixolydian", "locrian")},
}
# Where each mode's tonic sits in its parent major scale, in semitones.
_MODE_OFFSET = {
    "major": 0,
    "dorian": 2,
    "phrygian": 4,
    "lydian": 5,
    "mixolydian": 7,
    "minor": 9,
    "locrian": 11,
    "harmonic minor": 9,
    "melodic minor": 9,
}


def mode_name(text: str) -> str | None:
    """The mode a word names, however it is spelled ("Harmonic_Minor", "natural-minor")."""
    return MODE_SPELLINGS.get(" ".join(text.lower().replace("_", " ").replace("-", " ").split()))


class KeySyntaxError(ValueError):
    """A key name that cannot be read."""


@dataclass(frozen=True)
class Key:
    """A tonic and a mode, e.g. Key("Eb", "minor"). "ionian"/"aeolian" become major/minor."""

    tonic: str
    mode: str = "major"

    def __post_init__(self) -> None:
        try:
            tonic = parse_note(self.tonic).text
        except NoteSyntaxError as error:
            raise KeySyntaxError(str(error)) from None
        mode = mode_name(self.mode)
        if mode is None:
            raise KeySyntaxError(_unknown_mode(self.mode, f"{self.tonic} {self.mode}"))
        object.__setattr__(self, "tonic", tonic)
        object.__setattr__(self, "mode", mode)

    @property
    def tonic_name(self) -> str:
        return self.tonic

    @property
    def tonic_pc(self) -> int:
        return parse_note(self.tonic).pitch_class

    @property
    def name(self) -> str:
        """The key as a musician says it: "Eb minor", "D dorian"."""
        return f"{self.tonic} {self.mode}"

    @property
    def is_minor(self) -> bool:
        """True for natural, harmonic and melodic minor (not for the minor-third modes)."""
        return self.mode in MINOR_MODES

    @property
    def scale(self) -> Scale:
        return Scale(self.tonic_pc, self.mode)

    @property
    def pitch_classes(self) -> tuple[int, ...]:
        """The seven pitch classes of the key, from the tonic up."""
        return self.scale.pitch_classes

    def degree_pc(self, degree: int) -> int:
        """Pitch class of a 1-based scale degree; 9 is the same as 2."""
        return self.scale.degree_pc(degree)

    def contains(self, pc: int) -> bool:
        return pc % 12 in self.pitch_classes

    @cached_property
    def notes(self) -> tuple[NoteName, ...]:
        """The key's seven notes, spelled one letter each."""
        tonic = parse_note(self.tonic)
        return tuple(
            spell_with_letter(pc, letter_above(tonic.letter, step))
            for step, pc in enumerate(self.pitch_classes)
        )

    @property
    def note_names(self) -> tuple[str, ...]:
        return tuple(note.text for note in self.notes)

    @property
    def signature(self) -> int:
        """Sharps (positive) or flats (negative) in the key signature.

        Harmonic and melodic minor share natural minor's signature: their raised
        notes are written as accidentals.
        """
        if self.is_minor and self.mode != "minor":
            return Key(self.tonic, "minor").signature
        return sum(note.alteration for note in self.notes)

    @property
    def relative(self) -> Key:
        """The relative key: major ↔ minor; any other mode gives its parent major."""
        if self.mode == "major":
            return Key(self.notes[5].text, "minor")
        parent = self.notes[(7 - _degree_of_offset(self.mode)) % 7]
        return Key(parent.text, "major")

    @property
    def parallel(self) -> Key:
        """The same tonic in major (from any minor-third mode) or minor (otherwise)."""
        minor_third = (SCALE_STEPS[self.mode][2]) == 3
        return Key(self.tonic, "major" if minor_third else "minor")

    def spell(self, pc: int) -> str:
        """Name a pitch class as this key would write it."""
        return spell(pc, self)

    def __str__(self) -> str:
        return self.name


def _degree_of_offset(mode: str) -> int:
    """Which degree of its parent major scale a mode starts on, 0-based."""
    return SCALE_STEPS["major"].index(_MODE_OFFSET[mode])


def _unknown_mode(mode: str, text: str) -> str:
    return (
        f"unknown mode {mode!r} in key {text!r}; use major, minor (or m), dorian, "
        "phrygian, lydian, mixolydian, locrian, harmonic minor or melodic minor"
    )


def parse_key(text: str | Key) -> Key:
    """Read a key: "C", "Am", "A minor", "F#m", "Ebm", "D dorian", "Bb major".

    The tonic letter may be any case; a bare tonic is major. "M" means major and
    "m" minor.
    """
    if isinstance(text, Key):
        return text
    stripped = " ".join(text.split())
    found = read_note(stripped)
    if found is None:
        raise KeySyntaxError(
            f"{text!r} is not a key: expected a tonic A–G and an optional mode, "
            "e.g. 'C', 'Am', 'F# minor', 'D dorian'"
        )
    tonic, end = found
    rest = stripped[end:].strip()
    mode = "major" if rest == "M" else mode_name(rest)
    if mode is None:
        raise KeySyntaxError(_unknown_mode(rest, text))
    return Key(tonic.text, mode)


def key_of(tonic: str | None, mode: str | None = None) -> Key:
    """The key a tonic and a mode name, however they are written; C major when unreadable.

    A mode in the tonic's text ("Am") stands when `mode` is missing or does not
    read together with it ("Am" with "major" is A minor).
    """
    attempts = (f"{tonic} {mode}", tonic) if mode else (tonic,)
    for attempt in attempts:
        if attempt:
            try:
                return parse_key(attempt)
            except ValueError:
                continue
    return Key("C", "major")


@lru_cache(maxsize=1024)
def tonic_name(pc: int, mode: str = "major") -> str:
    """The usual spelling of a tonic or chord root: the one with the simpler key signature.

    Db major (5 flats) beats C# major (7 sharps); C# minor (4 sharps) beats
    Db minor (8 flats). A tie goes to F# for major and to flats otherwise
    (F# major, Eb minor).
    """
    pc %= 12
    sharp, flat = SHARP_NAMES[pc], FLAT_NAMES[pc]
    if sharp == flat:
        return sharp
    sharp_key, flat_key = Key(sharp, mode), Key(flat, mode)
    sharp_count, flat_count = abs(sharp_key.signature), abs(flat_key.signature)
    if sharp_count == flat_count:
        return sharp if sharp_key.mode == "major" else flat
    return sharp if sharp_count < flat_count else flat


def spell(pc: int, key: Key | str) -> str:
    """Name a pitch class in a key: pc 10 in Eb major is "Bb", pc 6 in D major "F#".

    Notes of the key use its own spelling (E# in F# major, Cb in Gb major). Other
    notes: in minor keys the raised sixth and seventh are sharpened degrees (C# in
    D minor, the leading tone); white keys stay natural; black keys follow the
    key signature, sharps for sharp keys, flats for flat keys, and the common
    choice (C#, Eb, F#, Ab, Bb) for keys without accidentals.
    """
    key = parse_key(key)
    pc %= 12
    for note in key.notes:
        if note.pitch_class == pc:
            return note.text
    tonic_letter = parse_note(key.tonic).letter
    if key.is_minor and (pc - key.tonic_pc) % 12 in (9, 11):
        steps = 5 if (pc - key.tonic_pc) % 12 == 9 else 6
        return spell_with_letter(pc, letter_above(tonic_letter, steps)).text
    natural = [letter for letter, value in LETTER_PITCH_CLASSES.items() if value == pc]
    if natural:
        return natural[0]
    if key.signature > 0:
        return SHARP_NAMES[pc]
    if key.signature < 0:
        return FLAT_NAMES[pc]
    return COMMON_NAMES[pc]
