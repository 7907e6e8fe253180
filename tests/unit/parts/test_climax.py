"""A flat line gets one climax late in the section, on the chord, at least a fifth up."""

from __future__ import annotations

from muse_tui.compose.humanize import Draft
from muse_tui.compose.parts import choose_tracks
from muse_tui.compose.parts.climax import MIN_SPAN, place_climax
from muse_tui.compose.parts.context import PartContext
from muse_tui.compose.seeding import derive_rng
from muse_tui.knowledge.rhythm import rhythm_table

from .songs import intent, song

#: Chord tones of the song's i–VI–III–VII, a bar each (C minor).
TONES = ({0, 3, 7}, {8, 0, 3}, {3, 7, 10}, {10, 2, 5})


def context() -> PartContext:
    the_intent, the_song = intent("house"), song()
    chorus = next(s for s in the_song.arrangement.sections if s.kind == "chorus")  # type: ignore[union-attr]
    lead = next(t for t in choose_tracks(the_intent, derive_rng(1, "tracks")) if t.role == "lead")
    return PartContext(lead, the_song, the_intent, chorus, rhythm_table())


def test_a_flat_line_rises_once_in_its_ending_onto_a_chord_tone() -> None:
    flat = [Draft(67 if b % 2 else 65, 90, float(b), 0.9) for b in range(32)]

    line = place_climax(
        [Draft(n.pitch, n.velocity, n.start, n.duration) for n in flat], context(), 60, 79
    )

    pitches = [n.pitch for n in line]
    assert max(pitches) - min(pitches) >= MIN_SPAN
    moved = [(a, b) for a, b in zip(flat, line, strict=True) if a.pitch != b.pitch]
    assert len(moved) == 1
    note = moved[0][1]
    assert note.start >= 24  # the last two bars of eight
    assert note.pitch % 12 in TONES[int(note.start // 4) % 4]


def test_a_line_that_already_moves_is_left_alone() -> None:
    line = [Draft(60 + (b % 3) * 4, 90, float(b), 0.9) for b in range(32)]
    before = [n.pitch for n in line]

    assert [n.pitch for n in place_climax(line, context(), 55, 79)] == before
