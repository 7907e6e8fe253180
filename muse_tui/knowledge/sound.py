"""The sound skill files: the catalog of sounds, the effect rules and the mood palette.

Every catalog `name` is either a description of the sound (`source: "described"`)
or a real product preset name with `source` saying where it comes from. A user
catalog (`sound/user-catalog.json` beside the skills, or a path the caller passes)
replaces bundled entries with the same id and adds the rest.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import Field, JsonValue, ValidationError, field_validator, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.song import TRACK_ROLES, TrackRole
from muse_tui.knowledge.loader import (
    SkillFileError,
    describe_validation_error,
    load_table,
    normalise_word,
    normalised,
    skills_root,
    unique,
    with_every_role,
)
from muse_tui.knowledge.rhythm import rhythm_table
from muse_tui.knowledge.table import skill_table

CATALOG_FILE = "sound/catalog.json"
USER_CATALOG_FILE = "sound/user-catalog.json"
EFFECTS_FILE = "sound/effects.json"
MOODS_FILE = "sound/moods.json"
#: Written in `genres` for a sound that suits any genre.
ANY_GENRE = "*"
DESCRIBED = "described"

NoteValue = Literal["whole", "half", "quarter", "eighth", "dotted_eighth", "sixteenth", "pre_delay"]

_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
_VAGUE_SOURCES = frozenset({"unknown", "?", "n/a", "none", "todo", "tbd"})


def _check_provenance(name: str, source: str) -> None:
    """A described name reads as a description; any other source must say where it is from."""
    if not source.strip():
        raise ValueError("source is empty: write 'described' or where the name comes from")
    if source == DESCRIBED:
        if name[:1].isupper() or len(name.split()) < 3:
            raise ValueError(
                f"name {name!r} is marked described, so describe the sound in lowercase words "
                "('warm sine sub with short glide'); a product name needs its source"
            )
    elif source.strip().lower() in _VAGUE_SOURCES or len(source.strip()) < 6:
        raise ValueError(f"source {source!r} does not say where the name {name!r} comes from")


def _check_levels(levels: dict[str, float]) -> dict[str, float]:
    wrong = [bus for bus, level in levels.items() if not 0 <= level <= 1]
    if wrong:
        raise ValueError(f"send levels are 0–1: {', '.join(wrong)}")
    return levels


class SoundEntry(Contract):
    """One sound: the engine to load in MPC Beats, the patch, a GM stand-in, and when it fits."""

    id: str
    roles: list[TrackRole] = Field(min_length=1, description="the first is where it fits best")
    instrument: str | None = Field(
        default=None, description="the instrument it is (sound/instruments.json), same GM program"
    )
    genres: list[str] = Field(min_length=1, description="genre families, genre ids, or '*'")
    engine: str = Field(min_length=1)
    engine_source: str = Field(min_length=1, description="where the engine's name comes from")
    name: str = Field(min_length=1)
    category: str = Field(min_length=1)
    gm_program: int | None = Field(default=None, ge=0, le=127)
    gm_drum_kit: int | None = Field(default=None, ge=0, le=127)
    parameters: dict[str, JsonValue] = Field(default_factory=dict)
    source: str
    tags: list[str] = Field(default_factory=list)

    @field_validator("id")
    @classmethod
    def _id_is_a_key(cls, value: str) -> str:
        if not _ID.match(value):
            raise ValueError(f"{value!r}: write ids lowercase with dots or dashes")
        return value

    @field_validator("genres", "tags")
    @classmethod
    def _words_are_normalised(cls, value: list[str]) -> list[str]:
        normalised(value, keep=ANY_GENRE)
        return value

    def playable_problem(self, kit_roles: frozenset[str]) -> str | None:
        """What stops this sound playing its roles (`kit_roles` play GM kits), if anything."""
        kit = [r for r in self.roles if r in kit_roles]
        if kit and len(kit) != len(self.roles):
            return f"{self.id}: roles mix drum kits and pitched sounds"
        if kit and self.gm_drum_kit is None:
            return f"{self.id}: gmDrumKit is missing; a drum sound needs a GM kit"
        if not kit and self.gm_program is None:
            return f"{self.id}: gmProgram is missing; a pitched sound needs one"
        return None

    @model_validator(mode="after")
    def _honest(self) -> SoundEntry:
        try:
            _check_provenance(self.name, self.source)
        except ValueError as exc:
            raise ValueError(f"{self.id}: {exc}") from None
        if not self.engine_source.strip():
            raise ValueError(f"{self.id}: engineSource is empty; write 'described' or a source")
        return self


class UserSoundCatalog(Contract):
    """A producer's own entries: same shape as the bundled ones, merged over them by id."""

    about: str = ""
    entries: list[SoundEntry] = Field(default_factory=list)


