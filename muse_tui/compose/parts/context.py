"""What every part writer is handed (`PartContext`) and what it hands back (`PartDraft`)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from muse_tui.contracts import (
    ControlChange,
    Meter,
    Note,
    PipelineIntent,
    PitchBend,
    Section,
    SongState,
    Track,
)
from muse_tui.knowledge.half_time import half_time_table
from muse_tui.knowledge.instruments import instrument_table
from muse_tui.knowledge.meters import MeterGroove, meter_table
from muse_tui.knowledge.rhythm import Density, RhythmTable
from muse_tui.knowledge.tracks import TrackLook

from ..humanize import Draft, Feel
from .grid import FitPlan, fit_plan, steps_per_bar
from .harmony import SectionHarmony, section_harmony
from .style import Style, density_for, feel_for, loudness, resolve_style, track_look
from .tracks import choose_tracks

#: The drum family whose grids are written in half time (a jam's "half time" directive).
WRITTEN_HALF_TIME = "half_time"

#: After humanising: the final notes in draft order → (notes, pitch bends). 808 glides use it.
Finisher = Callable[[list[Note]], tuple[list[Note], list[PitchBend]]]


@dataclass
class PartContext:
    """One section of one track, with the song's style, feel and harmony at hand."""

    track: Track
    song: SongState
    intent: PipelineIntent
    section: Section
    table: RhythmTable
    #: The tracks S4 writes, when the caller has them (else `band` works them out).
    song_tracks: Sequence[Track] | None = None

    @cached_property
    def band(self) -> Sequence[Track]:
        """The song's band as S4 writes it (`choose_tracks` of the intent), ids aside.

        Harmony parts place themselves against it, in every section; S4 hands its
        tracks in rather than have each section choose them again.
        """
        if self.song_tracks is not None:
            return self.song_tracks
        return choose_tracks(self.intent, random.Random(0))

    @cached_property
    def style(self) -> Style:
        return resolve_style(self.intent, self.table)

    @cached_property
    def feel(self) -> Feel:
        feel = feel_for(self.style, self.table, self.song.tempo, self.meter)
        if self.half_time and feel.swing_unit == "16th":
            # at half speed the genre's swung 16ths are 8ths of the written tempo
            feel = dataclasses.replace(feel, swing_unit="8th")
        return feel

    @cached_property
    def half_time(self) -> bool:
        """A genre felt in half time written at twice its tempo ("trip hop 170"): the drums
        and bass play its 4/4 grids at half speed (`skills/rhythm/half-time.json`)."""
        if not self.meter.is_common or self.style.family == WRITTEN_HALF_TIME:
            return False  # a jam's half-time kit has the snare on 3 already
        return half_time_table().doubled(self.intent, self.song.tempo)

    @cached_property
    def harmony(self) -> SectionHarmony:
        return section_harmony(self.song, self.section, self.style.harmonic)

    @cached_property
    def look(self) -> TrackLook:
        return track_look(self.track.role, self.style, self.table)

    @property
    def pitch_range(self) -> tuple[int, int]:
        return self.look.pitch_range

    @cached_property
    def plays_one_note(self) -> bool:
        """The track's instrument sounds one note at a time (a sax, a flute: `monophonic`)."""
        sound = instrument_table().get(self.track.instrument)
        return sound is not None and sound.monophonic

    # Cached: the writers ask for these once a note, and the song and section never change.
    @cached_property
    def meter(self) -> Meter:
        """The section's meter: its own where it changes, else the song's."""
        return self.song.section_meter(self.section)

    @cached_property
    def meter_groove(self) -> MeterGroove | None:
        """The grids the band plays in a meter other than 4/4 (None in 4/4 or cut time)."""
        if self.meter.is_common or self.meter.time_signature == (2, 2):
            return None
        return meter_table().groove_for(self.meter, self.style.family)

    @cached_property
    def beats_per_bar(self) -> float:
        return self.meter.beats_per_bar

    @cached_property
    def fit_plan(self) -> FitPlan:
        """How the meter's groups take a 4/4 grid that has no version in the meter."""
        meter = self.meter
        return fit_plan(meter.numerator, meter.denominator, meter.grouping)

    @cached_property
    def bar_steps(self) -> int:
        return steps_per_bar(self.beats_per_bar)

    @property
    def bars(self) -> int:
        return self.section.bars

    @cached_property
    def length(self) -> float:
        return self.section.bars * self.beats_per_bar

    @property
    def energy(self) -> float:
        return self.section.energy

    @cached_property
    def density(self) -> Density:
        return density_for(self.section)

    @cached_property
    def loud(self) -> float:
        return loudness(self.section.energy)

    @cached_property
    def neighbours(self) -> tuple[Section | None, Section | None]:
        """The sections before and after this one, where the arrangement has them."""
        if self.song.arrangement is None:
            return None, None
        before = after = None
        for candidate in self.song.arrangement.sections:
            if candidate.end_bar == self.section.start_bar:
                before = candidate
            if candidate.start_bar == self.section.end_bar:
                after = candidate
        return before, after

    @property
    def leads_on(self) -> bool:
        """Another section follows (unknown arrangement: assume one does)."""
        return self.song.arrangement is None or self.neighbours[1] is not None


@dataclass
class PartDraft:
    """A written part before humanising: notes on the grid, controller data, its feel."""

    notes: list[Draft] = field(default_factory=list)
    control_changes: list[ControlChange] = field(default_factory=list)
    pitch_bends: list[PitchBend] = field(default_factory=list)
    feel: Feel | None = None
    finish: Finisher | None = None
