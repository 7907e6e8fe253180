"""The feel edits on hand-written bars: where each hit lands, and how hard."""

from __future__ import annotations

from muse_tui.compose.iteration.groove_edits import (
    accented,
    double_timed,
    half_timed,
    with_build,
    with_fill,
    with_hat_rolls,
    with_slides,
)
from muse_tui.compose.iteration.note_edits import Groove
from muse_tui.contracts import Note, Region

KICK, SNARE, HAT, GHOST_VELOCITY = 36, 38, 42, 30
GROOVE = Groove(beats_per_bar=4.0)


def _region(notes: list[tuple[float, int, int]], bars: int = 2) -> Region:
    return Region(
        id="00000000-0000-4000-8000-000000000001",
        name="test",
        start_beat=0,
        length_beats=4.0 * bars,
        notes=[
            Note(pitch=p, velocity=v, start_beat=b, duration_beats=0.1, channel=9)
            for b, p, v in notes
        ],
    )


def _backbeat(bars: int = 2) -> Region:
    """Kick on 1 and 3, snare on 2 and 4, hats on the 8ths, a ghost before 4."""
    notes = []
    for bar in range(bars):
        at = bar * 4.0
        notes += [(at, KICK, 100), (at + 2, KICK, 96), (at + 1, SNARE, 104), (at + 3, SNARE, 108)]
        notes += [(at + k / 2, HAT, 70) for k in range(8)]
        notes.append((at + 2.75, SNARE, GHOST_VELOCITY))
    return _region(notes, bars)


def _at(region: Region, pitch: int) -> list[float]:
    return sorted(n.start_beat for n in region.notes if n.pitch == pitch and n.velocity > 40)


def test_half_time_puts_one_backbeat_on_three_and_keeps_the_hats() -> None:
    half = half_timed(_backbeat(), GROOVE)
    assert _at(half, SNARE) == [2.0, 6.0]
    assert _at(half, KICK) == [0.0, 4.0]  # the kick on 3 would be spread past the bar
    assert len(_at(half, HAT)) == 16


def test_a_downbeat_played_a_hair_early_stays_the_next_bars_downbeat() -> None:
    early = _region([(3.99, KICK, 100), (1.0, SNARE, 100), (5.0, SNARE, 100)])
    assert 4.0 in _at(half_timed(early, GROOVE), KICK)


def test_double_time_plays_the_figure_twice_a_bar() -> None:
    double = double_timed(_backbeat(1), GROOVE)
    assert _at(double, SNARE) == [0.5, 1.5, 2.5, 3.5]
    assert _at(double, KICK) == [0.0, 1.0, 2.0, 3.0]


def test_harder_lifts_kick_and_snare_but_leaves_the_ghosts() -> None:
    hard = accented(_backbeat(1), 1)
    velocities = {(n.start_beat, n.pitch): n.velocity for n in hard.notes}
    assert velocities[(0.0, KICK)] == 112 and velocities[(1.0, SNARE)] == 116
    assert velocities[(2.75, SNARE)] == GHOST_VELOCITY
    assert velocities[(0.5, HAT)] == 70


def test_hat_rolls_fill_the_last_beat_of_every_second_bar_with_rising_32nds() -> None:
    rolled = with_hat_rolls(_backbeat(2), GROOVE)
    roll = [n for n in rolled.notes if n.pitch == HAT and 7 <= n.start_beat < 8]
    assert [n.start_beat for n in roll] == [7 + k / 8 for k in range(8)]
    assert [n.velocity for n in roll] == sorted(n.velocity for n in roll)
    assert len([n for n in rolled.notes if n.pitch == HAT and 3 <= n.start_beat < 4]) == 2


def test_a_fill_ends_the_section_with_toms_getting_louder() -> None:
    filled = with_fill(_backbeat(1), GROOVE)
    last = [n for n in filled.notes if n.start_beat >= 3]
    assert [n.start_beat for n in last] == [3.0, 3.25, 3.5, 3.75]
    assert any(n.pitch in (43, 45, 47, 50) for n in last)
    assert last[-1].velocity > last[0].velocity


def test_a_build_rolls_the_snare_over_the_last_two_bars() -> None:
    built = with_build(_backbeat(2), GROOVE)
    snares = [n for n in built.notes if n.pitch == SNARE]
    assert len(snares) == 8 + 16
    assert snares[-1].velocity > snares[0].velocity


def test_slides_hold_each_note_into_the_next_and_bend_to_it() -> None:
    bass = Region(
        id="00000000-0000-4000-8000-000000000002",
        name="808",
        start_beat=0,
        length_beats=8,
        notes=[
            Note(pitch=36, velocity=100, start_beat=0, duration_beats=1, channel=1),
            Note(pitch=43, velocity=100, start_beat=2, duration_beats=1, channel=1),
        ],
    )
    slid = with_slides(bass)
    assert slid.notes[0].duration_beats == 2.0
    bends = slid.pitch_bends
    assert max(b.value for b in bends) == round(7 / 12 * 8192)
    assert bends[-1].beat == 2.0 and bends[-1].value == 0
    assert any(c.controller == 101 for c in slid.control_changes)
