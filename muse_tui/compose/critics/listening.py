"""What every critic listens to: a track's notes in song time, the sections, small helpers."""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from muse_tui.contracts.song import Section, SongState, Track
from muse_tui.knowledge.critics import AxisWeights
from muse_tui.knowledge.rhythm import rhythm_table

#: An axis (or a measure) below this gets a note naming its cause, even when the song passes.
WEAK_AXIS = 0.7
#: What a measure scores when the song gives it nothing to judge.
NEUTRAL = 0.8
#: Onsets are compared on a 16th-note grid, so humanised timing does not hide a copy.
STEPS_PER_BEAT = 4


@dataclass(frozen=True)
class Verdict:
    """One axis: its score and, when something pulled it down, a sentence saying what."""

    score: float
    note: str | None = None


@dataclass(frozen=True)
class Part:
    """A track's notes in song time as (start, end, pitch, velocity), in onset order."""

    track: Track
    notes: list[tuple[float, float, int, int]]

    @property
    def label(self) -> str:
        return self.track.role.replace("_", " ")

    def between(self, lo: float, hi: float) -> list[tuple[float, float, int, int]]:
        """The notes starting in [lo, hi): a slice, since the notes are in onset order."""
        return self.notes[bisect_left(self.notes, (lo,)) : bisect_left(self.notes, (hi,))]


def part_of(track: Track) -> Part:
    notes = [
        (r.start_beat + n.start_beat, r.start_beat + n.end_beat, n.pitch, n.velocity)
        for r in track.regions
        for n in r.notes
    ]
    notes.sort()
    return Part(track, notes)


def sections_of(song: SongState, parts: Sequence[Part]) -> list[Section]:
    if song.arrangement is not None:
        return list(song.arrangement.sections)
    end = max((n[1] for p in parts for n in p.notes), default=song.beats_per_bar)
    bars = max(1, math.ceil(end / song.beats_per_bar))
    return [Section(name="Song", kind="loop", start_bar=0, bars=bars, energy=0.5)]


def is_drums(track: Track) -> bool:
    return track.is_drums or track.role in rhythm_table().tracks.kit_roles


def worst_cause(causes: Sequence[tuple[float, str | None]]) -> str | None:
    """The sentence of the lowest-scoring measure, if it is weak enough to mention."""
    score, note = min(causes, key=lambda c: c[0])
    return note if score < WEAK_AXIS else None


def clamp(value: float) -> float:
    return min(1.0, max(0.0, value))


def percent(share: float) -> int:
    return round(100 * share)


def step(beat: float) -> int:
    """The 16th-note step nearest to a beat."""
    return round(beat * STEPS_PER_BEAT)


def jaccard(a: Iterable[object], b: Iterable[object]) -> float:
    """Shared items over all items; two empty sets agree completely (1.0)."""
    a, b = set(a), set(b)
    return len(a & b) / len(a | b) if a or b else 1.0


def base_name(section: Section) -> str:
    """A section's name without its number ("Chorus 2" → "chorus"), to find its repeats."""
    return re.sub(r"\s*\d+$", "", section.name).strip().lower()


def weigh(scores: Mapping[str, float], critic: AxisWeights, slack: float) -> float:
    """An axis: the weighted mean of its measures, pulled down by each fault it hears.

    Each fault scales the axis by its score plus `slack` (at most 1), so a fault
    scoring 0 leaves `slack` of the axis and two faults leave less than one. This is
    what makes a critic listen like a person: one glaring fault (a single chord all
    song, a requested flute that never plays) sinks the axis however polished the
    rest is, and a second one sinks it further.
    """
    total = sum(critic.weights.values())
    mean = sum(w * scores[m] for m, w in critic.weights.items()) / total
    return mean * math.prod(min(1.0, scores[f] + slack) for f in critic.faults)
