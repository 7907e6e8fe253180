"""Positions: read from a producer's words, resolved on a song, refused in one sentence."""

from __future__ import annotations

import pytest

from muse_tui.compose.iteration.positions import (
    bar_of,
    beat_of,
    read_position,
    section_index,
)
from muse_tui.compose.iteration.revision import EditError
from muse_tui.contracts import Position

from .song_fixture import form_song


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("at bar 9", Position(bar=9)),
        ("the second chorus", Position(section="chorus", ordinal=2)),
        ("chorus 2", Position(section="chorus", ordinal=2)),
        ("the 3rd verse", Position(section="verse", ordinal=3)),
        ("after the intro", Position(section="intro", relation="after")),
        ("before the last chorus", Position(section="chorus", ordinal=-1, relation="before")),
        ("before chorus - 4", Position(section="chorus", relation="before", offset_bars=-4)),
        ("4 bars before the last chorus",
         Position(section="chorus", ordinal=-1, relation="before", offset_bars=-4)),
        ("two bars after the bridge", Position(section="bridge", relation="after", offset_bars=2)),
        ("in Loop B", Position(section="Loop B")),
        ("in the pre-chorus", Position(section="pre_chorus")),
    ],
)  # fmt: skip
def test_positions_are_read_from_the_words(said: str, expected: Position) -> None:
    assert read_position(said) == expected


def test_a_line_naming_no_place_has_no_position() -> None:
    assert read_position("make the bass simpler") is None


@pytest.mark.parametrize(
    ("position", "bar"),
    [
        (Position(bar=9), 8),
        (Position(section="intro"), 0),
        (Position(section="intro", relation="after"), 4),
        (Position(section="chorus", ordinal=2), 28),
        (Position(section="chorus", ordinal=-1), 44),
        (Position(section="chorus", ordinal=-1, relation="before", offset_bars=-4), 40),
        (Position(section="Verse 2"), 20),
    ],
)
def test_positions_resolve_to_bars_and_beats(position: Position, bar: int) -> None:
    song = form_song()
    assert bar_of(song, position) == bar
    assert beat_of(song, position) == bar * 4.0


def test_an_unknown_section_is_one_sentence_listing_the_song_s_sections() -> None:
    with pytest.raises(EditError) as refused:
        section_index(form_song(), Position(section="pre_chorus"))
    sentence = str(refused.value)
    assert sentence.startswith("There is no pre-chorus in this song; it has Intro (bars 1–4)")
    assert sentence.endswith("and Outro (bars 53–56).") and sentence.count(".") == 1


def test_an_ordinal_past_the_last_section_of_a_kind_names_those_there_are() -> None:
    with pytest.raises(EditError, match=r"only 3 choruses \(Chorus 1, Chorus 2 and Chorus 3\)"):
        section_index(form_song(), Position(section="chorus", ordinal=4))


def test_a_bar_past_the_end_is_refused() -> None:
    with pytest.raises(EditError, match="has 56 bars"):
        bar_of(form_song(), Position(bar=90))
