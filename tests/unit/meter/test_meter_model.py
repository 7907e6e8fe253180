"""Meter and BarMap: one answer to "where does bar N start, and how long is it"."""

from __future__ import annotations

import pytest

from muse_tui.contracts import COMMON_TIME, Arrangement, BarMap, Meter, Section, SongState


@pytest.mark.parametrize(
    ("label", "grouping", "beats", "starts"),
    [
        ("4/4", (1, 1, 1, 1), 4.0, (0, 1, 2, 3)),
        ("3/4", (1, 1, 1), 3.0, (0, 1, 2)),
        ("6/8", (3, 3), 3.0, (0, 1.5)),
        ("9/8", (3, 3, 3), 4.5, (0, 1.5, 3)),
        ("12/8", (3, 3, 3, 3), 6.0, (0, 1.5, 3, 4.5)),
        ("5/4", (3, 2), 5.0, (0, 3)),
        ("7/8", (2, 2, 3), 3.5, (0, 1, 2)),
        ("2/4", (1, 1), 2.0, (0, 1)),
    ],
)
def test_a_meter_knows_its_bar_and_its_felt_beats(
    label: str, grouping: tuple[int, ...], beats: float, starts: tuple[float, ...]
) -> None:
    meter = Meter.parse(label)
    assert meter.grouping == grouping
    assert meter.beats_per_bar == beats
    assert meter.group_starts == starts


def test_a_grouping_is_kept_and_must_fill_the_bar() -> None:
    assert Meter.parse("7/8", (3, 2, 2)).group_starts == (0, 1.5, 2.5)
    with pytest.raises(ValueError, match="does not add up to 7"):
        Meter.parse("7/8", (3, 3, 2))
    for bad in ("7/7", "3/4/4", "waltz", "0/4"):
        with pytest.raises(ValueError):
            Meter.parse(bad)


def test_compound_meters_are_felt_in_dotted_beats() -> None:
    assert Meter.parse("6/8").is_compound and Meter.parse("12/8").is_compound
    assert not Meter.parse("3/4").is_compound and not Meter.parse("7/8").is_compound
    assert Meter.parse("6/8").feel_words == "6/8, felt in two (3+3)"
    assert Meter.parse("3/4").feel_words == "3/4"


def test_the_bar_map_places_bars_through_meter_changes() -> None:
    # 4 bars of 4/4, 2 bars of 6/8 (a bridge), then 4/4 again.
    bars = BarMap([(0, COMMON_TIME), (4, Meter.parse("6/8")), (6, COMMON_TIME)])
    assert [bars.bar_start(b) for b in range(8)] == [0, 4, 8, 12, 16, 19, 22, 26]
    assert bars.bar_length(4) == 3.0 and bars.bar_length(6) == 4.0
    assert [bars.bar_at(beat) for beat in (0, 15.9, 16, 18.9, 19, 22, 25.9)] == [
        0,
        3,
        4,
        4,
        5,
        6,
        6,
    ]


def test_a_song_maps_its_sections_meters() -> None:
    def section(name: str, start: int, bars: int, meter: str | None = None) -> Section:
        return Section(
            name=name,
            kind="bridge" if meter else "verse",
            start_bar=start,
            bars=bars,
            energy=0.5,
            meter=Meter.parse(meter) if meter else None,
        )

    sections = [section("Verse", 0, 8), section("Bridge", 8, 4, "6/8"), section("Out", 12, 4)]
    song = SongState(
        time_signature=(3, 4), arrangement=Arrangement(template="t", sections=sections)
    )
    assert song.has_meter_changes
    assert song.bar_beat(8) == 24 and song.bar_beat(12) == 36 and song.bar_beat(16) == 48
    assert song.section_span(sections[1]) == (24, 36)
    assert song.section_meter(sections[1]).label == "6/8"
    assert [(bar, m.label) for bar, m in song.bar_map.changes] == [
        (0, "3/4"),
        (8, "6/8"),
        (12, "3/4"),
    ]


def test_a_4_4_song_writes_no_meter_fields() -> None:
    """New fields stay out of the JSON when unset, so a 4/4 song's files keep their bytes."""
    section = Section(name="Verse", kind="verse", start_bar=0, bars=4, energy=0.5)
    text = SongState(arrangement=Arrangement(template="t", sections=[section])).to_json()
    assert '"grouping"' not in text and '"meter"' not in text
    assert '"grouping"' in SongState(time_signature=(7, 8), grouping=(3, 2, 2)).to_json()
