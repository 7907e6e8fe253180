"""Meters other than 4/4: `skills/rhythm/meters.json`, the words and the grooves.

A groove is written in its meter's own bar (12 steps for 3/4 and 6/8, 14 for 7/8):
drums, bass and comping per density. The writers keep the genre's kit, swing,
fills and sounds and take only the grid from here.
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path

from pydantic import Field, ValidationError, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.meter import Meter
from muse_tui.knowledge.loader import SkillFileError, load_table
from muse_tui.knowledge.rhythm import DrumLevels, DrumPattern, DrumVoice
from muse_tui.knowledge.table import skill_table

METERS_FILE = "rhythm/meters.json"
_STEPS_PER_BEAT = 4
_DENSITIES = ("sparse", "base", "busy")


class MeterWord(Contract):
    """Words that ask for a meter: `{n}` takes the numbers the pattern's groups caught."""

    pattern: str
    meter: str
    grouping: tuple[int, ...] = ()
    #: A style usually in this meter ("slow blues"): gives way to a meter written out.
    implied: bool = False
    source: str = ""

    @cached_property
    def regex(self) -> re.Pattern[str]:
        return re.compile(rf"(?<![\w/]){self.pattern}(?![\w/])")


class GroupingWords(Contract):
    pattern: str
    source: str = ""


class MeterGrids(Contract):
    sparse: list[str] = Field(min_length=1)
    base: list[str] = Field(min_length=1)
    busy: list[str] = Field(min_length=1)


class MeterDrumPattern(Contract):
    voices: dict[DrumVoice, str] = Field(min_length=1)


class MeterDrums(Contract):
    sparse: list[MeterDrumPattern] = Field(min_length=1)
    base: list[MeterDrumPattern] = Field(min_length=1)
    busy: list[MeterDrumPattern] = Field(min_length=1)


class MeterLead(Contract):
    """One-bar rhythm cells and phrase-ending answers of a lead in this meter."""

    cells: list[str] = Field(min_length=1)
    answers: list[str] = Field(min_length=1)


class MeterGroove(Contract):
    """How a band plays one meter: drums, bass and comping grids, and whom it serves."""

    meter: str
    grouping: tuple[int, ...] = ()
    default: bool = False
    families: list[str] = Field(default_factory=list)
    source: str = Field(min_length=1)
    drums: MeterDrums
    bass: MeterGrids
    comping: MeterGrids
    lead: MeterLead | None = None

    @cached_property
    def time(self) -> Meter:
        return Meter.parse(self.meter, self.grouping)

    @model_validator(mode="after")
    def _grids_fill_the_bar(self) -> MeterGroove:
        bar = round(Meter.parse(self.meter, self.grouping).beats_per_bar * _STEPS_PER_BEAT)
        for part, letters, levels in (
            ("bass", "R583csanx-.", self.bass),
            ("comping", "XxoPp-.", self.comping),
        ):
            for density in _DENSITIES:
                for grid in getattr(levels, density):
                    _check(grid, letters, bar, f"{part}.{density}")
        for index, cell in enumerate([*self.lead.cells, *self.lead.answers] if self.lead else []):
            _check(cell, "x-.", bar, f"lead.{index}")
        for density in _DENSITIES:
            for pattern in getattr(self.drums, density):
                for voice, grid in pattern.voices.items():
                    _check(grid, "Xxo.", bar, f"drums.{density}.{voice}")
        return self

    def drum_levels(self) -> DrumLevels:
        """The drums as the drum writer reads a family's patterns (checked here already)."""
        return DrumLevels.model_construct(
            **{
                density: [
                    DrumPattern.model_construct(voices=dict(p.voices), tempo_range=None)
                    for p in getattr(self.drums, density)
                ]
                for density in _DENSITIES
            }
        )


def _check(grid: str, letters: str, bar: int, where: str) -> None:
    wrong = sorted({c for c in grid if c not in letters})
    if wrong:
        raise ValueError(f"{where}: {grid!r} uses {''.join(wrong)!r}; allowed: {letters!r}")
    # Two bars only where two bars cannot be mistaken for a 4/4 grid (a multiple of 16).
    if len(grid) != bar and not (len(grid) == 2 * bar and len(grid) % 16):
        raise ValueError(f"{where}: {grid!r} has {len(grid)} steps; a bar here is {bar}")


class MeterTable(Contract):
    about: str = ""
    words: list[MeterWord] = Field(min_length=1)
    grouping_words: GroupingWords
    grooves: dict[str, MeterGroove] = Field(min_length=1)

    def groove_for(self, meter: Meter, family: str) -> MeterGroove | None:
        """The groove a drum family plays in `meter`: its own, else the meter's default."""
        fitting = [
            g
            for g in self.grooves.values()
            if g.time.time_signature == meter.time_signature and g.time.grouping == meter.grouping
        ]
        return next((g for g in fitting if family in g.families), None) or next(
            (g for g in fitting if g.default), None
        )


@skill_table
def meter_table(root: Path) -> MeterTable:
    """The meter words and grooves under `root`, checked (every pattern compiles)."""
    table = load_table(METERS_FILE, MeterTable, root=root)
    path = root / METERS_FILE
    for index, word in enumerate(table.words):
        try:
            word.regex  # noqa: B018 - compiled now, so a bad pattern names its file
            if "{n}" not in word.meter:
                Meter.parse(word.meter, word.grouping)
        except (re.error, ValueError, ValidationError) as exc:
            raise SkillFileError(path, f"words.{index}: {exc}") from None
    try:
        re.compile(table.grouping_words.pattern)
    except re.error as exc:
        raise SkillFileError(path, f"groupingWords.pattern: {exc}") from None
    return table