class SoundCatalog(Contract):
    """Every sound the assigner can choose from; each role has at least one any-genre sound."""

    about: str = ""
    entries: list[SoundEntry] = Field(min_length=1)

    @field_validator("entries")
    @classmethod
    def _ids_unique_and_roles_covered(cls, value: list[SoundEntry]) -> list[SoundEntry]:
        unique([e.id for e in value], "ids must be unique, repeated")
        covered = {r for e in value if ANY_GENRE in e.genres for r in e.roles}
        missing = [r for r in TRACK_ROLES if r not in covered]
        if missing:
            raise ValueError(f"these roles have no any-genre ('*') sound: {', '.join(missing)}")
        return value

    def for_role(self, role: str) -> list[SoundEntry]:
        return [e for e in self.entries if role in e.roles]


class EffectUnit(Contract):
    """An effect the chains may load, by kind: its name in MPC Beats and where that comes from."""

    name: str = Field(min_length=1)
    source: str

    @model_validator(mode="after")
    def _honest(self) -> EffectUnit:
        _check_provenance(self.name, self.source)
        return self


class EffectStep(Contract):
    """One insert: its kind, fixed parameters, and parameters timed to the tempo."""

    kind: str = Field(min_length=1)
    parameters: dict[str, JsonValue] = Field(default_factory=dict)
    synced: dict[str, NoteValue] = Field(
        default_factory=dict, description="parameter → note value, written in ms for the tempo"
    )


class RoleChain(Contract):
    """The inserts and sends a role gets before any style override."""

    inserts: list[EffectStep] = Field(default_factory=list)
    sends: dict[str, float] = Field(default_factory=dict)

    @field_validator("sends")
    @classmethod
    def _levels(cls, value: dict[str, float]) -> dict[str, float]:
        return _check_levels(value)


