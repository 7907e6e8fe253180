"""A motif: a one- or two-bar rhythm from the style's cells, shaped by a contour in scale steps."""

from __future__ import annotations

import random
from dataclasses import dataclass

from muse_tui.knowledge.melody import Contour, LeadStyle

STEP = 0.25  # beats per 16th step of a cell


@dataclass(frozen=True)
class MotifNote:
    """One note of a motif: onset and length in beats from the motif's start, scale steps."""

    start: float
    length: float
    steps: int


@dataclass(frozen=True)
class Motif:
    """The idea a section's lead is built from; bar `i` is the notes starting in that bar."""

    notes: tuple[MotifNote, ...]
    bars: int
    beats_per_bar: float

    def bar(self, index: int) -> list[MotifNote]:
        """The notes of bar `index` (0 or 1), onsets from that bar's start."""
        origin = index * self.beats_per_bar
        return [
            MotifNote(n.start - origin, n.length, n.steps)
            for n in self.notes
            if origin <= n.start < origin + self.beats_per_bar
        ]

    @property
    def lowest(self) -> int:
        return min(n.steps for n in self.notes)

    @property
    def highest(self) -> int:
        return max(n.steps for n in self.notes)


def cell_rhythm(cells: list[str], beats_per_bar: float) -> list[tuple[float, float]]:
    """(onset, length) in beats of one-bar cells laid end to end, cut to the metre's bar.

    A hold (`-`) carries across a bar line; a hold opening the first cell starts a note.
    """
    steps = max(1, round(beats_per_bar / STEP))
    text = "".join(cell[:steps].ljust(steps, ".") for cell in cells)
    rhythm: list[tuple[float, float]] = []
    begin: int | None = None
    for index, char in enumerate(text + "x"):
        if char == "-" and begin is not None:
            continue
        if begin is not None:
            rhythm.append((begin * STEP, (index - begin) * STEP))
            begin = None
        if char in "x-" and index < len(text):
            begin = index
    return rhythm


def make_motif(
    style: LeadStyle, contour: Contour, bars: int, beats_per_bar: float, rng: random.Random
) -> Motif:
    """A motif of `bars` bars: cells from the style, steps along the contour with neighbour notes.

    The second bar of a two-bar motif is a different cell, so the idea has a
    question and a reply inside it.
    """
    cells = rng.sample(style.cells, min(bars, len(style.cells)))
    while len(cells) < bars:
        cells.append(cells[-1])
    rhythm = cell_rhythm(cells, beats_per_bar)
    span = bars * beats_per_bar
    notes = []
    previous: int | None = None
    for start, length in rhythm:
        steps = round(contour.steps_at(start / span))
        if previous is not None and steps == previous and rng.random() < 0.35:
            steps += rng.choice((-1, 1))  # a neighbour note keeps a flat stretch singing
        notes.append(MotifNote(start, length, steps))
        previous = steps
    first = notes[0].steps
    return Motif(
        tuple(MotifNote(n.start, n.length, n.steps - first) for n in notes), bars, beats_per_bar
    )
