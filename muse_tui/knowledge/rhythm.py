"""Rhythm knowledge from `skills/rhythm/`: drum families, grooves, comping, bass and motif rhythms.

Rhythms are written as 16th-step grids, one character per step, a bar per 16
characters. Drums: `X` accent, `x` hit, `o` ghost, `.` rest. Pitched parts add
`-` (hold the note before) and their own hit letters, listed per file below.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.intent import BassStyle, ChordRhythm, DrumFamily
from muse_tui.contracts.song import TRACK_ROLES, TrackRole
from muse_tui.knowledge.loader import SkillFileError, load_table, skills_root

DRUMS_FILE = "rhythm/drum-patterns.json"
GROOVES_FILE = "rhythm/grooves.json"
COMPING_FILE = "rhythm/comping.json"
BASS_FILE = "rhythm/bass-patterns.json"
MOTIFS_FILE = "rhythm/motifs.json"
TRACKS_FILE = "rhythm/tracks.json"

#: Drum voices a pattern may name; `muse_tui.theory.drums.VOICE_PITCHES` gives their keys.
DrumVoice = Literal[
    "kick", "snare", "rim", "clap", "closed_hat", "pedal_hat", "open_hat", "crash", "ride",
    "ride_bell", "tom_high", "tom_mid", "tom_low", "tom_floor", "shaker", "tambourine",
    "cowbell", "claves", "conga_high", "conga_low", "conga_mute", "bongo_high", "bongo_low",
    "cabasa", "woodblock", "agogo_high", "agogo_low", "timbale_high", "triangle",
]  # fmt: skip
Density = Literal["sparse", "base", "busy"]
SwingUnit = Literal["8th", "16th"]

_FAMILIES: tuple[str, ...] = tuple(f for f in DrumFamily.__args__ if f != "none")  # type: ignore[attr-defined]
_BASS_STYLES: tuple[str, ...] = tuple(s for s in BassStyle.__args__ if s != "none")  # type: ignore[attr-defined]
_CHORD_RHYTHMS: tuple[str, ...] = tuple(r for r in ChordRhythm.__args__ if r != "none")  # type: ignore[attr-defined]


def check_grid(grid: str, letters: str) -> str:
    """A grid of whole beats (a multiple of 4 steps, at most 4 bars) written in `letters`."""
    wrong = sorted({c for c in grid if c not in letters})
    if wrong:
        raise ValueError(f"grid {grid!r} uses {''.join(wrong)!r}; allowed: {letters!r}")
    if not grid or len(grid) % 4 or len(grid) > 64:
        raise ValueError(f"grid {grid!r} has {len(grid)} steps; use 4–64, a multiple of 4")
    return grid


class DrumPattern(Contract):
    """One drum groove: a grid per voice, all the same length (one or more bars)."""

    voices: dict[DrumVoice, str] = Field(min_length=1)

    @field_validator("voices")
    @classmethod
    def _grids(cls, value: dict[str, str]) -> dict[str, str]:
        for grid in value.values():
            check_grid(grid, "Xxo.")
        lengths = {len(g) for g in value.values()}
        if len(lengths) > 1:
            raise ValueError(f"every voice needs the same length, got {sorted(lengths)}")
        return value

    @property
    def steps(self) -> int:
        return len(next(iter(self.voices.values())))


class DrumLevels(Contract):
    """Patterns for quiet, normal and hot sections; a section picks one by its energy."""

    sparse: list[DrumPattern] = Field(min_length=1)
    base: list[DrumPattern] = Field(min_length=1)
    busy: list[DrumPattern] = Field(min_length=1)


class HatRoll(Contract):
    """A hat roll: `per_beat` hits a beat for `beats` beats, velocity ramping start→end."""

    name: str
    per_beat: int = Field(ge=2, le=16)
    beats: float = Field(gt=0, le=2)
    ramp: tuple[float, float] = (1.0, 1.0)
    weight: float = Field(default=1.0, gt=0)


class HatRollRules(Contract):
    """When and how the hats roll (trap): chance per bar at full energy, where rolls start."""

    voice: DrumVoice = "closed_hat"
    chance: float = Field(ge=0, le=1)
    start_steps: list[int] = Field(min_length=1)
    rolls: list[HatRoll] = Field(min_length=1)


class Fill(Contract):
    """A fill over the last steps of a bar; `keep` voices of the groove play on under it."""

    voices: dict[DrumVoice, str] = Field(min_length=1)
    keep: list[DrumVoice] = Field(default_factory=list)
    ramp: tuple[float, float] = (1.0, 1.0)

    @field_validator("voices")
    @classmethod
    def _grids(cls, value: dict[str, str]) -> dict[str, str]:
        for grid in value.values():
            check_grid(grid, "Xxo.")
        if len({len(g) for g in value.values()}) > 1 or len(next(iter(value.values()))) > 16:
            raise ValueError("fill voices need one length, at most 16 steps")
        return value

    @property
    def steps(self) -> int:
        return len(next(iter(self.voices.values())))


class FamilyRhythm(Contract):
    """A drum family: its patterns, kit, groove, swing, fills and (trap) hat rolls."""

    display_name: str
    drum_kit: int = Field(ge=0, le=127, description="GM2 kit program: 0 standard, 25 TR-808…")
    groove: str
    swing: float = Field(ge=50, le=75, description="used when the genre DNA gives none")
    swing_unit: SwingUnit = "16th"
    aliases: list[str] = Field(default_factory=list, description="genre words that pick it")
    bass_style: BassStyle = Field(default="root_fifth", description="the bass it pairs with")
    chord_rhythm: ChordRhythm = Field(default="sustained", description="the comping it pairs with")
    patterns: DrumLevels
    fills: list[str] = Field(min_length=1)
    hat_rolls: HatRollRules | None = None
    percussion: list[DrumPattern] = Field(default_factory=list)


class DrumTable(Contract):
    """Everything in drum-patterns.json."""

    velocities: dict[Literal["X", "x", "o"], int]
    gates: dict[DrumVoice, float] = Field(description="how long each voice's note is, in beats")
    voice_words: dict[str, list[DrumVoice]] = Field(description="constraint words → voices")
    fills: dict[str, Fill]
    build_fill: str = Field(description="the fill of a section that builds into the next")
    percussion: list[DrumPattern] = Field(min_length=1, description="hand percussion fallback")
    families: dict[DrumFamily, FamilyRhythm]

    @field_validator("families")
    @classmethod
    def _every_family(cls, value: dict[str, FamilyRhythm]) -> dict[str, FamilyRhythm]:
        missing = [f for f in _FAMILIES if f not in value]
        if missing:
            raise ValueError(f"missing drum families: {', '.join(missing)}")
        return value

    @model_validator(mode="after")
    def _fills_exist(self) -> DrumTable:
        if self.build_fill not in self.fills:
            raise ValueError(f"buildFill: no fill {self.build_fill!r}")
        for name, family in self.families.items():
            unknown = [f for f in family.fills if f not in self.fills]
            if unknown:
                raise ValueError(f"families.{name}.fills: unknown fills {', '.join(unknown)}")
        return self


class Groove(Contract):
    """A groove template: per-16th timing (fractions of a 16th) and accents, plus feel."""

    description: str = ""
    timing: list[float] = Field(min_length=16, max_length=16)
    accents: list[float] = Field(min_length=16, max_length=16)
    voice_offsets_ms: dict[str, float] = Field(
        default_factory=dict, description="a voice or role played late (+) or early (−)"
    )
    timing_ms: float = Field(ge=0, le=40, description="random timing spread")
    velocity_range: int = Field(ge=0, le=40, description="random velocity spread, ±")

    @field_validator("timing")
    @classmethod
    def _small_offsets(cls, value: list[float]) -> list[float]:
        if any(abs(v) > 0.5 for v in value):
            raise ValueError("timing offsets are fractions of a 16th within ±0.5")
        return value

    @field_validator("accents")
    @classmethod
    def _sane_accents(cls, value: list[float]) -> list[float]:
        if any(not 0.3 <= v <= 1.5 for v in value):
            raise ValueError("accents are velocity multipliers within 0.3–1.5")
        return value


class GrooveTable(Contract):
    grooves: dict[str, Groove] = Field(min_length=1)


class GridLevels(Contract):
    """Grids for quiet, normal and hot sections, in the letters the file allows."""

    letters: ClassVar[str] = "x-."
    sparse: list[str] = Field(min_length=1)
    base: list[str] = Field(min_length=1)
    busy: list[str] = Field(min_length=1)

    @field_validator("sparse", "base", "busy")
    @classmethod
    def _grids(cls, value: list[str]) -> list[str]:
        return [check_grid(g, cls.letters) for g in value]


class CompingRhythm(GridLevels):
    """Chord hits: `X`/`x`/`o` accent/hit/soft, `P`/`p` a push (plays the next chord early)."""

    letters: ClassVar[str] = "XxoPp-."
    gate: float = Field(default=0.95, gt=0, le=1, description="share of each hit that sounds")


class BassRhythm(GridLevels):
    """Bass steps: `R` chord bass, `5` fifth, `8` octave, `3` third, `c` a chord tone,
    `s` a scale step on, `a` an approach into the next chord."""

    letters: ClassVar[str] = "R583csa-."


class MotifRhythms(GridLevels):
    """Lead motif rhythms, one bar each: `x` note, `-` hold, `.` rest; `cadence` ends phrases."""

    cadence: list[str] = Field(min_length=1)

    @field_validator("cadence")
    @classmethod
    def _cadence_grids(cls, value: list[str]) -> list[str]:
        return [check_grid(g, cls.letters) for g in value]


class TrackLook(Contract):
    """How a role's track is named, which GM program plays it, its colour and pitch range."""

    name: str
    program: int | None = Field(default=None, ge=0, le=127)
    color: str = Field(default="#7f8c8d", pattern=r"^#[0-9a-fA-F]{6}$")
    pitch_range: tuple[int, int] = (36, 96)

    @field_validator("pitch_range")
    @classmethod
    def _ordered(cls, value: tuple[int, int]) -> tuple[int, int]:
        if not 0 <= value[0] < value[1] <= 127 or value[1] - value[0] < 12:
            raise ValueError(f"register {value} must span at least an octave within 0–127")
        return value


