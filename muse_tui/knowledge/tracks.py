"""Roles and their traits from `skills/rhythm/tracks.json`: one truth for what a role is.

A role's track look (the instrument that plays it, colour, register), whether
it plays a GM drum kit (`kit`, on `drumChannel`, with only `kitVoices`) and
whether it plays one note at a time (`monophonic`). A pitched role names an
`instrument` of `sound/instruments.json`, which gives its track name and GM
program, so a name never disagrees with the sound.
"""

from __future__ import annotations

import re

from pydantic import Field, field_validator, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.intent import BassStyle, ChordRhythm, DrumFamily
from muse_tui.contracts.song import TrackRole
from muse_tui.knowledge.loader import unique, with_every_role

TRACKS_FILE = "rhythm/tracks.json"
_VOICE = re.compile(r"^[a-z][a-z0-9_]*$")


class TrackLook(Contract):
    """Which instrument plays a role (or its kit's name), its colour, range and traits."""

    name: str = ""
    instrument: str | None = Field(default=None, description="an id of sound/instruments.json")
    program: int | None = Field(default=None, ge=0, le=127)
    color: str = Field(default="#7f8c8d", pattern=r"^#[0-9a-fA-F]{6}$")
    pitch_range: tuple[int, int] = (36, 96)
    kit: bool = Field(default=False, description="plays a GM drum kit on the drum channel")
    monophonic: bool = Field(default=False, description="plays one note at a time")

    @field_validator("pitch_range")
    @classmethod
    def _ordered(cls, value: tuple[int, int]) -> tuple[int, int]:
        if not 0 <= value[0] < value[1] <= 127 or value[1] - value[0] < 12:
            raise ValueError(f"register {value} must span at least an octave within 0–127")
        return value

    @model_validator(mode="after")
    def _kit_or_program(self) -> TrackLook:
        if self.kit and (self.program is not None or self.instrument is not None):
            raise ValueError("a kit role plays a drum kit: leave out program and instrument")
        if self.kit and not self.name:
            raise ValueError("a kit role needs a name")
        if not self.kit and self.program is None and self.instrument is None:
            raise ValueError("a pitched role needs an instrument (or a GM program)")
        if self.kit and self.monophonic:
            raise ValueError("a kit role cannot be monophonic")
        return self


class TrackOverride(Contract):
    """A change to a role's look when the genre asks for a style (walking bass → upright)."""

    role: TrackRole
    drum_family: DrumFamily | None = None
    bass_style: BassStyle | None = None
    chord_rhythm: ChordRhythm | None = None
    instrument: str | None = None
    name: str | None = None
    program: int | None = Field(default=None, ge=0, le=127)
    pitch_range: tuple[int, int] | None = None


class TrackTable(Contract):
    """Every role's look and traits, the drum channel and the voices a kit may play."""

    about: str = ""
    drum_channel: int = Field(default=9, ge=0, le=15, description="0-based: 9 is channel 10")
    kit_voices: list[str] = Field(
        min_length=1, description="drum voices a pattern may name (each a key of the GM drum map)"
    )
    roles: dict[TrackRole, TrackLook]
    overrides: list[TrackOverride] = Field(default_factory=list)

    @field_validator("roles")
    @classmethod
    def _every_role(cls, value: dict[str, TrackLook]) -> dict[str, TrackLook]:
        with_every_role(value)
        if not any(look.kit for look in value.values()):
            raise ValueError("no role is a kit: mark the drums `kit: true`")
        return value

    @field_validator("kit_voices")
    @classmethod
    def _voice_names(cls, value: list[str]) -> list[str]:
        wrong = [v for v in value if not _VOICE.match(v)]
        if wrong:
            raise ValueError(f"write voices lowercase with underscores: {', '.join(wrong)}")
        unique(value, "voices listed twice")
        return value

    @property
    def kit_roles(self) -> frozenset[str]:
        """Roles played from a GM drum kit: they share the drum channel."""
        return frozenset(role for role, look in self.roles.items() if look.kit)

    @property
    def monophonic_roles(self) -> frozenset[str]:
        """Roles that play one note at a time (a bass line, a lead)."""
        return frozenset(role for role, look in self.roles.items() if look.monophonic)
