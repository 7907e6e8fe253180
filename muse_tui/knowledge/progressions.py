"""The chord progressions of `skills/harmony/`: loops per mode and each genre's own library.

`progressions.json` holds the plain loops per mode (the fallback for a genre
without a library), jazz turnarounds and the borrowed chords the dial may bring
in. `progressions/*.json` (one file per family of genres) holds each genre's
idiomatic progressions with their chord rhythm, weight and source.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from muse_tui.contracts import Contract
from muse_tui.knowledge.loader import SkillFileError, load_table
from muse_tui.knowledge.table import skill_table

PROGRESSIONS_FILE = "harmony/progressions.json"
LIBRARY_DIR = "harmony/progressions"

Loop = list[str]
LibraryMode = Literal[
    "major",
    "minor",
    "dorian",
    "phrygian",
    "lydian",
    "mixolydian",
    "harmonic_minor",
    "melodic_minor",
]
#: How long a whole progression may last, in bars: a loop of 1 to 16 bars, or a whole song
#: form a chorus plays once (the 8-, 12- and 16-bar blues, the 24-bar and 32-bar AABA forms).
PROGRESSION_BARS = (1, 2, 4, 8, 12, 16, 24, 32)
#: The longest loop; a progression longer than this is a whole song form (a 32-bar AABA).
LONGEST_LOOP_BARS = 16
#: The most chords a producer's progression may hold.
MOST_CHORDS = 16
#: The most chords a library progression may hold: a 32-bar form with two chords a bar.
MOST_FORM_CHORDS = 64


class LibraryProgression(Contract):
    """One idiomatic progression: numerals in a mode, how long each chord lasts, how likely.

    `per_bar` is the chord rhythm (2: two chords a bar; 0.5: a chord every two
    bars) unless `bars` gives each chord's length. A progression with chords from
    outside its key waits for the harmonic dial to reach `dial`.
    """

    chords: list[str] = Field(min_length=1, max_length=MOST_FORM_CHORDS)
    mode: LibraryMode
    per_bar: float = Field(default=1.0, gt=0, le=4)
    bars: list[float] | None = None
    weight: float = Field(default=1.0, gt=0)
    dial: float = Field(default=0.0, ge=0, le=1)
    source: str = Field(min_length=3)

    @model_validator(mode="after")
    def _whole_bars(self) -> LibraryProgression:
        if self.bars is not None and len(self.bars) != len(self.chords):
            raise ValueError(f"bars has {len(self.bars)} lengths for {len(self.chords)} chords")
        if any(b <= 0 for b in self.chord_bars):
            raise ValueError("every chord lasts more than 0 bars")
        total = sum(self.chord_bars)
        if not any(abs(total - n) < 1e-9 for n in PROGRESSION_BARS):
            lengths = ", ".join(str(n) for n in PROGRESSION_BARS)
            raise ValueError(f"lasts {total:g} bars; a progression lasts {lengths} bars")
        return self

    @property
    def chord_bars(self) -> list[float]:
        """How many bars each chord lasts."""
        return list(self.bars) if self.bars is not None else [1 / self.per_bar] * len(self.chords)


class GenreProgressions(Contract):
    """A genre's progressions, and the genres whose progressions it may also use."""

    about: str = Field(min_length=3)
    also_from: list[str] = Field(default_factory=list)
    progressions: list[LibraryProgression] = Field(min_length=1)


class _LibraryFile(Contract):
    about: str = ""
    genres: dict[str, GenreProgressions] = Field(min_length=1)

    @field_validator("genres")
    @classmethod
    def _snake_case(cls, value: dict[str, GenreProgressions]) -> dict[str, GenreProgressions]:
        wrong = [g for g in value if g != "_".join(g.lower().replace("-", " ").split())]
        if wrong:
            raise ValueError(f"write genre ids in snake_case: {', '.join(wrong)}")
        return value


class ProgressionTable(Contract):
    """Loops per mode (Roman numerals), jazz turnarounds, borrowed chords, and genre libraries."""

    about: str = ""
    loops: dict[str, list[Loop]] = Field(min_length=1)
    jazz_loops: dict[str, list[Loop]] = Field(default_factory=dict)
    borrowed: dict[str, list[str]] = Field(default_factory=dict)
    genres: dict[str, GenreProgressions] = Field(default_factory=dict)

    def loops_for(self, mode: str, *, jazz: bool = False) -> list[Loop]:
        """Loops for a mode, falling back to the major or minor ones by the mode's third."""
        pool = self.jazz_loops if jazz else self.loops
        if mode in pool:
            return pool[mode]
        minor_third = mode in ("minor", "dorian", "phrygian", "harmonic minor", "melodic minor")
        fallback = pool.get("minor" if minor_third else "major") or self.loops["major"]
        return fallback

    def library_for(self, genre: str) -> list[LibraryProgression]:
        """The genre's own progressions, then those of the genres it also draws on."""
        entry = self.genres.get(genre)
        if entry is None:
            return []
        borrowed = [p for other in entry.also_from for p in self.genres[other].progressions]
        return [*entry.progressions, *borrowed]


@skill_table
def progression_table(root: Path) -> ProgressionTable:
    """The progression table and every genre library under `root`, cached."""
    table = load_table(PROGRESSIONS_FILE, ProgressionTable, root=root)
    folder = root / LIBRARY_DIR
    genres: dict[str, GenreProgressions] = {}
    homes: dict[str, Path] = {}
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        loaded = load_table(f"{LIBRARY_DIR}/{path.name}", _LibraryFile, root=root)
        for genre, entry in loaded.genres.items():
            if genre in homes:
                raise SkillFileError(path, f"genres.{genre}: also in {homes[genre].name}")
            genres[genre], homes[genre] = entry, path
    for genre, entry in genres.items():
        unknown = [g for g in entry.also_from if g not in genres]
        if unknown:
            where = f"genres.{genre}.alsoFrom"
            raise SkillFileError(homes[genre], f"{where}: no library for {', '.join(unknown)}")
    return table.model_copy(update={"genres": genres})