class TrackOverride(Contract):
    """A change to a role's look when the genre asks for a style (808 bass → Synth Bass)."""

    role: TrackRole
    drum_family: DrumFamily | None = None
    bass_style: BassStyle | None = None
    chord_rhythm: ChordRhythm | None = None
    name: str | None = None
    program: int | None = Field(default=None, ge=0, le=127)
    pitch_range: tuple[int, int] | None = None


class TrackTable(Contract):
    roles: dict[TrackRole, TrackLook]
    overrides: list[TrackOverride] = Field(default_factory=list)

    @field_validator("roles")
    @classmethod
    def _every_role(cls, value: dict[str, TrackLook]) -> dict[str, TrackLook]:
        missing = [r for r in TRACK_ROLES if r not in value]
        if missing:
            raise ValueError(f"missing roles: {', '.join(missing)}")
        return value


class RhythmTable(Contract):
    """All of `skills/rhythm/`, checked together (a family's groove must exist)."""

    drums: DrumTable
    grooves: dict[str, Groove]
    comping: dict[ChordRhythm, CompingRhythm]
    bass: dict[BassStyle, BassRhythm]
    motifs: MotifRhythms
    tracks: TrackTable


def _require(path: Path, found: dict[str, object], wanted: tuple[str, ...], what: str) -> None:
    missing = [w for w in wanted if w not in found]
    if missing:
        raise SkillFileError(path, f"(top level): missing {what}: {', '.join(missing)}")


