"""The studio places bars through a song's meter changes: who plays where, and the roll's bands."""

from __future__ import annotations

from muse_tui.contracts import Arrangement, Meter, Note, Region, Section, SongState, Track
from muse_tui.tui.widgets.arrangement import bars_played
from muse_tui.tui.widgets.roll_model import RollForm


def _song() -> SongState:
    """4 bars of 4/4, a 2-bar 6/8 bridge (3 beats a bar), then 2 bars of 4/4; a note in bar 6."""
    sections = [
        Section(name="Verse", kind="verse", start_bar=0, bars=4, energy=0.5),
        Section(
            name="Bridge", kind="bridge", start_bar=4, bars=2, energy=0.5, meter=Meter.parse("6/8")
        ),
        Section(name="Outro", kind="outro", start_bar=6, bars=2, energy=0.3),
    ]
    note = Note(start_beat=22.5, duration_beats=1.0, pitch=60, velocity=90)  # bar 6 starts at 22
    region = Region(
        id="00000000-0000-4000-8000-000000000001",
        name="clip",
        start_beat=0,
        length_beats=30,
        notes=[note],
    )
    track = Track(
        id="00000000-0000-4000-8000-000000000002",
        name="Keys",
        role="keys",
        channel=0,
        regions=[region],
    )
    return SongState(tracks=[track], arrangement=Arrangement(template="t", sections=sections))


def test_the_arrangement_marks_the_bar_a_note_is_in_through_a_meter_change() -> None:
    song = _song()
    played = bars_played(song.tracks[0], song.bar_map, 8)
    assert played.index(True) == 6 and played.count(True) == 1  # 4/4 would have said bar 5


def test_the_roll_draws_each_section_where_its_bars_start() -> None:
    song = _song()
    sections = song.arrangement.sections  # type: ignore[union-attr]
    form = RollForm(
        sections, [], drums=False, beats_per_bar=4.0, total_beats=30.0, bar_beat=song.bar_beat
    )
    assert [(b.name, b.start, b.end) for b in form.bands] == [
        ("Verse", 0, 16),
        ("Bridge", 16, 22),
        ("Outro", 22, 30),
    ]
