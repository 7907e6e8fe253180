"""How repeated sections develop, part by part, from `skills/melody/development.json`.

The devices are code (`compose/parts/development.py`); which part uses which on
its second, third and last statement is data here, with its sources.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, get_args

from pydantic import Field, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.song import SectionKind, TrackRole
from muse_tui.knowledge.loader import load_table, unique
from muse_tui.knowledge.table import skill_table

DEVELOPMENT_FILE = "melody/development.json"

#: What a repeat may do to a part (see the file's `devices`).
Device = Literal[
    "approach",
    "octave",
    "fill",
    "anticipate",
    "inversion",
    "double_top",
    "register",
    "third_up",
    "octave_up",
    "invert",
    "passing",
]
#: Section kinds that are solos: a repeat of one builds instead of varying.
SOLO_KINDS: frozenset[SectionKind] = frozenset({"solo"})


class PartDevelopment(Contract):
    """The devices of one family of parts, per repeat."""

    roles: list[TrackRole] = Field(min_length=1)
    repeats: list[list[Device]] = Field(min_length=1)
    last_peak: list[Device] = Field(min_length=1)
    solo: list[list[Device]] = Field(default_factory=list)

    def devices(self, ordinal: int, *, last_peak: bool, solo: bool) -> list[Device]:
        """The devices of statement `ordinal` (2 the first repeat); none for a first statement."""
        if ordinal < 2:
            return []
        if last_peak:
            return self.last_peak
        turns = self.solo if solo and self.solo else self.repeats
        return turns[(ordinal - 2) % len(turns)]


class DevelopmentTable(Contract):
    """Every part family's development, each role in one family at most."""

    about: str
    sources: list[str] = Field(min_length=1)
    devices: dict[Device, str]
    parts: dict[str, PartDevelopment]

    @model_validator(mode="after")
    def _every_device_described_and_roles_once(self) -> DevelopmentTable:
        missing = [d for d in get_args(Device) if d not in self.devices]
        if missing:
            raise ValueError(f"devices not described: {', '.join(missing)}")
        unique([r for p in self.parts.values() for r in p.roles], "roles in two families")
        return self

    def for_role(self, role: TrackRole) -> PartDevelopment | None:
        """The family a role develops with (None: drums and percussion have their own)."""
        return next((p for p in self.parts.values() if role in p.roles), None)


@skill_table
def development_table(root: Path) -> DevelopmentTable:
    """`skills/melody/development.json` under `root`, checked and cached."""
    return load_table(DEVELOPMENT_FILE, DevelopmentTable, root=root)
