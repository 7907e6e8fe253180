"""Scales and modes as steps above a tonic."""

from __future__ import annotations

from dataclasses import dataclass

# Semitones above the tonic. Melodic minor is the ascending (jazz) form.
SCALE_STEPS: dict[str, tuple[int, ...]] = {
    "major": (0, 2, 4, 5, 7, 9, 11),
    "minor": (0, 2, 3, 5, 7, 8, 10),
    "harmonic minor": (0, 2, 3, 5, 7, 8, 11),
    "melodic minor": (0, 2, 3, 5, 7, 9, 11),
    "ionian": (0, 2, 4, 5, 7, 9, 11),
    "dorian": (0, 2, 3, 5, 7, 9, 10),
    "phrygian": (0, 1, 3, 5, 7, 8, 10),
    "lydian": (0, 2, 4, 6, 7, 9, 11),
    "mixolydian": (0, 2, 4, 5, 7, 9, 10),
    "aeolian": (0, 2, 3, 5, 7, 8, 10),
    "locrian": (0, 1, 3, 5, 6, 8, 10),
    "major pentatonic": (0, 2, 4, 7, 9),
    "minor pentatonic": (0, 3, 5, 7, 10),
    "blues": (0, 3, 5, 6, 7, 10),
}

SCALE_ALIASES = {
    "natural minor": "minor",
    "maj": "major",
    "min": "minor",
    "harmonic": "harmonic minor",
    "melodic": "melodic minor",
    "pentatonic": "major pentatonic",
    "minor blues": "blues",
}


def scale_kind(name: str) -> str:
    """The canonical name of a scale ("Natural Minor" → "minor")."""
    key = " ".join(name.lower().replace("-", " ").replace("_", " ").split())
    key = SCALE_ALIASES.get(key, key)
    if key not in SCALE_STEPS:
        known = ", ".join(SCALE_STEPS)
        raise ValueError(f"unknown scale {name!r}; known scales: {known}")
    return key


@dataclass(frozen=True)
class Scale:
    """A scale on a tonic pitch class, e.g. Scale(9, "minor pentatonic")."""

    tonic_pc: int
    kind: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "tonic_pc", self.tonic_pc % 12)
        object.__setattr__(self, "kind", scale_kind(self.kind))

    @property
    def steps(self) -> tuple[int, ...]:
        return SCALE_STEPS[self.kind]

    @property
    def pitch_classes(self) -> tuple[int, ...]:
        """Pitch classes from the tonic upward."""
        return tuple((self.tonic_pc + step) % 12 for step in self.steps)

    def degree_pc(self, degree: int) -> int:
        """Pitch class of a 1-based degree; degrees past the octave wrap (9 → 2)."""
        if degree < 1:
            raise ValueError(f"scale degrees start at 1, got {degree}")
        return self.pitch_classes[(degree - 1) % len(self.steps)]

    def contains(self, pc: int) -> bool:
        return pc % 12 in self.pitch_classes


def scale_pitch_classes(tonic_pc: int, kind: str) -> tuple[int, ...]:
    """Pitch classes of a scale from its tonic upward."""
    return Scale(tonic_pc, kind).pitch_classes
