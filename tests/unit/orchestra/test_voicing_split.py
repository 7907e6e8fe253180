"""Harmony players on the file: no muddy low intervals, and no two parts striking one chord.

A bar is stacked when two harmony parts strike nested pitch-class sets (one inside
the other, whatever the octave) at half or more of the sparser part's chord onsets:
heard as one chord doubled, the producer audit's `voicing` check.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import pytest

from muse_tui.theory.spacing import low_interval_faults, nested

from .heard import HARMONY_ROLES, Heard, Part, compose

SPLIT = [
    "epic trailer, 82 BPM, Db minor, piano and strings",
    "gospel in Ab major with organ and pad",
    "K-pop, 99 BPM, G major, banjo, pizzicato strings",
    "neo soul with Rhodes and pad, Eb minor, 90 BPM",
    "folk, in 3/4, A major, soprano sax, harmonica, accordion",
]


def _chords_by_bar(heard: Heard, part: Part) -> dict[int, dict[int, frozenset[int]]]:
    """bar → 16th step → the pitch classes struck there (chords of two or more only)."""
    struck: dict[int, set[int]] = defaultdict(set)
    for note in part.notes:
        struck[note.step].add(note.pitch % 12)
    bars: dict[int, dict[int, frozenset[int]]] = defaultdict(dict)
    for step, pcs in struck.items():
        if len(pcs) >= 2:
            bars[step // heard.steps_per_bar][step] = frozenset(pcs)
    return bars


def _stacked_share(heard: Heard) -> float:
    parts = [_chords_by_bar(heard, p) for p in heard.role(*HARMONY_ROLES) if p.notes]
    shared = stacked = 0
    for bar in {b for part in parts for b in part}:
        playing = [part[bar] for part in parts if part.get(bar)]
        if len(playing) < 2:
            continue
        shared += 1
        for a, b in itertools.combinations(playing, 2):
            sparse, dense = (a, b) if len(a) <= len(b) else (b, a)
            same = sum(1 for s, pcs in sparse.items() if s in dense and nested(pcs, dense[s]))
            if same / len(sparse) >= 0.5:
                stacked += 1
                break
    return stacked / shared if shared else 0.0


@pytest.mark.parametrize("prompt", SPLIT)
def test_two_harmony_parts_never_strike_the_same_chord(prompt: str) -> None:
    heard = compose(prompt)
    assert len([p for p in heard.role(*HARMONY_ROLES) if p.notes]) >= 2
    assert _stacked_share(heard) <= 0.10


@pytest.mark.parametrize("prompt", SPLIT)
def test_no_chord_breaks_the_low_interval_limit(prompt: str) -> None:
    heard = compose(prompt)
    for part in heard.role(*HARMONY_ROLES):
        at_once: dict[int, list[int]] = defaultdict(list)
        for note in part.notes:
            at_once[note.step].append(note.pitch)
        muddy = {s: p for s, p in at_once.items() if low_interval_faults(p)}
        assert not muddy, f"{part.name}: {list(muddy.items())[:3]}"


def test_an_accordion_plays_a_strum_rhythm_as_block_chords() -> None:
    heard = compose("folk, in 3/4, A major, harmonica, accordion")
    accordion = next(p for p in heard.parts if p.program == 21)
    starts = defaultdict(set)
    for note in accordion.notes:
        starts[note.step].add(round(note.start, 3))
    # every note of a chord starts at the same instant: no string after string
    assert sum(len(s) > 1 for s in starts.values()) <= 0.05 * len(starts)


def _longest_run(heard: Heard, part: Part) -> float:
    """Beats over which the part strikes one identical voicing again and again; a bar or more
    of rest ends a run (a part coming back after it is not restriking)."""
    struck: dict[int, set[int]] = defaultdict(set)
    for note in part.notes:
        struck[note.step].add(note.pitch)
    chords = [(step / 4, frozenset(p)) for step, p in sorted(struck.items()) if len(p) >= 2]
    bar = heard.song.beats_per_bar
    longest, first = 0.0, 0
    for index in range(1, len(chords) + 1):
        if (
            index == len(chords)
            or chords[index][1] != chords[first][1]
            or chords[index][0] - chords[index - 1][0] >= bar
        ):
            longest = max(longest, chords[index - 1][0] - chords[first][0])
            first = index
    return longest


@pytest.mark.parametrize(
    ("prompt", "role"),
    [
        ("trap, 140 BPM, C minor, Rhodes and pad", "keys"),
        ("house with piano and pad, 124 BPM, A minor", "chords"),
        ("drum and bass, 174 BPM, E minor, Rhodes", "keys"),
    ],
)
def test_a_comping_part_moves_its_voicing_within_a_bar(prompt: str, role: str) -> None:
    """Keys striking one chord for bars move the top voice: never the same grip struck
    again a bar or more after it began."""
    heard = compose(prompt)
    comping = [p for p in heard.role(role) if p.notes]
    assert comping, [(p.role, p.name) for p in heard.parts]
    assert _longest_run(heard, comping[0]) < heard.song.beats_per_bar
