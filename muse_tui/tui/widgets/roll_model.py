"""The piano roll's data, indexed for drawing one screen line at a time.

A row per pitch (or per drum played, named from the GM map); each row keeps its
notes sorted by start so a line only visits the notes in view (bisect), which
keeps a 2,000-note part as quick to scroll as a 20-note one.

`RollForm` is what the roll draws over the notes: the song's sections as bands
along the top, and where the track's motifs come back (lettered A, A', B…).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from muse_tui.compose.melody.recurrence import MotifMark
    from muse_tui.contracts import Note, Section

BLACK_KEYS = frozenset({1, 3, 6, 8, 10})
MIN_ROWS = 24  # at least two octaves, so a sparse part still reads as a keyboard


@dataclass
class RollRow:
    """One key of the roll; its name is looked up when first drawn (the empty roll draws none)."""

    pitch: int
    black: bool
    drums: bool = False

    @cached_property
    def label(self) -> str:
        """'C4', or the drum's GM name ("Kick")."""
        if self.drums:
            from muse_tui.theory.drums import drum_name

            return drum_name(self.pitch)
        from muse_tui.theory.pitch import midi_to_name

        return midi_to_name(self.pitch)


@dataclass
class RowNotes:
    """One pitch's notes in onset order, as parallel lists for bisecting."""

    starts: list[float] = field(default_factory=list)
    ends: list[float] = field(default_factory=list)
    velocities: list[int] = field(default_factory=list)
    longest: float = 0.0

    def between(self, first_beat: float, last_beat: float) -> Iterator[tuple[float, float, int]]:
        """Notes sounding anywhere in [first_beat, last_beat)."""
        i = bisect.bisect_left(self.starts, first_beat - self.longest)
        stop = bisect.bisect_left(self.starts, last_beat)
        for j in range(i, stop):
            if self.ends[j] > first_beat:
                yield self.starts[j], self.ends[j], self.velocities[j]


class RollModel:
    """Rows top (high) to bottom (low) and each row's notes."""

    def __init__(self, notes: Sequence[Note], *, drums: bool, total_beats: float) -> None:
        self.drums = drums
        self.note_count = len(notes)
        self.total_beats = max(total_beats, max((n.end_beat for n in notes), default=0.0), 1.0)
        self.by_pitch: dict[int, RowNotes] = {}
        for note in sorted(notes, key=lambda n: n.start_beat):
            row = self.by_pitch.setdefault(note.pitch, RowNotes())
            row.starts.append(note.start_beat)
            row.ends.append(note.end_beat)
            row.velocities.append(note.velocity)
            row.longest = max(row.longest, note.duration_beats)
        self.rows = self._rows()

    def _rows(self) -> list[RollRow]:
        if self.drums:
            return [RollRow(p, False, drums=True) for p in sorted(self.by_pitch, reverse=True)]
        if not self.by_pitch:
            low, high = 48, 72
        else:
            low, high = min(self.by_pitch) - 2, max(self.by_pitch) + 2
            missing = MIN_ROWS - (high - low + 1)
            if missing > 0:
                low, high = low - missing // 2, high + missing - missing // 2
        low, high = max(low, 0), min(high, 127)
        return [RollRow(p, p % 12 in BLACK_KEYS) for p in range(high, low - 1, -1)]

    def row_of(self, pitch: int) -> int | None:
        for index, row in enumerate(self.rows):
            if row.pitch == pitch:
                return index
        return None

    def notes_in(
        self, row: int, first_beat: float, last_beat: float
    ) -> Iterator[tuple[float, float, int]]:
        notes = self.by_pitch.get(self.rows[row].pitch)
        return notes.between(first_beat, last_beat) if notes else iter(())

    def busiest_row(self) -> int:
        """The row in the middle of where the notes are, to centre the view on."""
        if not self.by_pitch or self.drums:
            return 0
        middle = (min(self.by_pitch) + max(self.by_pitch)) // 2
        return self.row_of(middle) or 0


@dataclass(frozen=True)
class Band:
    """A section as the roll's top line shows it: its name, where it sounds, its place in turn."""

    name: str
    start: float
    end: float
    index: int


class RollForm:
    """The song's sections and the track's recurring motifs, looked up by beat."""

    def __init__(
        self,
        sections: Sequence[Section],
        notes: Sequence[Note],
        *,
        drums: bool,
        beats_per_bar: float,
        total_beats: float,
        bar_beat: Callable[[int], float] | None = None,
    ) -> None:
        ordered = sorted(sections, key=lambda s: s.start_bar)
        at = bar_beat or (lambda bar: bar * beats_per_bar)  # the song's bar map, with changes
        self.bands = [
            Band(s.name, at(s.start_bar), at(s.end_bar), i) for i, s in enumerate(ordered)
        ]
        self.motifs: list[MotifMark] = []
        if notes and not drums:
            # Imported here: the music code loads after the studio's first frame is painted.
            from muse_tui.compose.melody.recurrence import Span, find_motifs

            spans = [Span(b.start, b.end) for b in self.bands] or [Span(0.0, total_beats)]
            line = [(n.start_beat, n.pitch) for n in notes]
            self.motifs = find_motifs(line, spans, beats_per_bar)
        self.families = list(dict.fromkeys(m.family for m in self.motifs))
        self._band_starts = [b.start for b in self.bands]
        self._motif_starts = [m.start for m in self.motifs]

    def band_at(self, beat: float) -> Band | None:
        """The section sounding at `beat`, if any."""
        i = bisect.bisect_right(self._band_starts, beat + 1e-9) - 1
        return self.bands[i] if i >= 0 and beat < self.bands[i].end else None

    def motif_at(self, beat: float) -> MotifMark | None:
        """The motif occurrence sounding at `beat`, if any."""
        i = bisect.bisect_right(self._motif_starts, beat + 1e-9) - 1
        return self.motifs[i] if i >= 0 and beat < self.motifs[i].end else None

    def family_index(self, mark: MotifMark) -> int:
        """The motif's place among the track's motifs (A 0, B 1…), for its colour."""
        return self.families.index(mark.family)