def rhythm_table(root: Path | None = None) -> RhythmTable:
    """The rhythm skill files under `root` (default: the skills folder), cached."""
    return _load(root or skills_root())


@cache
def _load(root: Path) -> RhythmTable:
    drums = load_table(DRUMS_FILE, DrumTable, root=root)
    grooves = load_table(GROOVES_FILE, GrooveTable, root=root).grooves
    for name, family in drums.families.items():
        if family.groove not in grooves:
            raise SkillFileError(
                root / DRUMS_FILE, f"families.{name}.groove: no groove {family.groove!r}"
            )
    comping = load_table(COMPING_FILE, dict[ChordRhythm, CompingRhythm], root=root)
    _require(root / COMPING_FILE, comping, _CHORD_RHYTHMS, "chord rhythms")
    bass = load_table(BASS_FILE, dict[BassStyle, BassRhythm], root=root)
    _require(root / BASS_FILE, bass, _BASS_STYLES, "bass styles")
    return RhythmTable(
        drums=drums,
        grooves=grooves,
        comping=comping,
        bass=bass,
        motifs=load_table(MOTIFS_FILE, MotifRhythms, root=root),
        tracks=load_table(TRACKS_FILE, TrackTable, root=root),
    )


def reload() -> None:
    """Forget the cached tables so the next call reads the files again."""
    _load.cache_clear()
