"""Leads of unrelated genres do not share one onset template (issue 35: disco brass, amapiano
sax and techno acid played the same rhythm; every trap and drill hook shared one)."""

from __future__ import annotations

import itertools

import pytest

from muse_tui.compose.parts import choose_tracks, write_part
from muse_tui.compose.seeding import derive_rng
from muse_tui.knowledge.melody import melody_table
from tests.unit.parts.songs import intent, song

#: Genres of different families that shared a lead style before.
UNRELATED = ("disco", "amapiano", "techno", "uk_garage", "drill", "trap", "latin", "house")


def chorus_onsets(genre: str, seed: int) -> tuple[int, ...]:
    """The 16th steps of the chorus lead's onsets, as written for `genre`."""
    the_intent = intent(genre, roles=["drums", "bass", "chords", "lead"])
    the_song = song()
    chorus = next(s for s in the_song.arrangement.sections if s.kind == "chorus")  # type: ignore[union-attr]
    lead = next(
        t for t in choose_tracks(the_intent, derive_rng(seed, "tracks")) if t.role == "lead"
    )
    region = write_part(lead, the_song, the_intent, chorus, derive_rng(seed, "lead", "chorus"))
    return tuple(sorted({round(n.start_beat * 4) for n in region.notes}))


def test_unrelated_genres_have_a_lead_style_of_their_own() -> None:
    table = melody_table()
    styles = {g: table.style_for([g], [], "none") for g in UNRELATED}
    for a, b in itertools.combinations(UNRELATED, 2):
        if {a, b} == {"house", "uk_garage"}:
            continue
        assert styles[a] is not styles[b], (a, b)
        assert not set(styles[a].cells) & set(styles[b].cells), (a, b)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_unrelated_genres_never_share_a_chorus_rhythm(seed: int) -> None:
    rhythms = {g: chorus_onsets(g, seed) for g in UNRELATED}
    for a, b in itertools.combinations(UNRELATED, 2):
        assert rhythms[a] != rhythms[b], (a, b, rhythms[a])


@pytest.mark.parametrize("seed", [1, 2])
def test_every_genre_chorus_lead_spans_a_fifth_at_least(seed: int) -> None:
    for genre in UNRELATED:
        the_intent = intent(genre, roles=["drums", "bass", "chords", "lead"])
        the_song = song()
        chorus = next(s for s in the_song.arrangement.sections if s.kind == "chorus")  # type: ignore[union-attr]
        tracks = choose_tracks(the_intent, derive_rng(seed, "tracks"))
        lead = next(t for t in tracks if t.role == "lead")
        notes = write_part(lead, the_song, the_intent, chorus, derive_rng(seed, "lead")).notes
        pitches = [n.pitch for n in notes]
        assert max(pitches) - min(pitches) >= 7, genre
