"""Song forms from `skills/harmony/arrangement-templates.json`, validated and cached.

A template lists sections in order; the arrangement generator trims, stretches
and reshapes it. Who plays is written as role *groups* (`rhythm`, `low`,
`harmony`, `top`), single roles, or `all`, resolved against the song's roles.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.intent import ArrangementTemplateName
from muse_tui.contracts.song import (
    TRACK_ROLES,
    ChordPlan,
    SectionKind,
    TrackRole,
    Transition,
)
from muse_tui.knowledge.loader import load_table, normalise_word, normalised, unique, within
from muse_tui.knowledge.table import skill_table

TEMPLATES_FILE = "harmony/arrangement-templates.json"
FALLBACK_TEMPLATE: ArrangementTemplateName = "generic_fallback"

#: The longest section a form grows to; longer songs get more sections instead.
MAX_SECTION_BARS = 16
#: The longest chorus of a whole form (the 32-bar AABA).
WHOLE_FORM_BARS = 32

RoleGroup = Literal["rhythm", "low", "harmony", "top"]
#: What a section's `play` list may name: everyone, a group, or one role.
PlayToken = Literal["all", "rhythm", "low", "harmony", "top", TrackRole]

_SECTION_KINDS: tuple[str, ...] = SectionKind.__args__  # type: ignore[attr-defined]
_TEMPLATE_NAMES: tuple[str, ...] = ArrangementTemplateName.__args__  # type: ignore[attr-defined]
_ROLE_GROUPS: tuple[str, ...] = RoleGroup.__args__  # type: ignore[attr-defined]


class SectionTemplate(Contract):
    """One section of a form: what it is, how long, who plays, how it hands over."""

    kind: SectionKind
    name: str = Field(min_length=1)
    bars: int = Field(
        ge=4,
        le=WHOLE_FORM_BARS,
        description="at most 16 (a longer song repeats sections instead), but for a whole form",
    )
    alt_bars: list[int] = Field(
        default_factory=list, description="other lengths a seed may pick instead of `bars`"
    )
    energy: float | None = Field(default=None, ge=0, le=1, description="else the kind's default")
    play: list[PlayToken] = Field(min_length=1, description="in order of entry; intros keep two")
    transition: Transition | None = Field(default=None, description="else the genre's style")
    chord_plan: ChordPlan | None = Field(default=None, description="else the kind's default")
    trim: int | None = Field(
        default=None, ge=1, description="dropped (rank 1 first) when the song is short"
    )
    harmony_of: SectionKind | None = Field(
        default=None,
        description="plays this kind's harmony, not its own kind's (a lo-fi B loop answers "
        "the A loop as a verse answers a chorus)",
    )
    whole_form: bool = Field(
        default=False,
        description="one chorus of the song's form (a jazz head, a blues chorus): as long as "
        "the progression when that is a form of 8 bars or more; a song is fitted by adding or "
        "dropping whole choruses, not by stretching them",
    )

    @model_validator(mode="after")
    def _only_a_form_passes_sixteen(self) -> SectionTemplate:
        if self.bars > MAX_SECTION_BARS and not self.whole_form:
            raise ValueError(f"bars: over {MAX_SECTION_BARS} only for a `wholeForm` chorus")
        return self

    @field_validator("alt_bars")
    @classmethod
    def _alt_bars_are_sections(cls, value: list[int]) -> list[int]:
        if any(not 4 <= b <= 16 for b in value):
            raise ValueError("every alternative length must be 4 to 16 bars")
        return value


class TransitionStyle(Contract):
    """How a genre moves between sections; a seed picks one option per song."""

    into_peak: list[Transition] = Field(min_length=1, description="into a chorus, hook or drop")
    out_of_peak: list[Transition] = Field(default_factory=lambda: ["none"], min_length=1)
    between: list[Transition] = Field(default_factory=lambda: ["none"], min_length=1)
    ending: Transition = "fade"


class PhraseFills(Contract):
    """How a genre's drums mark the ends of phrases inside a section."""

    every: Literal[4, 8, 16] = Field(
        default=8, description="bars from one phrase-end fill to the next"
    )
    beats: float = Field(default=1, gt=0, le=4, description="the longest phrase-end fill, in beats")
    chance: float = Field(default=0.6, ge=0, le=1, description="how often a phrase end gets one")
    kick_drop: bool = Field(
        default=False, description="some phrase ends drop the kick for the bar instead (house)"
    )