class StyleOverride(Contract):
    """What a genre changes: inserts it adds, parameters it reshapes, send levels, the bus."""

    genres: list[str] = Field(min_length=1, description="families or genre ids that trigger it")
    add: dict[TrackRole, list[EffectStep]] = Field(default_factory=dict)
    reshape: dict[TrackRole, dict[str, dict[str, JsonValue]]] = Field(
        default_factory=dict, description="role → effect kind → parameters to overwrite"
    )
    sends: dict[TrackRole, dict[str, float]] = Field(default_factory=dict)
    bus: dict[str, JsonValue] = Field(default_factory=dict, description="reverb bus parameters")

    @field_validator("sends")
    @classmethod
    def _levels(cls, value: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
        for levels in value.values():
            _check_levels(levels)
        return value

    @field_validator("genres")
    @classmethod
    def _words_are_normalised(cls, value: list[str]) -> list[str]:
        normalised(value)
        return value


class ReverbBus(Contract):
    """The shared return every pad, lead and chord track sends to."""

    id: str
    name: str
    volume: int = Field(default=100, ge=0, le=127)
    inserts: list[EffectStep] = Field(min_length=1)


class EffectsTable(Contract):
    """Everything in the effects skill file."""

    about: str = ""
    units: dict[str, EffectUnit]
    bus: ReverbBus
    role_chains: dict[TrackRole, RoleChain]
    style_overrides: dict[str, StyleOverride] = Field(default_factory=dict)
    constraints: dict[str, list[str]] = Field(
        description="constraint words → effect kinds they remove ('all' removes everything)"
    )
    signal_order: list[str] = Field(
        default_factory=list, description="insert order by kind; kinds not listed go last"
    )

    @field_validator("role_chains")
    @classmethod
    def _every_role(cls, value: dict[str, RoleChain]) -> dict[str, RoleChain]:
        with_every_role(value)
        return value

    @model_validator(mode="after")
    def _known_kinds_and_buses(self) -> EffectsTable:
        steps = [("bus.inserts", s) for s in self.bus.inserts]
        steps += [
            (f"roleChains.{r}.inserts", s) for r, c in self.role_chains.items() for s in c.inserts
        ]
        for name, override in self.style_overrides.items():
            steps += [
                (f"styleOverrides.{name}.add.{r}", s) for r, ss in override.add.items() for s in ss
            ]
        for where, step in steps:
            if step.kind not in self.units:
                raise ValueError(f"{where}: effect kind {step.kind!r} is not in units")
        sends = [(f"roleChains.{r}", c.sends) for r, c in self.role_chains.items()]
        sends += [
            (f"styleOverrides.{n}.sends", s)
            for n, o in self.style_overrides.items()
            for s in o.sends.values()
        ]
        for where, levels in sends:
            unknown = [b for b in levels if b != self.bus.id]
            if unknown:
                raise ValueError(f"{where}: sends to unknown bus {', '.join(unknown)}")
        for words, kinds in self.constraints.items():
            wrong = [k for k in kinds if k not in (*self.units, "all")]
            if wrong:
                raise ValueError(f"constraints.{words}: unknown effect kinds {', '.join(wrong)}")
        return self


class Mood(Contract):
    """How a mood sounds: brightness 0 (dark, low, minor) to 1 (bright, high, major), and tags."""

    brightness: float = Field(ge=0, le=1)
    tags: list[str] = Field(default_factory=list)


class MoodPalette(Contract):
    """Mood words (lowercase, underscores) and how each one sounds."""

    about: str = ""
    moods: dict[str, Mood]

    @field_validator("moods")
    @classmethod
    def _keys_are_normalised(cls, value: dict[str, Mood]) -> dict[str, Mood]:
        normalised(value, "moods")
        return value

    def find(self, word: str) -> Mood | None:
        return self.moods.get(normalise_word(word))


def sound_catalog(root: Path | None = None, user_catalog: Path | None = None) -> SoundCatalog:
    """The bundled catalog with the user catalog merged over it, cached.

    `user_catalog` defaults to `sound/user-catalog.json` under `root` when that file exists.
    """
    root = root or skills_root()
    if user_catalog is None and (root / USER_CATALOG_FILE).is_file():
        user_catalog = root / USER_CATALOG_FILE
    if user_catalog is None:
        return _bundled_catalog(root)
    return _merged_catalog(root, user_catalog)


@skill_table
def effects_table(root: Path) -> EffectsTable:
    """The effect rules under `root`, cached."""
    return load_table(EFFECTS_FILE, EffectsTable, root=root)


@skill_table
def mood_palette(root: Path) -> MoodPalette:
    """The mood palette under `root`, cached."""
    return load_table(MOODS_FILE, MoodPalette, root=root)


def reload() -> None:
    """Forget the cached sound tables so the next call reads the files again."""
    _bundled_catalog.reload()
    _merged_catalog.cache_clear()
    effects_table.reload()
    mood_palette.reload()


@skill_table
def _bundled_catalog(root: Path) -> SoundCatalog:
    catalog = load_table(CATALOG_FILE, SoundCatalog, root=root)
    _check_playable(catalog.entries, root, root / CATALOG_FILE)
    return catalog


def _check_playable(entries: list[SoundEntry], root: Path, path: Path) -> None:
    """Kit roles (tracks.json) get GM kits, the others GM programs; never both in one sound."""
    kit_roles = rhythm_table(root).tracks.kit_roles
    for index, entry in enumerate(entries):
        problem = entry.playable_problem(kit_roles)
        if problem is not None:
            raise SkillFileError(path, f"entries.{index}: {problem}")


@cache
def _merged_catalog(root: Path, user_catalog: Path) -> SoundCatalog:
    """The bundled catalog with a producer's own entries merged over it by id."""
    bundled = _bundled_catalog(root)
    extra = load_table(user_catalog.name, UserSoundCatalog, root=user_catalog.parent)
    _check_playable(extra.entries, root, user_catalog)
    merged = {e.id: e for e in bundled.entries}
    merged.update({e.id: e for e in extra.entries})
    try:
        return SoundCatalog(entries=list(merged.values()))
    except ValidationError as exc:
        raise SkillFileError(user_catalog, describe_validation_error(exc)) from None
