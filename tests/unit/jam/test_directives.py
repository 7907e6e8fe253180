"""A producer's line read as directions: to whom, what, with which value."""

from __future__ import annotations

import pytest

from muse_tui.compose.jam import read_directives
from muse_tui.knowledge.jam import band_table


def _read(text: str) -> list[tuple[tuple[str, ...], str, str | None]]:
    return [
        (tuple(d.targets), d.action, d.value) for d in read_directives(text, band_table().members)
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("@drums busier", [(("drums",), "busier", None)]),
        ("everyone, key of D", [(("band",), "key", "D")]),
        ("key of D minor", [(("band",), "key", "D minor")]),
        ("@bass lock to the kick", [(("bass",), "lock_to_kick", None)]),
        ("drums, simpler", [(("drums",), "simpler", None)]),
        ("@808 follow the kick", [(("bass",), "lock_to_kick", None)]),
        ("@Ray up an octave", [(("lead",), "higher", None)]),
        ("half time", [(("band",), "half_time", None)]),
        ("@drums half time", [(("band",), "half_time", None)]),
        ("take it to 96 bpm", [(("band",), "tempo", "96")]),
        (
            "@drums busier @lead lay out",
            [(("drums",), "busier", None), (("lead",), "lay_out", None)],
        ),
        ("@keys busier, no wait, simpler", [(("keys",), "simpler", None)]),
        ("busier", [(("band",), "busier", None)]),
        ("what a lovely day", []),
        ("", []),
    ],
)
def test_lines_read_as_directions(
    text: str, expected: list[tuple[tuple[str, ...], str, str | None]]
) -> None:
    assert _read(text) == expected


def test_a_very_long_line_is_read_in_bounded_time() -> None:
    """Only the line's first characters are read, so a huge paste costs what a long line does."""
    assert _read("@drums " + "busier " * 20_000)[0][:2] == (("drums",), "busier")
    # A direction past the cut is not read at all: the cut is what bounds the time.
    assert _read("@drums busier " + "la " * 1_000 + "@lead lay out") == [
        (("drums",), "busier", None)
    ]