class BuildRoll(Contract):
    """The snare roll that accelerates through a build into the drop."""

    about: str = ""
    voice: str = "snare"
    per_beat: list[int] = Field(min_length=1, description="hits a beat, one stage per equal part")
    max_per_second: float = Field(gt=0, description="fast tempi stop at the last stage under it")
    ramp: tuple[float, float] = Field(description="velocity share at the first and last hit")
    keep: list[str] = Field(default_factory=list, description="groove voices playing on under it")
    repeat_layer: str = Field(description="the voice a later build doubles its last stage with")


class ArrangementTemplate(Contract):
    """A genre's song form."""

    display_name: str
    about: str = Field(default="", description="where the form comes from")
    fallback: bool = False
    aliases: list[str] = Field(default_factory=list, description="genre words that pick it")
    transitions: TransitionStyle
    crashes: bool = Field(
        default=True, description="whether the drums mark section downbeats with a crash"
    )
    phrase_fills: PhraseFills = Field(default_factory=PhraseFills)
    sections: list[SectionTemplate] = Field(min_length=2)

    @field_validator("aliases")
    @classmethod
    def _aliases_are_normalised(cls, value: list[str]) -> list[str]:
        normalised(value, "aliases")
        return value

    @field_validator("sections")
    @classmethod
    def _sections_make_a_song(cls, value: list[SectionTemplate]) -> list[SectionTemplate]:
        unique([s.name for s in value], "section names must be unique, repeated")
        if all(s.trim is not None for s in value):
            raise ValueError("at least one section must have no `trim` (the core of the song)")
        if all(s.kind in ("intro", "outro") for s in value):
            raise ValueError("a form needs a section besides its intro and outro")
        return value

    @property
    def natural_bars(self) -> int:
        return sum(s.bars for s in self.sections)


class AskedSection(Contract):
    """A section an asked form adds where the template has none of its kind."""

    name: str = Field(min_length=1)
    bars: int = Field(ge=4, le=MAX_SECTION_BARS)
    play: list[PlayToken] = Field(min_length=1)


class ListedKinds(Contract):
    """How section kinds listed once each ("verse chorus bridge") become a song (see `about`)."""

    about: str = ""
    cycle: list[SectionKind] = Field(min_length=1, description="kinds that repeat as a cycle")
    departures: list[SectionKind] = Field(default_factory=list, description="played once, late")
    returns: list[SectionKind] = Field(default_factory=list, description="cycle kinds after it")
    cycles: int = Field(default=2, ge=1, le=4)


