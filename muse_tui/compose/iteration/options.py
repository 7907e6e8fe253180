"""What the options of an A/B set mean: A as is, B lifted dials, C structure, D both, E a neighbour.

Variant A is what the song has now (in a later batch: the default with the
dials raised), B lifts the creativity dials by `B_LIFT`, C changes the
structure (root motion turned around, walking vs syncopated bass, another drum
family…), D combines B and C, E borrows a neighbouring genre's influence. Every
retry (`RETRY_LIFT`) and every later batch (`BATCH_LIFT`) lifts the dials more.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import JsonValue

from muse_tui.compose.dials import lifted
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import (
    EnrichedProgression,
    Note,
    PipelineIntent,
    SongState,
)
from muse_tui.knowledge.genres import genre_table

from .scores import content_hash, note_edit_distance, progression_distance
from .takes import STYLE_FIELD

LABELS = "ABCDE"
#: Structural alternatives, in order of contrast: the first that differs from the song's is C.
STRUCTURES: dict[str, tuple[str, ...]] = {
    "drum_family": ("boom_bap", "trap", "four_on_floor", "half_time", "lofi_swung", "breakbeat"),
    "bass_style": ("walking", "syncopated", "root_fifth", "octave", "sustained"),
    "chord_rhythm": ("stabs", "sustained", "neo_soul_push", "house_offbeat", "swing_comp", "strum"),
}
B_LIFT = 0.15
RETRY_LIFT = 0.1
BATCH_LIFT = 0.2  # "try something different" past the last variant: a new batch, dials up


class AlternativesError(ValueError):
    """An element that has no alternatives (no such track, nothing to vary yet)."""


@dataclass(frozen=True)
class Slot:
    """Which variant is wanted: 0 = A … 4 = E, in which batch, on which retry."""

    index: int
    lift: float = 0.0
    attempt: int = 0
    batch: int = 0

    @property
    def is_current(self) -> bool:
        """A of the first batch: what the song has now."""
        return self.index == 0 and self.batch == 0 and self.attempt == 0

    @property
    def dials(self) -> float:
        """B and D lift the creativity dials; every retry and every batch lifts them more."""
        return round(
            self.lift + RETRY_LIFT * self.attempt + (B_LIFT if self.index in (1, 3) else 0), 3
        )

    @property
    def structural(self) -> bool:
        return self.index in (2, 3)

    @property
    def variant(self) -> int:
        """The generator variant: a different seed for every slot, batch and retry."""
        return 1 + self.index + 10 * self.batch + 100 * self.attempt


@dataclass
class Candidate:
    """One variant before it joins a set."""

    description: str
    data: JsonValue
    score: float
    delta: dict[str, JsonValue] = field(default_factory=dict)
    notes: list[Note] | None = None
    progression: EnrichedProgression | None = None

    @property
    def hash(self) -> str:
        return content_hash(self.data)

    @property
    def minimum(self) -> int:
        """How different another take must be: 5% of the notes (at least 4), or one chord."""
        if self.notes is not None:
            return max(4, len(self.notes) // 20)
        return 2 if self.progression is not None else 1

    def distance_to(self, other: Candidate) -> int:
        if self.notes is not None and other.notes is not None:
            return note_edit_distance(self.notes, other.notes)
        if self.progression is not None and other.progression is not None:
            return progression_distance(self.progression, other.progression)
        return 0 if self.hash == other.hash else 1_000


def batch_lift(batch: int) -> float:
    """How far a batch lifts every variant's dials."""
    return BATCH_LIFT * batch


def structure_for(intent: PipelineIntent, role: str, *, second: bool = False) -> str | None:
    name = STYLE_FIELD.get(role)
    if name is None or intent.genre_dna is None:
        return None
    options = [s for s in STRUCTURES[name] if s != getattr(intent.genre_dna, name)]
    return options[1 if second and len(options) > 1 else 0]


def neighbour_genre(intent: PipelineIntent, song: SongState, batch: int) -> str | None:
    """A genre near this one (its tempo range holds the song's tempo) to borrow from."""
    table, own = genre_table(), set(intent.genre)
    near = [
        g
        for g, d in table.genres.items()
        if g not in own and d.tempo_range[0] <= song.tempo <= d.tempo_range[1]
    ]
    pool = near or [g for g in table.genres if g not in own]
    return derive_rng(song.seed, "influence", batch).choice(sorted(pool)) if pool else None


def lifted_intent(intent: PipelineIntent, dials: float, genre: str | None) -> PipelineIntent:
    """The intent with its creativity dials raised and, for E, another genre's harmony mixed in."""
    dna = intent.genre_dna
    updated = intent.model_copy(update={"creativity_dials": lifted(intent, dials)})
    if genre and dna is not None:
        borrowed = genre_table().get(genre)
        vocabulary = list(dict.fromkeys([*dna.harmonic_vocabulary, *borrowed.harmonic_vocabulary]))
        complexity = round((dna.harmonic_complexity + borrowed.harmonic_complexity) / 2, 3)
        mixed = dna.model_copy(
            update={"harmonic_vocabulary": vocabulary, "harmonic_complexity": complexity}
        )
        updated = updated.model_copy(update={"genre_dna": mixed, "explicit_progression": []})
    return updated
