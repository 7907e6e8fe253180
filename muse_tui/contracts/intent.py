"""What the producer asked for, as S1 understood it: `PipelineIntent` and its parts."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from muse_tui.contracts.base import Contract
from muse_tui.contracts.constraint_phrases import has_phrases, split_constraints
from muse_tui.contracts.meter import Meter
from muse_tui.contracts.song import ExpressionRequest, SectionKind, TrackRole

PipelineOutputType = Literal[
    "progression", "midi", "presets", "effects", "arrangement", "playback", "producer_notes"
]
#: A drum family of `skills/rhythm/drum-patterns.json` (data: the loaders check the names), or
#: "none".
DrumFamily = str
#: The vocabularies the part generators implement; genre DNA may only name these. Each has its
#: data in `skills/rhythm/bass-patterns.json` / `comping.json` (checked when they load).
BassStyle = Literal[
    "root_fifth",
    "octave",
    "walking",
    "syncopated",
    "sub_808",
    "sustained",
    "offbeat",
    "kick_double",
    "bossa",
    "drill_808",
    "log_drum",
    "one_drop",
    "slap",
    "tresillo",
    "reese",
    "rolling",
    "two_step",
    "rock_eighths",
    "palm_mute",
    "boom_chick",
    "gospel_walk",
    "motown",
    "wobble",
    "tumbao",
    "cumbia",
    "none",
]
ChordRhythm = Literal[
    "sustained",
    "pulse",
    "stabs",
    "neo_soul_push",
    "house_offbeat",
    "swing_comp",
    "arpeggiated",
    "strum",
    "gospel_shout",
    "reggae_skank",
    "organ_bubble",
    "funk_chop",
    "batida",
    "charleston",
    "city_pop_16ths",
    "boom_chick_strum",
    "highlife",
    "power_eighths",
    "ska_upstroke",
    "banjo_roll",
    "mandolin_chop",
    "bluegrass_boom_chick",
    "reel_strum",
    "legato",
    "legato_inner",
    "nocturne",
    "disco_scratch",
    "montuno",
    "none",
]
VoicingStyle = Literal["close", "open", "drop2", "spread", "shell", "rootless"]
ArrangementTemplateName = Literal[
    "pop_rnb",
    "soul_funk",
    "house_edm",
    "trap",
    "jazz",
    "lo_fi",
    "drill",
    "afrobeats",
    "ambient",
    "boom_bap",
    "uk_garage",
    "dnb",
    "rock",
    "house",
    "phonk",
    "metal",
    "country",
    "k_pop",
    "cinematic",
    "generic_fallback",
    "reggae",  # alternatives pick forms by their place in this list: new forms go last
    "blues",
    "bluegrass",
    "reel",
    "classical",
]
#: The BPMs a song may be composed with; every tempo edit stays within them too.
TEMPO_LIMITS: tuple[float, float] = (40.0, 300.0)
ALL_OUTPUTS: list[PipelineOutputType] = list(PipelineOutputType.__args__)  # type: ignore[attr-defined]


class CreativityDials(Contract):
    """How far from the safe choice to go.

    harmonic: 0 diatonic, 0.25 borrowed chords, 0.5 modal interchange, 0.75+ chromatic colour.
    rhythmic: 0 straight grid, 0.25 light syncopation, 0.5 cross-genre rhythms, 0.9 polyrhythm.
    """

    harmonic: float = Field(default=0.2, ge=0, le=1)
    rhythmic: float = Field(default=0.2, ge=0, le=1)


class GenreDNAVector(Contract):
    """The numbers and choices a genre (or a blend of genres) hands the generators."""

    genre: str
    display_name: str
    blend: dict[str, float] = Field(default_factory=dict, description="genre id → weight")
    tempo_range: tuple[float, float]
    tempo_default: float
    swing: float = Field(ge=50, le=75, description="MPC-style swing %: 50 straight, 66 triplet")
    half_time: bool = False
    preferred_modes: list[str] = Field(min_length=1)
    preferred_keys: list[str] = Field(min_length=1)
    harmonic_vocabulary: list[str] = Field(min_length=1)
    harmonic_complexity: float = Field(ge=0, le=1)
    progression_length: tuple[int, int] = (4, 4)
    drum_family: DrumFamily
    bass_style: BassStyle
    chord_rhythm: ChordRhythm
    voicing_style: VoicingStyle = "close"
    roles: list[TrackRole] = Field(min_length=1)
    instruments: list[str] = Field(default_factory=list)
    core: list[TrackRole] = Field(
        default_factory=list,
        description="harmony roles whose genre player a named sound joins, never replaces "
        "(rock's guitar on chords); the drums and the bass are always kept",
    )
    arrangement_template: ArrangementTemplateName
    creativity: CreativityDials = Field(default_factory=CreativityDials)
    energy: float = Field(ge=0, le=1)

    @model_validator(mode="after")
    def _tempo_in_range(self) -> GenreDNAVector:
        low, high = self.tempo_range
        if not 20 <= low <= high <= 300:
            raise ValueError(f"tempoRange {self.tempo_range} must be ascending within 20–300 BPM")
        if not low <= self.tempo_default <= high:
            raise ValueError(f"tempoDefault {self.tempo_default} is outside {self.tempo_range}")
        return self


class ArtistInfluence(Contract):
    """An artist named in the prompt, with the genre and traits we map them to."""

    name: str
    traits: list[str] = Field(default_factory=list)
    genre_mapping: str
    weight: float = Field(ge=0, le=1)
    tempo_range: tuple[float, float] | None = None
    confidence: float = Field(default=1.0, ge=0, le=1)
    known: bool = True


class TempoAnalysis(Contract):
    """The BPM chosen, how, and whether it feels half-time."""

    bpm: float = Field(gt=0)
    source: Literal["explicit", "genre_default", "influence_intersection", "mood_inferred"]
    half_time: bool = False
    perceived_bpm: float = Field(gt=0)
    confidence: float = Field(ge=0, le=1)
    reasoning: str


class KeyAnalysis(Contract):
    """The key chosen and why."""

    root: str
    mode: str
    source: Literal["explicit", "genre_convention", "mood_mapping", "random"]
    confidence: float = Field(ge=0, le=1)
    reasoning: str


class Ambiguity(Contract):
    """Something the prompt left open; blocking ones are asked before composing."""

    field: str
    reason: str
    options: list[str] = Field(default_factory=list)
    default_value: str | None = None
    severity: Literal["blocking", "optional"]


class DurationRange(Contract):
    """How long the song should be, in bars."""

    min: int = Field(ge=1)
    max: int = Field(ge=1)

    @model_validator(mode="after")
    def _ordered(self) -> DurationRange:
        if self.min > self.max:
            raise ValueError(f"duration min {self.min} is above max {self.max}")
        return self


StandingEditKind = Literal[
    "density", "ghost_notes", "swing",
    "accent", "hat_rolls", "slides", "feel", "fills", "build", "tacet",
    "level", "octave", "rest",
]  # fmt: skip


class StandingEdit(Contract):
    """A part edit that outlives regeneration: density steps, ghost notes ±1, swing delta (%).

    Also accent steps (harder/softer hits), feel (-1 half time, +1 double time),
    and on/off (+1/-1) hat rolls, 808 slides, fills, builds and tacet (the part rests).
    The note-by-note edits of a narrow scope ("drums out of bars 1-8", "kick louder",
    "bass up an octave in the chorus") stand too: `level` (a velocity factor),
    `octave` (octaves, signed) and `rest` (+1: the notes in scope are taken out).

    `role` is a track role or "all"; `section` a section kind, or None for the whole song;
    `bars` a bar range (1-based, inclusive: one section of several, or bars said);
    `voice` one drum voice of the edit words ("kick", "hats").
    """

    role: str
    kind: StandingEditKind
    value: float
    section: str | None = None
    bars: tuple[int, int] | None = Field(default=None, exclude_if=lambda v: v is None)
    voice: str | None = Field(default=None, exclude_if=lambda v: v is None)


class Take(Contract):
    """Which version of a part the producer picked: variant, dial lift, style, genre, density."""

    role: str
    variant: int = 0
    dials: float = 0.0
    style: str | None = None
    genre: str | None = None
    density: int = 0

    @property
    def is_default(self) -> bool:
        return self == Take(role=self.role)


#: The longest song title, in characters.
TITLE_LENGTH = 80


class PipelineIntent(Contract):
    """The prompt, decomposed: genres, tempo, key, moods, influences, requests, dials."""

    genre: list[str] = Field(min_length=1)
    sub_genre: list[str] = Field(default_factory=list)
    tempo: float | None = Field(default=None, gt=0, le=400)
    key: str | None = None
    mode: str | None = None
    mood: list[str] = Field(default_factory=list)
    influences: list[str] = Field(default_factory=list)
    instrument_requests: list[str] = Field(default_factory=list)
    #: The requested instrument the prompt asked to lead ("oboe lead"); left out of the JSON
    #: when unset, so a song without one keeps its checkpoint bytes.
    lead_instrument: str | None = Field(default=None, exclude_if=lambda v: v is None)
    structure_hints: list[str] = Field(default_factory=list)
    #: The meter the prompt asked for (None: 4/4) and the sections' own ("a 6/8 bridge");
    #: left out of the JSON when unset, so a 4/4 song's checkpoint keeps its bytes.
    meter: Meter | None = Field(default=None, exclude_if=lambda v: v is None)
    section_meters: dict[SectionKind, Meter] = Field(
        default_factory=dict, exclude_if=lambda v: not v
    )
    duration: DurationRange | None = None
    constraints: list[str] = Field(default_factory=list)
    standing_edits: list[StandingEdit] = Field(default_factory=list)
    takes: list[Take] = Field(default_factory=list)
    explicit_progression: list[str] = Field(default_factory=list)
    roles: list[TrackRole] = Field(default_factory=list)
    raw_prompt: str
    #: What else the prompt said, read once by S1 so later stages never read the prompt
    #: again: a structured prompt's title (its Request, else its Style; None: the prompt
    #: as typed), its `Effects:` inserts by part word, and the expression asked for.
    #: Left out of the JSON when unset, so a plain prompt's checkpoint keeps its bytes.
    title: str | None = Field(default=None, exclude_if=lambda v: v is None)
    effect_requests: dict[str, list[str]] = Field(default_factory=dict, exclude_if=lambda v: not v)
    expression_requests: list[ExpressionRequest] = Field(
        default_factory=list, exclude_if=lambda v: not v
    )
    influence_analysis: list[ArtistInfluence] = Field(default_factory=list)
    genre_dna: GenreDNAVector | None = None
    tempo_analysis: TempoAnalysis | None = None
    key_analysis: KeyAnalysis | None = None
    creativity_dials: CreativityDials | None = None
    requested_outputs: list[PipelineOutputType] = Field(default_factory=lambda: list(ALL_OUTPUTS))
    ambiguities: list[Ambiguity] = Field(default_factory=list)

    @property
    def song_title(self) -> str:
        """The song's title on one line: the structured prompt's, else the prompt as typed."""
        return " ".join((self.title or self.raw_prompt).split())[:TITLE_LENGTH]

    @model_validator(mode="before")
    @classmethod
    def _typed_edits(cls, data: Any) -> Any:
        """Older checkpoints kept standing edits and takes as phrases among the constraints."""
        if not isinstance(data, dict) or not has_phrases(data.get("constraints")):
            return data
        plain, edits, takes = split_constraints(data["constraints"])
        data = {**data, "constraints": plain}
        for name, alias, found in (
            ("standing_edits", "standingEdits", edits),
            ("takes", "takes", takes),
        ):
            key = name if name in data else alias
            data[key] = [*data.get(key, []), *found]
        return data

    @property
    def blocking_ambiguities(self) -> list[Ambiguity]:
        return [a for a in self.ambiguities if a.severity == "blocking"]


class Reason(Contract):
    """One choice composing made and why: the prompt's word, or the skill rule that chose it.

    `topic` is what was chosen (`key`, `tempo`, `band`, `register:ROLE`); `rule` names the
    skill file and field (with the value it held) when the prompt did not say it.
    """

    topic: str = Field(min_length=1)
    choice: str
    because: str = Field(min_length=1)
    rule: str = Field(default="", exclude_if=lambda v: not v)


class IntentDecompositionResult(Contract):
    """S1's answer: the intent, whether it can run as is, and what was guessed."""

    intent: PipelineIntent
    ready_to_execute: bool
    summary: str
    inferred_fields: list[str] = Field(default_factory=list)
    #: Why the key, the tempo and the band are what they are (the decision record of S1).
    reasons: list[Reason] = Field(default_factory=list, exclude_if=lambda v: not v)
