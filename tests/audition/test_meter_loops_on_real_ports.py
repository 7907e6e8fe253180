"""A section loop in 3/4, or in a 6/8 section of a 4/4 song, wraps on its own bar line.

Through a real port (JACK loopback): a distinctive note on the section's first beat comes
round once per loop, every loop-length of beats apart (6 beats for two bars of 3/4 or
6/8, not the 8 a 4/4 count would give), with the kick's count in between, and no
note is left sounding when the loop stops.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import pytest

from muse_tui.audition import Player, open_output
from muse_tui.contracts import Arrangement, Meter, Section, SongState
from tests.audition.fakes import StampedPort, note_balance, wait_until
from tests.audition.songs import region, track
from tests.midi_ports import Loopback

pytestmark = pytest.mark.ports

KICK, CRASH = 36, 49
TEMPO = 480.0  # an eighth of a second a beat


@pytest.fixture
def stamped(loopback: Loopback) -> StampedPort:
    return StampedPort(open_output(loopback.port_name))


@pytest.fixture
def player(stamped: StampedPort) -> Iterator[Player]:
    player = Player(stamped, realtime=True)
    yield player
    player.close()


def _song(first: tuple[int, int], second: tuple[int, int]) -> tuple[SongState, float, float]:
    """Two 2-bar sections, "A" in `first` and "B" in `second`: a kick on every beat (quarter
    or dotted pulse), a crash on B's first beat. Returns the song, B's start and length."""
    meter_a = Meter.parse(f"{first[0]}/{first[1]}")
    meter_b = Meter.parse(f"{second[0]}/{second[1]}")
    a_beats, b_beats = 2 * meter_a.beats_per_bar, 2 * meter_b.beats_per_bar
    pulses = [i * 1.0 for i in range(int(a_beats))]
    pulses += [a_beats + i * meter_b.pulse * 2 for i in range(int(b_beats / (meter_b.pulse * 2)))]
    notes = [(beat, 0.1, KICK, 100) for beat in pulses] + [(a_beats, 0.5, CRASH, 110)]
    sections = [
        Section(name="A", kind="verse", start_bar=0, bars=2, energy=0.5),
        Section(
            name="B",
            kind="bridge",
            start_bar=2,
            bars=2,
            energy=0.7,
            meter=None if meter_b == meter_a else meter_b,
        ),
    ]
    song = SongState(
        tempo=240.0,
        time_signature=first,
        tracks=[track("drums", 9, [region(0, a_beats + b_beats, notes)], program=0)],
        arrangement=Arrangement(template="test", sections=sections),
    )
    return song, a_beats, b_beats


@pytest.mark.parametrize(
    ("first", "second"), [((3, 4), (3, 4)), ((4, 4), (6, 8))], ids=["waltz", "6/8-bridge"]
)
def test_a_section_loop_wraps_on_its_own_bar_line(
    player: Player,
    stamped: StampedPort,
    loopback: Loopback,
    first: tuple[int, int],
    second: tuple[int, int],
) -> None:
    song, b_start, b_beats = _song(first, second)
    assert song.bar_beat(2) == b_start
    player.load(song)
    player.set_tempo(TEMPO)
    player.loop_section("B")
    player.play(from_bar=2)
    seconds_per_beat = 60 / TEMPO
    loop_seconds = b_beats * seconds_per_beat
    crashes = lambda: [t for t, m in stamped.sent if m[0] == 0x99 and m[1] == CRASH and m[2]]  # noqa: E731
    assert wait_until(lambda: len(crashes()) >= 4, timeout=5 + 6 * loop_seconds)
    player.stop()
    assert player.sync()
    received = [tuple(r.message.bytes()) for r in loopback.wait_quiet(quiet_for=0.2)]

    times = crashes()[:4]
    gaps = [later - earlier for earlier, later in pairwise(times)]
    assert all(abs(gap - loop_seconds) < 0.004 for gap in gaps), (gaps, loop_seconds)
    # Between two crashes the loop plays its own kicks, no more: the section's bars, once.
    kicks = [t for t, m in stamped.sent if m[0] == 0x99 and m[1] == KICK and m[2]]
    between = [t for t in kicks if times[1] - 0.001 <= t < times[2] - 0.001]
    assert len(between) == len(
        [n for n in song.tracks[0].notes if n.pitch == KICK and n.start_beat >= b_start]
    )
    sounding, orphans = note_balance(received)
    assert sounding == {} and orphans == []
    assert player.last_error is None
