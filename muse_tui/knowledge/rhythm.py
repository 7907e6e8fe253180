"""Rhythm knowledge from `skills/rhythm/`: drum families, grooves, comping and bass rhythms.

Rhythms are written as 16th-step grids, one character per step, a bar per 16
characters. Drums: `X` accent, `x` hit, `o` ghost, `.` rest. Pitched parts add
`-` (hold the note before) and their own hit letters, listed per file below.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.intent import BassStyle, ChordRhythm, DrumFamily
from muse_tui.contracts.meter import Meter
from muse_tui.knowledge.loader import SkillFileError, load_table
from muse_tui.knowledge.table import skill_table
from muse_tui.knowledge.tracks import TRACKS_FILE, TrackTable

DRUMS_FILE = "rhythm/drum-patterns.json"
FILLS_FILE = "rhythm/fills.json"
#: One file per group of drum families; a family id is unique across the folder.
FAMILIES_DIR = "rhythm/drum-families"
GROOVES_FILE = "rhythm/grooves.json"
COMPING_FILE = "rhythm/comping.json"
BASS_FILE = "rhythm/bass-patterns.json"

#: A drum voice: one of `kitVoices` in tracks.json (checked when the files load).
DrumVoice = str
Density = Literal["sparse", "base", "busy"]
SwingUnit = Literal["8th", "16th"]

#: A drum family id: the key of a family in one of the drum-families/*.json files.
FAMILY_ID = re.compile(r"^[a-z][a-z0-9_]*$")
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
    #: The tempos (BPM) it is played at, and only there (a blast beat); None: any tempo.
    tempo_range: tuple[float, float] | None = None

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
    source: str = Field(default="", description="the style reference its patterns come from")
    drum_kit: int = Field(ge=0, le=127, description="GM2 kit program: 0 standard, 25 TR-808…")
    groove: str
    swing: float = Field(ge=50, le=75, description="used when the genre DNA gives none")
    swing_unit: SwingUnit = "16th"
    aliases: list[str] = Field(default_factory=list, description="genre words that pick it")
    source: str = Field(default="", description="the records and players its grooves come from")
    bass_style: BassStyle = Field(default="root_fifth", description="the bass it pairs with")
    chord_rhythm: ChordRhythm = Field(default="sustained", description="the comping it pairs with")
    sub_bass_style: BassStyle = Field(
        default="sustained", description="what a sub-bass track plays: an 808, or a held sub"
    )
    patterns: DrumLevels
    fills: list[str] = Field(min_length=1)
    hat_rolls: HatRollRules | None = None
    percussion: list[DrumPattern] = Field(default_factory=list)


class _DrumBasics(Contract):
    """drum-patterns.json: what every family shares."""

    about: str = ""
    velocities: dict[Literal["X", "x", "o"], int]
    gates: dict[DrumVoice, float]
    voice_words: dict[str, list[DrumVoice]]
    hand_percussion: list[DrumVoice] = Field(default_factory=list)
    percussion: list[DrumPattern] = Field(min_length=1)


class _FillFile(Contract):
    """fills.json: the named fills and the one a build ends on."""

    about: str = ""
    fills: dict[str, Fill] = Field(min_length=1)
    build_fill: str


class _FamilyFile(Contract):
    """One file of drum-families/: some families, each with where its patterns come from."""

    about: str = ""
    families: dict[DrumFamily, FamilyRhythm] = Field(min_length=1)


class DrumTable(Contract):
    """drum-patterns.json, fills.json and every drum-families/*.json, checked together."""

    velocities: dict[Literal["X", "x", "o"], int]
    gates: dict[DrumVoice, float] = Field(description="how long each voice's note is, in beats")
    voice_words: dict[str, list[DrumVoice]] = Field(description="constraint words → voices")
    fills: dict[str, Fill]
    build_fill: str = Field(description="the fill of a section that builds into the next")
    hand_percussion: list[DrumVoice] = Field(
        default_factory=list, description="voices a named sound takes off the kit to its own track"
    )
    percussion: list[DrumPattern] = Field(min_length=1, description="hand percussion fallback")
    families: dict[DrumFamily, FamilyRhythm] = Field(min_length=1)

    @field_validator("families")
    @classmethod
    def _family_ids(cls, value: dict[str, FamilyRhythm]) -> dict[str, FamilyRhythm]:
        wrong = [f for f in value if not FAMILY_ID.match(f) or f == "none"]
        if wrong:
            raise ValueError(f"family ids are snake_case words, not 'none': {', '.join(wrong)}")
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


CompingPlay = Literal["chord", "strum", "arp", "power", "montuno"]


class CompingRhythm(GridLevels):
    """Chord hits: `X`/`x`/`o` accent/hit/soft, `P`/`p` a push (plays the next chord early),
    `m` a muted scratch (the fretting hand damps the strings: a click, not a chord)."""

    letters: ClassVar[str] = "XxoPpm-."
    gate: float = Field(default=0.95, gt=0, le=1, description="share of each hit that sounds")
    play: CompingPlay = Field(
        default="chord",
        description="chord: every note at once; strum: one string after another; arp: one "
        "chord tone a hit (arpeggios, picked ostinatos); power: root, fifth and octave; "
        "montuno: a chord tone doubled at the octave a hit, the chord filled in on accents",
    )
    answer: ChordRhythm = Field(
        default="sustained", description="what a second keyboard plays against this rhythm"
    )
    arp: ChordRhythm = Field(
        default="arpeggiated",
        description="what an arp track plays against this rhythm (a bluegrass banjo's rolls)",
    )
    anticipates: bool = Field(
        default=False,
        description="a hit held across a chord change plays the coming chord (bossa, samba) "
        "instead of striking again on the change, which the pattern does not have",
    )
    unstrummed: ChordRhythm | None = Field(
        default=None,
        description="a guitar's idiom: what an instrument that does not strum (a piano, a "
        "clavinet) plays in this seat instead; a strummed track takes the seat first",
    )
    held_players: list[tuple[int, int]] = Field(
        default_factory=list,
        description="GM programs (0-based, inclusive ranges) that would hold their chords but "
        "play this rhythm when it is the answer: their own idiom (organs bubble under a skank)",
    )
    source: str = ""


class HarmonyLayer(Contract):
    """One place in the band for a harmony track: its register, how many notes, its swell."""

    pitch_range: tuple[int, int]
    voices: tuple[int, int] = Field(description="notes in a quiet section, and otherwise")
    swell: bool = Field(default=False, description="expression swells into each chord (organ)")
    about: str = ""

    @model_validator(mode="after")
    def _sane(self) -> HarmonyLayer:
        low, high = self.pitch_range
        if not 0 <= low < high - 11 <= 116:
            raise ValueError(f"pitchRange {self.pitch_range} needs at least an octave within 0–127")
        if not 1 <= self.voices[0] <= self.voices[1] <= 6:
            raise ValueError(f"voices {self.voices} must be ascending within 1–6")
        return self


class CompingTable(Contract):
    """comping.json: the harmony layers, which instruments hold, and the rhythms by name."""

    about: str = ""
    layers: dict[Literal["comp", "answer", "held", "pad", "arp"], HarmonyLayer]
    held_programs: list[tuple[int, int]] = Field(
        description="GM program ranges (inclusive) whose chords hold and swell: organs, strings"
    )
    strum_programs: list[tuple[int, int]] = Field(
        default_factory=list,
        description="GM program ranges (inclusive) played by strumming strings (guitars, "
        "banjo); any other instrument plays a strum rhythm as block chords",
    )
    rhythms: dict[ChordRhythm, CompingRhythm]

    @model_validator(mode="after")
    def _answers_exist(self) -> CompingTable:
        for name, rhythm in self.rhythms.items():
            partners = [("answer", rhythm.answer), ("arp", rhythm.arp)]
            if rhythm.unstrummed is not None:
                partners.append(("unstrummed", rhythm.unstrummed))
            for field, partner in partners:
                if partner not in self.rhythms:
                    raise ValueError(f"rhythms.{name}.{field}: no rhythm {partner!r}")
        missing = {"comp", "answer", "held", "pad", "arp"} - set(self.layers)
        if missing:
            raise ValueError(f"layers: missing {', '.join(sorted(missing))}")
        return self


class Wobble(Contract):
    """A tempo-synced LFO on a controller under held bass notes: the dubstep wobble."""

    controller: int = Field(ge=0, le=127, description="the CC it moves (74: filter cutoff)")
    floor: int = Field(ge=0, le=127, description="the value at the bottom of each cycle")
    ceiling: int = Field(ge=0, le=127, description="the value at the top of each cycle")
    sparse: list[float] = Field(min_length=1, description="cycles per beat a bar may take")
    base: list[float] = Field(min_length=1)
    busy: list[float] = Field(min_length=1)
    points: int = Field(default=6, ge=4, le=16, description="controller values per cycle")

    @field_validator("sparse", "base", "busy")
    @classmethod
    def _rates(cls, value: list[float]) -> list[float]:
        if any(not 0 < r <= 8 for r in value):
            raise ValueError(f"rates {value} must be cycles per beat within (0, 8]")
        return value


class BassInMeter(Contract):
    """A bass style's own grids in one meter: one bar of it each, in `BassRhythm.letters`."""

    sparse: list[str] = Field(min_length=1)
    base: list[str] = Field(min_length=1)
    busy: list[str] = Field(min_length=1)


def meter_key(meter: Meter) -> str:
    """How `BassRhythm.meters` names a meter: "7/8 2+2+3", "5/4 3+2"."""
    return f"{meter.label} {'+'.join(str(g) for g in meter.grouping)}".strip()


class BassRhythm(GridLevels):
    """Bass steps: `R` chord bass, `5` fifth, `8` octave, `3` third, `c` a chord tone,
    `s` a scale step on, `a` an approach into the next chord, `n` the next chord's bass
    early (an anticipation), `x` a dead (muted) note."""

    letters: ClassVar[str] = "R583csanx-."
    kick_locked: bool = Field(default=False, description="plays on the drums' kicks")
    sub: bool = Field(default=False, description="an 808: a sub-bass track plays it too")
    gate: float = Field(default=0.9, gt=0, le=1, description="share of each note that sounds")
    glide: float = Field(
        default=0.0, ge=0, le=1, description="chance a note bends into the next (808 slides)"
    )
    slides: float = Field(
        default=0.0, ge=0, le=1, description="chance a repeated note moves (octave, fifth) to slide"
    )
    walks: bool = Field(
        default=False,
        description="a walking line: a note on a chord change plays the new chord's bass, "
        "and the note before it approaches by step, wherever in the bar the change falls",
    )
    chromatic: bool = Field(
        default=False,
        description="every approach note (`a`) a half step from its target, whatever the "
        "song's harmonic dial (Jamerson's chromatic walk-ups)",
    )
    wobble: Wobble | None = Field(
        default=None, description="an LFO on a controller, its rate chosen bar by bar"
    )
    pedal: bool = Field(
        default=False,
        description="one note: the key's tonic under every chord (its octave where the grid "
        "says 8), a pedal the chords move over (one-note techno)",
    )
    #: The style's own bar in other meters ("7/8 2+2+3"), so it keeps its idiom there.
    meters: dict[str, BassInMeter] = Field(default_factory=dict)
    meter_source: str = ""
    source: str = ""

    @model_validator(mode="after")
    def _meter_bars(self) -> BassRhythm:
        for key, levels in self.meters.items():
            label, _, groups = key.partition(" ")
            meter = Meter.parse(label, [int(g) for g in groups.split("+")] if groups else ())
            if meter_key(meter) != key:
                raise ValueError(f"meters: {key!r} is not written like '7/8 2+2+3'")
            bar = round(meter.beats_per_bar * 4)
            for density in ("sparse", "base", "busy"):
                for grid in getattr(levels, density):
                    wrong = sorted({c for c in grid if c not in self.letters})
                    if wrong or len(grid) != bar:
                        raise ValueError(
                            f"meters.{key}.{density}: {grid!r} must be {bar} steps "
                            f"in {self.letters!r}"
                        )
        return self


class RhythmTable(Contract):
    """All of `skills/rhythm/`, checked together (a family's groove must exist)."""

    drums: DrumTable
    grooves: dict[str, Groove]
    comping: dict[ChordRhythm, CompingRhythm]
    harmony_layers: dict[str, HarmonyLayer]
    held_programs: list[tuple[int, int]]
    strum_programs: list[tuple[int, int]] = Field(default_factory=list)
    bass: dict[BassStyle, BassRhythm]
    tracks: TrackTable


def _require(path: Path, found: dict[str, object], wanted: tuple[str, ...], what: str) -> None:
    missing = [w for w in wanted if w not in found]
    if missing:
        raise SkillFileError(path, f"(top level): missing {what}: {', '.join(missing)}")


@skill_table
def rhythm_table(root: Path) -> RhythmTable:
    """The rhythm skill files under `root`, checked together and cached."""
    drums, homes = _drum_table(root)
    grooves = load_table(GROOVES_FILE, GrooveTable, root=root).grooves
    for name, family in drums.families.items():
        if family.groove not in grooves:
            where = f"families.{name}.groove"
            raise SkillFileError(homes[name], f"{where}: no groove {family.groove!r}")
    comping = load_table(COMPING_FILE, CompingTable, root=root)
    _require(root / COMPING_FILE, comping.rhythms, _CHORD_RHYTHMS, "chord rhythms")
    bass = load_table(BASS_FILE, dict[BassStyle, BassRhythm], root=root)
    _require(root / BASS_FILE, bass, _BASS_STYLES, "bass styles")
    tracks = load_table(TRACKS_FILE, TrackTable, root=root)
    _check_voices(drums, tracks.kit_voices, root, homes)
    for index, override in enumerate(tracks.overrides):
        if override.drum_family is not None and override.drum_family not in drums.families:
            raise SkillFileError(
                root / TRACKS_FILE,
                f"overrides.{index}.drumFamily: {override.drum_family!r} is not a family "
                f"in {FAMILIES_DIR}/",
            )
    return RhythmTable(
        drums=drums,
        grooves=grooves,
        comping=comping.rhythms,
        harmony_layers=dict(comping.layers),
        held_programs=comping.held_programs,
        strum_programs=comping.strum_programs,
        bass=bass,
        tracks=tracks,
    )


def _drum_table(root: Path) -> tuple[DrumTable, dict[str, Path]]:
    """The three kinds of drum file as one table, and the file each family came from."""
    basics = load_table(DRUMS_FILE, _DrumBasics, root=root)
    fills = load_table(FILLS_FILE, _FillFile, root=root)
    folder = root / FAMILIES_DIR
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        raise SkillFileError(folder, "no drum family files (*.json) in this folder")
    families: dict[str, FamilyRhythm] = {}
    homes: dict[str, Path] = {}
    for path in files:
        loaded = load_table(f"{FAMILIES_DIR}/{path.name}", _FamilyFile, root=root)
        for name, family in loaded.families.items():
            if name in homes:
                raise SkillFileError(path, f"families.{name}: also in {homes[name].name}")
            families[name], homes[name] = family, path
    for name, family in families.items():
        unknown = [f for f in family.fills if f not in fills.fills]
        if unknown:
            raise SkillFileError(
                homes[name], f"families.{name}.fills: no fill {', '.join(unknown)} in {FILLS_FILE}"
            )
    if fills.build_fill not in fills.fills:
        raise SkillFileError(root / FILLS_FILE, f"buildFill: no fill {fills.build_fill!r}")
    table = DrumTable(
        velocities=basics.velocities,
        gates=basics.gates,
        voice_words=basics.voice_words,
        fills=fills.fills,
        build_fill=fills.build_fill,
        hand_percussion=basics.hand_percussion,
        percussion=basics.percussion,
        families=families,
    )
    return table, homes


def _check_voices(
    drums: DrumTable, kit_voices: list[str], root: Path, homes: dict[str, Path]
) -> None:
    """Every drum voice the patterns, fills and words name must be a kit voice of tracks.json."""
    basics, fills = root / DRUMS_FILE, root / FILLS_FILE
    uses: list[tuple[Path, str, list[str]]] = [
        (basics, "gates", list(drums.gates)),
        (basics, "handPercussion", list(drums.hand_percussion)),
        *((basics, f"voiceWords.{w}", list(v)) for w, v in drums.voice_words.items()),
        *((fills, f"fills.{n}", [*f.voices, *f.keep]) for n, f in drums.fills.items()),
        *((basics, f"percussion.{i}", list(p.voices)) for i, p in enumerate(drums.percussion)),
    ]
    for name, family in drums.families.items():
        where, home = f"families.{name}", homes[name]
        for level in ("sparse", "base", "busy"):
            for i, pattern in enumerate(getattr(family.patterns, level)):
                uses.append((home, f"{where}.patterns.{level}.{i}.voices", list(pattern.voices)))
        for i, pattern in enumerate(family.percussion):
            uses.append((home, f"{where}.percussion.{i}.voices", list(pattern.voices)))
        if family.hat_rolls is not None:
            uses.append((home, f"{where}.hatRolls.voice", [family.hat_rolls.voice]))
    known = set(kit_voices)
    for path, where, voices in uses:
        unknown = [v for v in voices if v not in known]
        if unknown:
            raise SkillFileError(
                path,
                f"{where}: {', '.join(map(repr, unknown))} is not a kit voice "
                f"(kitVoices in {TRACKS_FILE})",
            )