class AskedForms(Contract):
    """How a form written in the prompt is read and built (see `about`)."""

    about: str = ""
    letters: dict[str, SectionKind] = Field(min_length=1)
    words: dict[str, SectionKind] = Field(min_length=1)
    numbers: dict[str, int] = Field(default_factory=dict)
    song_forms: dict[str, list[str]] = Field(
        default_factory=dict, description="letters as kinds; `a` the template's first, `peak`"
    )
    after_peak: list[SectionKind] = Field(
        default_factory=list, description="kinds a count adds after a peak, not before the last"
    )
    listed: ListedKinds | None = None
    sections: dict[SectionKind, AskedSection]
    intervals: dict[str, int] = Field(default_factory=dict, description="semitones")
    key_shift: int = Field(default=2, ge=1, le=11, description="a key change without interval")

    @field_validator("sections")
    @classmethod
    def _every_kind(cls, value: dict[str, AskedSection]) -> dict[str, AskedSection]:
        missing = [k for k in _SECTION_KINDS if k not in value]
        if missing:
            raise ValueError(f"missing section kinds: {', '.join(missing)}")
        return value

    @field_validator("song_forms")
    @classmethod
    def _letters_name_kinds(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        for form, letters in value.items():
            wrong = [x for x in letters if x not in ("a", "peak", *_SECTION_KINDS)]
            if wrong:
                raise ValueError(f"{form}: {', '.join(wrong)} is not a, peak or a section kind")
        return value


class ArrangementTable(Contract):
    """Everything in the arrangement skill file."""

    section_energy: dict[SectionKind, float]
    chord_plans: dict[SectionKind, ChordPlan]
    role_groups: dict[RoleGroup, list[TrackRole]]
    mood_energy: dict[str, float] = Field(default_factory=dict)
    loop_form: list[SectionTemplate] = Field(min_length=2)
    asked_form: AskedForms
    build_roll: BuildRoll
    templates: dict[ArrangementTemplateName, ArrangementTemplate]

    @field_validator("section_energy", "chord_plans")
    @classmethod
    def _every_kind(cls, value: dict[str, object]) -> dict[str, object]:
        missing = [k for k in _SECTION_KINDS if k not in value]
        if missing:
            raise ValueError(f"missing section kinds: {', '.join(missing)}")
        return value

    @field_validator("section_energy")
    @classmethod
    def _energies_in_range(cls, value: dict[str, float]) -> dict[str, float]:
        within(value, 0, 1, "energies must be within 0–1")
        return value

    @field_validator("role_groups")
    @classmethod
    def _every_role_in_one_group(
        cls, value: dict[str, list[TrackRole]]
    ) -> dict[str, list[TrackRole]]:
        missing_groups = [g for g in _ROLE_GROUPS if g not in value]
        if missing_groups:
            raise ValueError(f"missing groups: {', '.join(missing_groups)}")
        listed = [r for roles in value.values() for r in roles]
        wrong = [r for r in TRACK_ROLES if listed.count(r) != 1]
        if wrong:
            raise ValueError(f"each role belongs to exactly one group: {', '.join(wrong)}")
        return value

    @field_validator("mood_energy")
    @classmethod
    def _small_nudges(cls, value: dict[str, float]) -> dict[str, float]:
        within(value, -0.2, 0.2, "mood nudges must be within ±0.2")
        return value

    @field_validator("templates")
    @classmethod
    def _every_template(
        cls, value: dict[str, ArrangementTemplate]
    ) -> dict[str, ArrangementTemplate]:
        missing = [n for n in _TEMPLATE_NAMES if n not in value]
        if missing:
            raise ValueError(f"missing templates: {', '.join(missing)}")
        marked = sorted(n for n, t in value.items() if t.fallback)
        if marked != [FALLBACK_TEMPLATE]:
            raise ValueError(f"only {FALLBACK_TEMPLATE} is marked fallback, not {marked}")
        return value

    @model_validator(mode="after")
    def _aliases_are_unambiguous(self) -> ArrangementTable:
        owner: dict[str, str] = {}
        for name, template in self.templates.items():
            for alias in template.aliases:
                if alias in owner:
                    raise ValueError(
                        f"templates.{name}.aliases: {alias!r} already picks {owner[alias]}"
                    )
                owner[alias] = name
        return self

    def template(self, name: str) -> tuple[str, ArrangementTemplate]:
        """The template called `name` (or whose aliases include it), else the fallback."""
        key = normalise_word(name)
        if key in self.templates:
            return key, self.templates[key]  # type: ignore[index]
        for template_name, template in self.templates.items():
            if key in template.aliases:
                return template_name, template
        return FALLBACK_TEMPLATE, self.templates[FALLBACK_TEMPLATE]


@skill_table
def arrangement_table(root: Path) -> ArrangementTable:
    """The arrangement skill file under `root`, validated and cached."""
    return load_table(TEMPLATES_FILE, ArrangementTable, root=root)
