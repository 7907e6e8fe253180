"""Melody knowledge from `skills/melody/`: lead styles per genre, phrase forms, contours, registers.

A lead is built from a motif (a one-bar rhythm cell and a contour) arranged
into 4-bar phrases by a form; the genre picks the style that supplies the
cells, forms and contours, and the instrument's register bounds the line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.knowledge.loader import SkillFileError, load_table, unique
from muse_tui.knowledge.rhythm import check_grid
from muse_tui.knowledge.table import skill_table

STYLES_FILE = "melody/styles.json"
PHRASES_FILE = "melody/phrases.json"
INSTRUMENTS_FILE = "melody/instruments.json"

#: What one bar of a phrase does (see `skills/melody/phrases.json`).
BarMove = Literal[
    "motif", "repeat", "sequence", "displace", "fragment", "echo", "response", "cadence", "rest"
]
#: Bars of a phrase: every form is four bars long.
PHRASE_BARS = 4
_CELL_LETTERS = "x-."


class PhraseForm(Contract):
    """What each of the four bars of a phrase does with a one- or two-bar motif."""

    about: str
    motif_bars: Literal[1, 2]
    bars: list[BarMove] = Field(min_length=PHRASE_BARS, max_length=PHRASE_BARS)
    ostinato: bool = Field(
        default=False, description="a riff the style repeats: its phrases vary, never move away"
    )

    @model_validator(mode="after")
    def _starts_with_the_motif(self) -> PhraseForm:
        if self.bars[0] != "motif" or "cadence" not in self.bars:
            raise ValueError("a phrase states its motif first and has a cadence")
        return self


class PhraseRole(Contract):
    """What one 4-bar phrase does in its section: states the idea, answers it, departs from
    it or brings it back (`skills/melody/phrases.json` `sections`)."""

    about: str
    lift: int = Field(ge=0, le=4, description="scale steps the phrase's motif moves up")
    ostinato_lift: int = Field(default=0, ge=0, le=4, description="the same, for a riff")
    vary_bar: int | None = Field(default=None, ge=0, lt=PHRASE_BARS)
    swap: dict[BarMove, BarMove] = Field(default_factory=dict)
    contrast: list[BarMove] | None = Field(
        default=None,
        min_length=PHRASE_BARS - 1,
        max_length=PHRASE_BARS - 1,
        description="the phrase's first three bars, replacing the form's (its cadence stays)",
    )

    def moves(self, form: list[BarMove], *, ostinato: bool) -> list[BarMove]:
        """The phrase's bar moves from the form's (a shorter, last phrase keeps its length)."""
        moves = list(form)
        if self.contrast is not None and not ostinato and len(moves) == PHRASE_BARS:
            moves[: PHRASE_BARS - 1] = self.contrast
        elif self.vary_bar is not None and self.vary_bar < len(moves) - 1:
            moves[self.vary_bar] = self.swap.get(moves[self.vary_bar], moves[self.vary_bar])
        return moves

    def lift_for(self, *, ostinato: bool) -> int:
        return self.ostinato_lift if ostinato else self.lift


class SectionPlans(Contract):
    """The phrase roles of a section by its count of 4-bar phrases; longer sections go round
    the longest plan again, its first phrase restated rather than stated."""

    about: str
    sources: list[str] = Field(min_length=1)
    plans: dict[str, list[str]] = Field(min_length=1)
    roles: dict[str, PhraseRole] = Field(min_length=1)
    again: str = Field(description="the role a later round's first phrase takes")

    @model_validator(mode="after")
    def _roles_exist(self) -> SectionPlans:
        named = [r for plan in self.plans.values() for r in plan] + [self.again]
        missing = sorted({r for r in named if r not in self.roles})
        if missing:
            raise ValueError(f"plans name roles not in roles: {', '.join(missing)}")
        counts = sorted(int(k) for k in self.plans)
        if counts != list(range(1, len(counts) + 1)):
            raise ValueError("plans are keyed 1, 2, 3… phrases, none skipped")
        if any(len(self.plans[str(c)]) != c for c in counts):
            raise ValueError("a plan for N phrases names N roles")
        return self

    def plan(self, phrases: int) -> list[PhraseRole]:
        """The role of each of `phrases` phrases."""
        longest = max(int(k) for k in self.plans)
        names: list[str] = []
        while len(names) < phrases:
            left = phrases - len(names)
            names += self.plans[str(min(left, longest))] if not names else self._again(left)
        return [self.roles[n] for n in names[:phrases]]

    def _again(self, left: int) -> list[str]:
        longest = max(int(k) for k in self.plans)
        names = list(self.plans[str(min(left, longest))])
        names[0] = self.again
        return names


class Variation(Contract):
    """How a repeated section's phrase varies its motif: moved, mirrored, reshaped, ornamented."""

    about: str
    steps: int = Field(default=0, ge=-2, le=4, description="scale steps the motif moves")
    mirror: bool = False
    reshape: bool = Field(default=False, description="the rhythm along the style's next contour")
    embellish_every: int = Field(
        default=0, ge=0, le=4, description="bars apart that get a passing note (0: none)"
    )
    embellish_from: int = Field(default=0, ge=0, le=3, description="the first such bar")


