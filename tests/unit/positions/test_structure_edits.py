"""Section edits on a hand-built song: the form changes, the notes ride along by whole bars."""

from __future__ import annotations

import pytest

from muse_tui.compose.iteration.revision import EditError
from muse_tui.compose.iteration.structure_edits import SectionEdit, apply, read_section_edit
from muse_tui.contracts import Position, SongState

from .song_fixture import form_song, revision_of


def edited(said: str) -> SongState:
    edit = read_section_edit(said)
    assert edit is not None, said
    return apply(revision_of(form_song()), edit).song


def names(song: SongState) -> list[str]:
    assert song.arrangement is not None
    return [s.name for s in song.arrangement.sections]


def bar_pitches(song: SongState, role: str = "bass") -> list[int]:
    """The bass plays one note a bar, its pitch naming the bar it was written for."""
    track = song.track(role)
    assert track is not None
    return [n.pitch for n in track.notes]


def test_cutting_the_outro_drops_its_bars_and_nothing_else() -> None:
    song = edited("cut the outro")
    assert names(song)[-1] == "Chorus 3"
    assert bar_pitches(song) == bar_pitches(form_song())[:-4]


def test_moving_the_bridge_after_the_intro_carries_its_notes() -> None:
    before = bar_pitches(form_song())
    song = edited("move the bridge after the intro")
    assert names(song)[:3] == ["Intro", "Bridge", "Verse 1"]
    assert bar_pitches(song) == before[:4] + before[36:44] + before[4:36] + before[44:]
    assert song.arrangement is not None and song.arrangement.total_bars == 56


def test_repeating_the_chorus_copies_it_right_after_with_ids_of_its_own() -> None:
    before = bar_pitches(form_song())
    song = edited("repeat the chorus")
    assert names(song)[2:4] == ["Chorus 1", "Chorus 2"] and names(song)[-2] == "Chorus 4"
    assert bar_pitches(song) == before[:20] + before[12:20] + before[20:]
    ids = [r.id for t in song.tracks for r in t.regions]
    assert len(ids) == len(set(ids))


def test_an_inserted_section_is_left_empty_for_the_part_writers() -> None:
    edit = read_section_edit("insert a 4-bar breakdown before the last chorus")
    assert edit is not None
    revision = apply(revision_of(form_song()), edit)
    (fill,) = revision.fills
    assert (fill.kind, fill.start_bar, fill.bars) == ("breakdown", 44, 4)
    assert names(revision.song)[6:8] == ["Breakdown", "Chorus 3"]
    assert bar_pitches(revision.song) == bar_pitches(form_song())  # the new bars hold no notes yet
    bass = revision.song.track("bass")
    assert bass is not None and bass.notes[44].start_beat == 48 * 4 + 0.5


def test_a_longer_intro_leaves_its_new_tail_to_write() -> None:
    revision = apply(
        revision_of(form_song()), SectionEdit(action="extend", target=Position(section="intro"))
    )
    (fill,) = revision.fills
    assert (fill.start_bar, fill.bars) == (4, 4)
    assert revision.song.arrangement is not None
    assert revision.song.arrangement.sections[0].bars == 8
    assert len(revision.song.arrangement.energy_arc) == 60


@pytest.mark.parametrize(("said", "bars"), [("shorter outro", 2), ("make the bridge shorter", 4)])
def test_shorter_takes_a_phrase_or_half_a_short_section(said: str, bars: int) -> None:
    song = edited(said)
    assert song.arrangement is not None and song.arrangement.total_bars == 56 - bars


def test_a_section_cannot_be_shortened_away() -> None:
    edit = SectionEdit(action="shorten", target=Position(section="outro"), bars=4)
    with pytest.raises(EditError, match="only 4 bars"):
        apply(revision_of(form_song()), edit)


def test_a_new_section_inside_another_is_refused_with_where_that_is() -> None:
    edit = read_section_edit("insert a bridge at bar 7")
    assert edit is not None
    with pytest.raises(EditError, match=r"bar 7 is inside Verse 1 \(bars 5–12\)"):
        apply(revision_of(form_song()), edit)


@pytest.mark.parametrize(
    "said", ["make the bass simpler", "add reverb to the chorus", "remove the reverb", "more swing"]
)
def test_other_requests_are_not_section_edits(said: str) -> None:
    assert read_section_edit(said) is None


@pytest.mark.parametrize(
    ("said", "action", "target", "bars"),
    [
        ("make the intro longer", "extend", Position(section="intro"), None),
        ("make the chorus 8 bars longer", "extend", Position(section="chorus"), 8),
        ("extend the last chorus by two bars", "extend",
         Position(section="chorus", ordinal=-1), 2),
        ("shorter outro", "shorten", Position(section="outro"), None),
        ("shorten the second verse", "shorten", Position(section="verse", ordinal=2), None),
        ("stretch out the chorus", "extend", Position(section="chorus"), None),
        ("intro longer", "extend", Position(section="intro"), None),
        ("the intro should be longer", "extend", Position(section="intro"), None),
        ("the bridge could be shorter", "shorten", Position(section="bridge"), None),
        ("the bridge could be 4 bars shorter", "shorten", Position(section="bridge"), 4),
        ("the intro is too short", "extend", Position(section="intro"), None),
        ("the outro feels way too long", "shorten", Position(section="outro"), None),
    ],
)  # fmt: skip
def test_longer_and_shorter_are_read(
    said: str, action: str, target: Position, bars: int | None
) -> None:
    edit = read_section_edit(said)
    assert edit is not None and (edit.action, edit.target, edit.bars) == (action, target, bars)


@pytest.mark.parametrize(
    "said",
    [
        "make the drums tighter in the chorus",
        "trim the reverb in the chorus",
        "the bass in the chorus should be shorter",
        "the hats are too long in the intro",
    ],
)
def test_a_part_made_tighter_in_a_section_is_not_a_shorter_section(said: str) -> None:
    assert read_section_edit(said) is None


@pytest.mark.parametrize(
    ("said", "index"),
    [
        ("add a breakdown", 6),  # before the last chorus
        ("add another verse", 4),  # after the last verse
        ("insert an intro", 0),
        ("add a solo", 6),
        ("add a pre-chorus", 7),  # before the outro
    ],
)
def test_a_section_with_no_place_said_goes_where_songs_put_one(said: str, index: int) -> None:
    edit = read_section_edit(said)
    assert edit is not None and edit.kind is not None
    song = apply(revision_of(form_song()), edit).song
    assert song.arrangement is not None
    assert song.arrangement.sections[index].kind == edit.kind
