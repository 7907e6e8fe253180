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
    return _shaped(rhythm, contour, bars, beats_per_bar, rng)


def reshaped(motif: Motif, contour: Contour) -> Motif:
    """The motif's rhythm along another contour: new pitches on the same rhythm (a second
    verse's line). Without a draw, so it is the same every time: where the contour stays on a
    step, the note moves to its neighbour."""
    rhythm = [(n.start, n.length) for n in motif.notes]
    return _shaped(rhythm, contour, motif.bars, motif.beats_per_bar, None)


def mirrored(motif: Motif) -> Motif:
    """The motif upside down around its first note, in scale steps, same rhythm: the answer
    that mirrors the question."""
    notes = tuple(MotifNote(n.start, n.length, -n.steps) for n in motif.notes)
    return Motif(notes, motif.bars, motif.beats_per_bar)


#: Chance that a note the contour leaves on its predecessor's step moves to a neighbour instead.
NEIGHBOUR = 0.5


def _shaped(
    rhythm: list[tuple[float, float]],
    contour: Contour,
    bars: int,
    beats_per_bar: float,
    rng: random.Random | None,
) -> Motif:
    """Notes on `rhythm`, their steps along `contour`. A note the contour leaves where the one
    before it was becomes a neighbour (the way the contour heads) half the time, and always
    after one repeat: a line never sits on one pitch three times running ("E-E-E")."""
    span = bars * beats_per_bar
    notes = []
    previous: int | None = None
    repeated = False
    for number, (start, length) in enumerate(rhythm):
        where = start / span
        steps = round(contour.steps_at(where))
        if previous is not None and steps == previous:
            chance = rng.random() if rng is not None else 0.0  # a reshape never repeats
            if repeated or chance < NEIGHBOUR:
                steps += _heading(contour, where, number, rng)
        notes.append(MotifNote(start, length, steps))
        repeated = previous is not None and steps == previous
        previous = steps
    first = notes[0].steps
    return Motif(
        tuple(MotifNote(n.start, n.length, n.steps - first) for n in notes), bars, beats_per_bar
    )


def _heading(contour: Contour, where: float, number: int, rng: random.Random | None) -> int:
    """Which way a neighbour note steps: the way the contour goes next (a coin, or the note's
    place, where it is flat)."""
    slope = contour.steps_at(min(1.0, where + 0.1)) - contour.steps_at(where)
    if abs(slope) > 1e-6:
        return 1 if slope > 0 else -1
    if rng is not None:
        return rng.choice((-1, 1))
    return 1 if number % 2 else -1