class RepeatPlans(Contract):
    """The variation of each phrase of a repeated section's lead, round by round
    (`skills/melody/phrases.json` `repeats`)."""

    about: str
    sources: list[str] = Field(min_length=1)
    variations: dict[str, Variation] = Field(min_length=1)
    hook: list[list[str]] = Field(min_length=1)
    line: list[list[str]] = Field(min_length=1)

    @model_validator(mode="after")
    def _variations_exist(self) -> RepeatPlans:
        named = {n for plan in (self.hook, self.line) for round_ in plan for n in round_}
        missing = sorted(named - set(self.variations))
        if missing:
            raise ValueError(f"rounds name variations not in variations: {', '.join(missing)}")
        if any(not round_ for plan in (self.hook, self.line) for round_ in plan):
            raise ValueError("a round names a variation for one phrase at least")
        return self

    def variation(self, ordinal: int, phrase: int, *, hook: bool) -> Variation | None:
        """Phrase `phrase`'s variation in statement `ordinal` (2 the first repeat); None for a
        first statement, which is the tune as it is."""
        if ordinal < 2:
            return None
        rounds = self.hook if hook else self.line
        round_ = rounds[(ordinal - 2) % len(rounds)]
        return self.variations[round_[phrase % len(round_)]]


class Contour(Contract):
    """A motif's shape: (where in the motif from 0 to 1, scale steps from its first note)."""

    about: str
    points: list[tuple[float, int]] = Field(min_length=2)

    @field_validator("points")
    @classmethod
    def _from_start_to_end(cls, value: list[tuple[float, int]]) -> list[tuple[float, int]]:
        places = [p for p, _ in value]
        if places[0] != 0 or places[-1] != 1 or places != sorted(places):
            raise ValueError("points run in order from 0 (the motif's start) to 1 (its end)")
        if any(abs(steps) > 5 for _, steps in value):
            raise ValueError("a contour moves at most 5 scale steps from its first note")
        return value

    def steps_at(self, where: float) -> float:
        """Scale steps from the first note at `where` (0–1), read off the line between points."""
        for (x0, y0), (x1, y1) in zip(self.points, self.points[1:], strict=False):
            if where <= x1:
                return y0 + (y1 - y0) * ((where - x0) / (x1 - x0) if x1 > x0 else 1)
        return float(self.points[-1][1])


class LeadStyle(Contract):
    """A genre family's lead: rhythm cells, phrase forms, contours, span and articulation."""

    about: str
    cells: list[str] = Field(min_length=1)
    answers: list[str] = Field(min_length=1)
    hook_forms: list[str] = Field(min_length=1)
    verse_forms: list[str] = Field(min_length=1)
    contours: list[str] = Field(min_length=1)
    span: int = Field(ge=7, le=19, description="semitones the line may cover")
    articulation: float = Field(gt=0.2, le=1, description="share of a note's room that sounds")
    blue_notes: bool = False
    pickups: bool = False
    sequence_steps: list[int] = Field(default=[-1, 1, 2], min_length=1)

    @field_validator("cells", "answers")
    @classmethod
    def _one_bar_grids(cls, value: list[str]) -> list[str]:
        for grid in value:
            check_grid(grid, _CELL_LETTERS)
            if len(grid) != 16 or "x" not in grid:
                raise ValueError(f"cell {grid!r}: one bar of 16 steps with at least one note")
        return value


