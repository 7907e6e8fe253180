"""Playing idioms (`skills/sound/articulations.json`): how a player shapes drafted notes.

An instrument of `sound/instruments.json` names its idiom (`articulation`):
palm-muted chugs, staccato strokes, pedal-steel swells, an acid line. Genres and
influences name idioms for their drums (hyperpop's glitch stutters).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.knowledge.instruments import INSTRUMENTS_FILE, instrument_table
from muse_tui.knowledge.loader import SkillFileError, load_table
from muse_tui.knowledge.table import skill_table

ARTICULATIONS_FILE = "sound/articulations.json"

IdiomKind = Literal["short", "swell", "acid", "talking", "stutter", "held", "picked", "line"]


class Idiom(Contract):
    """One playing idiom: which player applies it and with what figures."""

    kind: IdiomKind
    longest: float = Field(
        default=0.5, gt=0, description="beats: the longest note (short), the shortest (swell)"
    )
    pattern: str = Field(default="", description="16th steps: X accent, x hit, ~ slide, o octave")
    restrike: bool = False
    pitch_range: tuple[int, int] | None = None
    lowest: int | None = Field(default=None, ge=1, description="keep this many lowest notes")
    controller: int = Field(default=11, ge=0, le=127)
    bend: int = Field(default=0, ge=0, le=8191)
    voices: list[str] = Field(default_factory=list)
    repeats: int = Field(default=0, ge=0)
    gap: float = Field(default=0.0625, gt=0)
    every: float = Field(default=8.0, gt=0)
    bars: int = Field(default=4, ge=1, description="held: the bars one held note lasts")
    double_stops: bool = Field(default=False, description="swell: a third or sixth under")
    fills: bool = Field(default=False, description="swell: a falling fill in the rests")
    pitch: int | None = Field(
        default=None, ge=0, le=127, description="held: one key for every note (a noise's root)"
    )
    except_roles: list[str] = Field(
        default_factory=list, description="roles it leaves as drafted (a comping idiom: the lead)"
    )
    thumb: str = Field(default="", description="picked: the thumb's 16th steps (the bass note)")
    pinch: bool = Field(default=False, description="picked: the fingers pluck the chord at once")
    leap: int = Field(default=12, ge=1, le=24, description="line: the widest step (semitones)")
    cut: bool = Field(default=False, description="line: a cut (upper grace) on long notes")
    loop_seconds: float | None = Field(
        default=None, gt=0, description="held: a sample loop running on the song's clock"
    )
    duck: float = Field(
        default=0.0, ge=0, le=1, description="held: velocity given up per unit of energy"
    )
    gap_before_rise: bool = Field(
        default=False, description="held: silent in the bar before a section of more energy"
    )
    about: str = ""

    @model_validator(mode="after")
    def _pattern_steps(self) -> Idiom:
        for grid in (self.pattern, self.thumb):
            if grid and (len(grid) % 4 or set(grid) - set("Xx.~o")):
                raise ValueError("pattern: 16th steps of X x . ~ o, whole beats long")
        return self


class ArticulationTable(Contract):
    """Every idiom by name, and the idioms genres and influences ask of a role."""

    about: str = ""
    idioms: dict[str, Idiom] = Field(min_length=1)
    genre_idioms: dict[str, dict[str, str]] = Field(default_factory=dict)

    def for_genres(self, words: list[str], role: str) -> Idiom | None:
        """The idiom the first of `words` (genre ids, sub-genres, influences) asks of `role`
        (a role, or an instrument id: bossa nova's nylon guitar plays the batida)."""
        for word in words:
            name = self.genre_idioms.get(word.lower(), {}).get(role)
            if name is not None:
                return self.idioms[name]
        return None


@skill_table
def articulation_table(root: Path) -> ArticulationTable:
    """The idioms under `root`; every idiom an instrument or genre names must be here."""
    table = load_table(ARTICULATIONS_FILE, ArticulationTable, root=root)
    named = [
        (f"genreIdioms.{g}.{r}", i)
        for g, roles in table.genre_idioms.items()
        for r, i in roles.items()
    ]
    for where, idiom in named:
        if idiom not in table.idioms:
            raise SkillFileError(root / ARTICULATIONS_FILE, f"{where}: no idiom {idiom!r}")
    for name, instrument in instrument_table(root).instruments.items():
        if instrument.articulation is not None and instrument.articulation not in table.idioms:
            raise SkillFileError(
                root / INSTRUMENTS_FILE,
                f"instruments.{name}.articulation: {instrument.articulation!r} is not an idiom "
                f"of {ARTICULATIONS_FILE}",
            )
    return table
