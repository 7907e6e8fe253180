"""The jam band as data: personas (`skills/jam/personas.json`) and directions (`directives.json`).

Checked at load: every pattern compiles, the key and tempo patterns name the
groups their actions read, every member plays at least one track role, and no
alias names two members.
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path
from string import Formatter

from pydantic import Field, field_validator, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.vocabulary import TrackRole
from muse_tui.knowledge.loader import expressions, load_table
from muse_tui.knowledge.table import skill_table

PERSONAS_FILE = "jam/personas.json"
DIRECTIVES_FILE = "jam/directives.json"

#: The named groups an action's patterns must have, because its effect reads them.
ACTION_GROUPS: dict[str, frozenset[str]] = {
    "key": frozenset({"tonic"}),
    "tempo": frozenset({"bpm"}),
}

#: The fields a member's line may name: {name} in any line, {key} too in those said on a key change.
LINE_FIELDS = frozenset({"name"})
KEY_LINE_FIELDS = frozenset({"name", "key"})

#: What the engine knows how to do; a directives file naming anything else is refused.
ACTIONS = frozenset(
    {
        "key",
        "tempo",
        "faster",
        "slower",
        "half_time",
        "full_time",
        "lock_to_kick",
        "loosen",
        "lay_out",
        "come_back",
        "busier",
        "simpler",
        "higher",
        "lower",
        "hold",
        "evolve",
    }
)


class Persona(Contract):
    """One band member: the roles they can play, where they start, how they take a direction."""

    id: str
    name: str
    roles: list[TrackRole] = Field(min_length=1)
    about: str = ""
    energy: float = Field(ge=0, le=1)
    energy_range: tuple[float, float]
    restlessness: float = Field(ge=0, le=1)
    stubbornness: float = Field(ge=0, le=1)
    aliases: list[str] = Field(min_length=1)
    lines: dict[str, list[str]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _range(self) -> Persona:
        low, high = self.energy_range
        if not 0 <= low <= self.energy <= high <= 1:
            raise ValueError(f"{self.id}: energy {self.energy} outside energyRange {low}–{high}")
        return self

    @model_validator(mode="after")
    def _fields(self) -> Persona:
        for kind, lines in self.lines.items():
            allowed = KEY_LINE_FIELDS if kind == "key" else LINE_FIELDS
            for line in lines:
                try:
                    named = {f for _, f, _, _ in Formatter().parse(line) if f is not None}
                except ValueError as exc:
                    raise ValueError(f"{self.id}: line {line!r}: {exc}") from None
                if not named <= allowed:
                    raise ValueError(
                        f"{self.id}: line {line!r} names {', '.join(sorted(named - allowed))}; "
                        f"a {kind} line may name only {', '.join(sorted(allowed))}"
                    )
        return self


class BandTable(Contract):
    """The band: its members and the thresholds that make them change."""

    about: str = ""
    creativity_threshold: float = Field(gt=0)
    loop_bars: int = Field(ge=1, le=16)
    energy_step: float = Field(gt=0, le=1)
    round_deadline_seconds: float = Field(gt=0, le=60)
    members: list[Persona] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> BandTable:
        seen: dict[str, str] = {}
        for member in self.members:
            for word in [member.id, *member.aliases]:
                owner = seen.setdefault(word.lower(), member.id)
                if owner != member.id:
                    raise ValueError(f"{word!r} names both {owner} and {member.id}")
        return self


class DirectiveAction(Contract):
    """One kind of direction: what it does, whether the whole band shares it, how it reads."""

    action: str
    shared: bool = False
    #: Only a pitched member can take it (an octave, the kick lock): a kit says why not.
    pitched_only: bool = False
    patterns: list[str] = Field(min_length=1)

    @field_validator("patterns")
    @classmethod
    def _patterns(cls, value: list[str]) -> list[str]:
        return expressions(value)

    @model_validator(mode="after")
    def _known(self) -> DirectiveAction:
        if self.action not in ACTIONS:
            raise ValueError(
                f"unknown action {self.action!r} (known: {', '.join(sorted(ACTIONS))})"
            )
        for pattern in self.compiled:
            missing = ACTION_GROUPS.get(self.action, frozenset()) - set(pattern.groupindex)
            if missing:
                raise ValueError(
                    f"{self.action}: pattern {pattern.pattern!r} lacks the group(s) "
                    f"{', '.join(sorted(missing))}"
                )
        return self

    @cached_property
    def compiled(self) -> list[re.Pattern[str]]:
        return [re.compile(p, re.IGNORECASE) for p in self.patterns]


class NotTaken(Contract):
    """The one sentence said for a direction the band does not take, by why."""

    about: str = ""
    unread: str
    pitched_only: str
    same_key: str
    same_tempo: str
    same_feel: str


class DirectiveTable(Contract):
    """How a typed line is read as directions to the band."""

    about: str = ""
    band: list[str] = Field(min_length=1)
    actions: list[DirectiveAction] = Field(min_length=1)
    not_taken: NotTaken

    def action(self, name: str) -> DirectiveAction | None:
        return next((a for a in self.actions if a.action == name), None)

    @field_validator("band")
    @classmethod
    def _band(cls, value: list[str]) -> list[str]:
        return expressions(value)

    @cached_property
    def band_pattern(self) -> re.Pattern[str]:
        return re.compile("|".join(f"(?:{p})" for p in self.band), re.IGNORECASE)


@skill_table
def band_table(root: Path) -> BandTable:
    """The jam band's members under `root`, validated and cached."""
    return load_table(PERSONAS_FILE, BandTable, root=root)


@skill_table
def directive_table(root: Path) -> DirectiveTable:
    """The directions the band understands under `root`, validated and cached."""
    return load_table(DIRECTIVES_FILE, DirectiveTable, root=root)