class _StyleFile(Contract):
    about: str = ""
    styles: dict[str, LeadStyle] = Field(min_length=1)
    default_style: str
    genres: dict[str, str] = Field(default_factory=dict)
    words: dict[str, str] = Field(default_factory=dict)
    families: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _styles_exist(self) -> _StyleFile:
        named = [
            ("defaultStyle", self.default_style),
            *((f"genres.{k}", v) for k, v in self.genres.items()),
            *((f"words.{k}", v) for k, v in self.words.items()),
            *((f"families.{k}", v) for k, v in self.families.items()),
        ]
        for where, style in named:
            if style not in self.styles:
                raise ValueError(f"{where}: no style {style!r}")
        return self


class _PhraseFile(Contract):
    about: str = ""
    forms: dict[str, PhraseForm] = Field(min_length=1)
    contours: dict[str, Contour] = Field(min_length=1)
    sections: SectionPlans
    repeats: RepeatPlans


class Instrument(Contract):
    """A lead instrument by GM program, and the register a topline on it sits in."""

    name: str
    programs: list[int] = Field(min_length=1)
    pitch_range: tuple[int, int]

    @field_validator("pitch_range")
    @classmethod
    def _octave_at_least(cls, value: tuple[int, int]) -> tuple[int, int]:
        if not 0 <= value[0] < value[1] <= 127 or value[1] - value[0] < 12:
            raise ValueError(f"register {value} must span at least an octave within 0–127")
        return value


class _InstrumentFile(Contract):
    about: str = ""
    instruments: list[Instrument] = Field(min_length=1)
    fallback: tuple[int, int]

    @model_validator(mode="after")
    def _each_program_once(self) -> _InstrumentFile:
        unique([str(p) for i in self.instruments for p in i.programs], "programs listed twice")
        return self


class MelodyTable(Contract):
    """All of `skills/melody/`, checked together (a style's forms and contours must exist)."""

    styles: dict[str, LeadStyle]
    default_style: str
    genres: dict[str, str]
    words: dict[str, str]
    families: dict[str, str]
    forms: dict[str, PhraseForm]
    contours: dict[str, Contour]
    sections: SectionPlans
    repeats: RepeatPlans
    instruments: list[Instrument]
    fallback_register: tuple[int, int]

    def style_for(self, genres: list[str], words: list[str], family: str) -> LeadStyle:
        """The first genre id's style, else a prompt word's, the drum family's, the default."""
        for genre in genres:
            if genre in self.genres:
                return self.styles[self.genres[genre]]
        for word in words:
            key = word.strip().lower().replace("_", " ")
            if key in self.words:
                return self.styles[self.words[key]]
        return self.styles[self.families.get(family, self.default_style)]

    def register_for(self, program: int | None) -> tuple[int, int]:
        """Where a topline on this GM program sits (the fallback for an unknown program)."""
        for instrument in self.instruments:
            if program in instrument.programs:
                return instrument.pitch_range
        return self.fallback_register


@skill_table
def melody_table(root: Path) -> MelodyTable:
    """The melody skill files under `root`, checked together and cached."""
    styles = load_table(STYLES_FILE, _StyleFile, root=root)
    phrases = load_table(PHRASES_FILE, _PhraseFile, root=root)
    instruments = load_table(INSTRUMENTS_FILE, _InstrumentFile, root=root)
    for name, style in styles.styles.items():
        for field, wanted, known in (
            ("hookForms", style.hook_forms, phrases.forms),
            ("verseForms", style.verse_forms, phrases.forms),
            ("contours", style.contours, phrases.contours),
        ):
            missing = [w for w in wanted if w not in known]
            if missing:
                raise SkillFileError(
                    root / STYLES_FILE,
                    f"styles.{name}.{field}: not in {PHRASES_FILE}: {', '.join(missing)}",
                )
    return MelodyTable(
        styles=styles.styles,
        default_style=styles.default_style,
        genres=styles.genres,
        words=styles.words,
        families=styles.families,
        forms=phrases.forms,
        contours=phrases.contours,
        sections=phrases.sections,
        repeats=phrases.repeats,
        instruments=instruments.instruments,
        fallback_register=instruments.fallback,
    )
