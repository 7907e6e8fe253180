"""The song model: what a producer would see in a DAW project.

`SongState` is threaded through the pipeline and is also the project model that
DAW-style edits resolve against later: tracks, regions and buses carry stable ids.
Times are in beats (quarter notes) from the start of the song.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, JsonValue, model_validator

from muse_tui.contracts.base import SCHEMA_VERSION, Contract, Uuid
from muse_tui.contracts.constraint_phrases import has_phrases, split_constraints
from muse_tui.contracts.meter import BarMap, Meter

# Defined in vocabulary (no models) and re-exported: older code imports them from here.
from muse_tui.contracts.vocabulary import TRACK_ROLES as TRACK_ROLES
from muse_tui.contracts.vocabulary import TrackRole as TrackRole

SectionKind = Literal[
    "intro",
    "verse",
    "pre_chorus",
    "chorus",
    "hook",
    "drop",
    "build",
    "break",
    "bridge",
    "breakdown",
    "interlude",
    "solo",
    "head",
    "loop",
    "outro",
]
Transition = Literal["none", "build", "drop", "cut", "fade", "filter_sweep"]
#: `tail` plays the progression's last bars (a blues intro "from the V", a jazz tag on the
#: turnaround).
ChordPlan = Literal["loop", "vary", "subset", "tail"]
HarmonicFunction = Literal[
    "tonic", "predominant", "dominant", "secondary_dominant", "borrowed", "chromatic", "passing"
]

MidiByte = Field(ge=0, le=127)


class Note(Contract):
    """One note: MIDI pitch, velocity, when it starts and how long it lasts, in beats."""

    pitch: int = MidiByte
    velocity: int = Field(ge=1, le=127)
    start_beat: float = Field(ge=0)
    duration_beats: float = Field(gt=0)
    channel: int = Field(default=0, ge=0, le=15)

    @property
    def end_beat(self) -> float:
        return self.start_beat + self.duration_beats


class ControlChange(Contract):
    """A controller move (CC7 volume, CC74 filter, CC64 sustain…) at a beat."""

    beat: float = Field(ge=0)
    controller: int = MidiByte
    value: int = MidiByte
    channel: int = Field(default=0, ge=0, le=15)


class PitchBend(Contract):
    """A pitch-bend value (−8192…8191, 0 = centre) at a beat; 808 glides are written with these."""

    beat: float = Field(ge=0)
    value: int = Field(ge=-8192, le=8191)
    channel: int = Field(default=0, ge=0, le=15)


class ChannelPressure(Contract):
    """Channel pressure (whole-channel aftertouch, 0–127) at a beat: how hard keys are held."""

    beat: float = Field(ge=0)
    value: int = MidiByte
    channel: int = Field(default=0, ge=0, le=15)


ExpressionKind = Literal["sustain", "vibrato", "scoop", "swell", "pressure", "cc_curve"]


class ExpressionRequest(Contract):
    """How a part is played beyond its notes: pedal, vibrato, scoops, swells, pressure, CC curves.

    Assembly writes the controller data from these each time the song is arranged,
    so it always fits the notes. `section` is a section kind (None: the whole
    song); a `cc_curve` ramps `controller` from `start_value` to `end_value` over
    each such section ("filter sweep on the pad over the build": CC74 on the pad).
    """

    kind: ExpressionKind
    role: TrackRole
    section: str | None = None
    controller: int | None = Field(default=None, ge=0, le=127)
    start_value: int = Field(default=0, ge=0, le=127)
    end_value: int = Field(default=127, ge=0, le=127)


class Region(Contract):
    """A clip on a track: notes and controller data placed from `start_beat`."""

    id: Uuid
    name: str
    start_beat: float = Field(ge=0)
    length_beats: float = Field(gt=0)
    notes: list[Note] = Field(default_factory=list)
    control_changes: list[ControlChange] = Field(default_factory=list)
    pitch_bends: list[PitchBend] = Field(default_factory=list)
    channel_pressures: list[ChannelPressure] = Field(default_factory=list)

    @property
    def end_beat(self) -> float:
        return self.start_beat + self.length_beats


class PresetReference(Contract):
    """A sound to load: the MPC Beats engine, a described patch, and a GM stand-in for auditions.

    `name` is a real product preset name only when `source` says where it comes
    from; otherwise it describes the sound ("warm sine sub with short glide").
    """

    id: str
    engine: str
    name: str
    category: str
    gm_program: int | None = Field(default=None, ge=0, le=127)
    gm_drum_kit: int | None = Field(default=None, ge=0, le=127)
    source: str = "described"
    parameters: dict[str, JsonValue] = Field(default_factory=dict)


class Effect(Contract):
    """One insert effect with its parameters (times in ms, gains in dB)."""

    kind: str
    name: str
    parameters: dict[str, JsonValue] = Field(default_factory=dict)
    bypass: bool = False


class EffectChain(Contract):
    """Insert effects on a track or bus, in signal order, plus sends to buses (0–1)."""

    id: str
    target_id: str
    effects: list[Effect] = Field(default_factory=list)
    sends: dict[str, float] = Field(default_factory=dict)


class Bus(Contract):
    """A shared return (the reverb bus every pad, lead and chord track sends to)."""

    id: str
    name: str
    effect_chain: EffectChain | None = None
    volume: int = Field(default=100, ge=0, le=127)


class Track(Contract):
    """An instrument track. Drums live on MIDI channel 10 (index 9)."""

    id: Uuid
    name: str
    role: TrackRole
    channel: int = Field(ge=0, le=15)
    program: int | None = Field(default=None, ge=0, le=127)
    instrument: str | None = Field(
        default=None, description="the instrument it plays (sound/instruments.json); S5 keeps to it"
    )
    drum_kit: int | None = Field(default=None, ge=0, le=127)
    volume: int = Field(default=100, ge=0, le=127)
    pan: int = Field(default=64, ge=0, le=127, description="CC10 value; 64 is centre")
    mute: bool = False
    solo: bool = False
    color: str = Field(default="#7f8c8d", pattern=r"^#[0-9a-fA-F]{6}$")
    frozen: bool = False
    regions: list[Region] = Field(default_factory=list)
    preset: PresetReference | None = None
    effect_chain: EffectChain | None = None

    @property
    def is_drums(self) -> bool:
        return self.channel == 9

    @property
    def notes(self) -> list[Note]:
        """Every note of the track, placed in song time, in onset order."""
        placed = [
            n.model_copy(update={"start_beat": r.start_beat + n.start_beat})
            for r in self.regions
            for n in r.notes
        ]
        placed.sort(key=lambda n: (n.start_beat, n.pitch))
        return placed


class ProgressionChord(Contract):
    """One chord of the progression, spelled for the key, with its voicing in MIDI notes."""

    symbol: str
    roman: str
    voicing: list[int] = Field(min_length=1)
    beats: float = Field(gt=0)
    function: HarmonicFunction = "tonic"
    tension: float = Field(default=0.0, ge=0, le=1)


class EnrichedProgression(Contract):
    """The chord progression of S2: the chords in order, looping as the arrangement says."""

    name: str = "main"
    key: str
    mode: str
    chords: list[ProgressionChord] = Field(min_length=1)
    source: Literal["generated", "explicit"] = "generated"
    variant: int = 0
    #: Section kind → the chords that kind plays instead (a verse's answer, a bridge that
    #: departs); kinds not here play these chords. Left out of the JSON when empty.
    sections: dict[str, EnrichedProgression] = Field(
        default_factory=dict, exclude_if=lambda v: not v
    )

    @property
    def total_beats(self) -> float:
        return sum(c.beats for c in self.chords)


class Section(Contract):
    """A section of the arrangement: where it starts, how long, how hot, who plays."""

    name: str
    kind: SectionKind
    start_bar: int = Field(ge=0)
    bars: int = Field(ge=1)
    energy: float = Field(ge=0, le=1)
    active_roles: list[TrackRole] = Field(default_factory=list)
    transition: Transition = "none"
    chord_plan: ChordPlan = "loop"
    progression: EnrichedProgression | None = None  # its own chords, placed by the producer
    #: Its own meter where it changes (a 6/8 bridge); None plays the song's. Left out of the
    #: JSON when None, so songs without a change keep their bytes.
    meter: Meter | None = Field(default=None, exclude_if=lambda v: v is None)
    #: The kind whose harmony it plays when not its own (a lo-fi "Loop B" answers the A
    #: loop as a verse would); None plays its kind's. Left out of the JSON when None.
    harmony_of: SectionKind | None = Field(default=None, exclude_if=lambda v: v is None)
    #: Semitones its key lies above the song's (a last chorus a step up, "key change up for
    #: the last chorus"); its chords and every part's scale move with it. Left out when 0.
    key_shift: int = Field(default=0, ge=-11, le=11, exclude_if=lambda v: v == 0)

    @property
    def harmony_kind(self) -> SectionKind:
        """The kind whose chords this section plays (`progression.sections` is keyed by it)."""
        return self.harmony_of or self.kind

    @property
    def end_bar(self) -> int:
        return self.start_bar + self.bars


class Arrangement(Contract):
    """Sections laid end to end, with the energy arc sampled at every bar."""

    template: str
    sections: list[Section] = Field(min_length=1)
    energy_arc: list[float] = Field(default_factory=list)
    is_fallback: bool = False

    @property
    def total_bars(self) -> int:
        return self.sections[-1].end_bar

    @model_validator(mode="after")
    def _sections_are_contiguous(self) -> Arrangement:
        bar = self.sections[0].start_bar
        for section in self.sections:
            if section.start_bar != bar:
                raise ValueError(
                    f"section {section.name!r} starts at bar {section.start_bar}, expected {bar}"
                )
            bar = section.end_bar
        if self.energy_arc and len(self.energy_arc) != bar - self.sections[0].start_bar:
            raise ValueError(f"energyArc has {len(self.energy_arc)} values for {bar} bars")
        return self


class QualityScore(Contract):
    """Critic scores, each 0–1; `passed` means no axis below 0.5 and a composite ≥ 0.7."""

    harmony: float = Field(ge=0, le=1)
    rhythm: float = Field(ge=0, le=1)
    arrangement: float = Field(ge=0, le=1)
    vibe: float = Field(ge=0, le=1)
    composite: float = Field(ge=0, le=1)
    passed: bool
    notes: list[str] = Field(default_factory=list)


class Change(Contract):
    """One atomic edit: the JSON path in the SongState and the values either side of it."""

    path: str
    previous_value: JsonValue = None
    new_value: JsonValue = None


class HistoryEntry(Contract):
    """A change request the producer made, with every atomic edit it caused."""

    id: Uuid
    timestamp: str
    user_text: str
    agent: str = "modify"
    changes: list[Change] = Field(default_factory=list)
    regenerated: list[str] = Field(default_factory=list)
    cost: Literal["cheap", "moderate", "expensive"] = "moderate"
    undone: bool = False

    @model_validator(mode="before")
    @classmethod
    def _typed_edits(cls, data: Any) -> Any:
        """Older entries changed standing edits and takes as phrases in `intent.constraints`."""
        if not isinstance(data, dict) or not isinstance(data.get("changes"), list):
            return data
        changes: list[Any] = []
        for change in data["changes"]:
            if not (
                isinstance(change, dict)
                and change.get("path") == "intent.constraints"
                and (
                    has_phrases(change.get("previousValue")) or has_phrases(change.get("newValue"))
                )
            ):
                changes.append(change)
                continue
            before = split_constraints(change.get("previousValue") or [])
            after = split_constraints(change.get("newValue") or [])
            for path, old, new in zip(
                ("intent.constraints", "intent.standingEdits", "intent.takes"),
                before,
                after,
                strict=True,
            ):
                if old != new:
                    changes.append({"path": path, "previousValue": old, "newValue": new})
        return {**data, "changes": changes}


class SongState(Contract):
    """The whole song: tempo, key, tracks, buses, arrangement, progression and history."""

    schema_version: str = SCHEMA_VERSION
    seed: int = 0
    title: str = ""
    genre: str = ""
    tempo: float = Field(default=120.0, gt=0, le=400)
    key: str = "C"
    mode: str = "major"
    time_signature: tuple[int, int] = (4, 4)
    #: How the bar's pulses group (6/8 = 3+3, 7/8 = 2+2+3); None is the meter's usual
    #: grouping, and is left out of the JSON so a 4/4 song keeps its bytes.
    grouping: tuple[int, ...] | None = Field(default=None, exclude_if=lambda v: v is None)
    tracks: list[Track] = Field(default_factory=list)
    buses: list[Bus] = Field(default_factory=list)
    arrangement: Arrangement | None = None
    progression: EnrichedProgression | None = None
    history: list[HistoryEntry] = Field(default_factory=list)
    #: How the parts are played; None until assembly first plans it, [] for none at all.
    expression: list[ExpressionRequest] | None = None

    @property
    def beats_per_bar(self) -> float:
        """The song's bar in quarter-note beats (a section with its own meter: `bar_map`)."""
        numerator, denominator = self.time_signature
        return numerator * 4 / denominator

    @property
    def meter(self) -> Meter:
        numerator, denominator = self.time_signature
        return Meter(numerator=numerator, denominator=denominator, grouping=self.grouping or ())  # type: ignore[arg-type]

    @property
    def has_meter_changes(self) -> bool:
        return self.arrangement is not None and any(
            s.meter is not None for s in self.arrangement.sections
        )

    @property
    def bar_map(self) -> BarMap:
        """Where each bar starts and how long it is, through the sections' meter changes."""
        changes: list[tuple[int, Meter]] = [(0, self.meter)]
        if self.arrangement is not None:
            for section in self.arrangement.sections:
                meter = section.meter or self.meter
                if meter != changes[-1][1]:
                    changes.append((section.start_bar, meter))
                    if section.start_bar == 0:
                        changes = changes[-1:]
        return BarMap(changes)

    def bar_beat(self, bar: int) -> float:
        """The beat bar `bar` (from 0) starts on."""
        if not self.has_meter_changes:
            return bar * self.beats_per_bar
        return self.bar_map.bar_start(bar)

    def section_meter(self, section: Section) -> Meter:
        return section.meter or self.meter

    def section_span(self, section: Section) -> tuple[float, float]:
        """(first beat, end beat) of a section."""
        return self.bar_beat(section.start_bar), self.bar_beat(section.end_bar)

    def track(self, role_or_id: str) -> Track | None:
        """The first track with this role, or the track with this id."""
        for t in self.tracks:
            if t.id == role_or_id or t.role == role_or_id:
                return t
        return None

    @model_validator(mode="after")
    def _ids_are_unique(self) -> SongState:
        seen: set[str] = set()
        for entity in [*self.tracks, *(r for t in self.tracks for r in t.regions), *self.buses]:
            if entity.id in seen:
                raise ValueError(f"duplicate id {entity.id!r}")
            seen.add(entity.id)
        return self
