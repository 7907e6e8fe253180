"""Reading placed chords, and finding the track a request names."""

from __future__ import annotations

import pytest

from muse_tui.compose.iteration.entities import WhichTrack, find_track
from muse_tui.compose.iteration.placed_harmony import read_placed_chords
from muse_tui.compose.iteration.revision import EditError
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import Position, Track, new_id

from .song_fixture import form_song


@pytest.mark.parametrize(
    ("said", "chords", "track", "place", "only"),
    [
        ("add I vi IV to the keys at bar 9", ("I", "vi", "IV"), "the keys", Position(bar=9), False),
        ("Gmaj/E Am7 D7 in the bridge", ("Gmaj/E", "Am7", "D7"), None,
         Position(section="bridge"), False),
        ("put ii V I only on track 4 at bar 5", ("ii", "V", "I"), "track 4", Position(bar=5), True),
        ("add Am F to the Synth Bass only at bar 9", ("Am", "F"), "the Synth Bass",
         Position(bar=9), True),
    ],
)  # fmt: skip
def test_placed_chords_are_read(
    said: str, chords: tuple[str, ...], track: str | None, place: Position, only: bool
) -> None:
    edit = read_placed_chords(said)
    assert edit is not None
    assert (edit.chords, edit.track, edit.place, edit.only) == (chords, track, place, only)


@pytest.mark.parametrize(
    "said", ["I think the bass is too busy", "make the chorus brighter", "add I to it"]
)
def test_lines_without_placed_chords_are_not_read_as_such(said: str) -> None:
    assert read_placed_chords(said) is None


def test_tracks_are_found_by_number_name_and_role() -> None:
    song = form_song()
    assert find_track(song, "track 2").role == "keys"
    assert find_track(song, "the Bass").role == "bass"
    assert find_track(song, "keys").role == "keys"
    breathe = song.tracks[1].model_copy(update={"name": "Breathe Pad"})
    named = song.model_copy(update={"tracks": [song.tracks[0], breathe]})
    assert find_track(named, "the Breathe Pad").name == "Breathe Pad"  # "the" only as a word
    with pytest.raises(EditError, match="no track 5; the song has 2"):
        find_track(song, "track 5")


def test_two_tracks_answering_to_a_role_are_a_question_with_options() -> None:
    song = form_song()
    second = Track(id=new_id(derive_rng(9)), name="Rhodes", role="keys", channel=3)
    wurlitzer = song.tracks[1].model_copy(update={"name": "Wurlitzer"})
    song = song.model_copy(update={"tracks": [song.tracks[0], wurlitzer, second]})
    assert find_track(song, "the rhodes").name == "Rhodes"
    with pytest.raises(WhichTrack) as asked:
        find_track(song, "the keys")
    assert str(asked.value) == "Which keys: track 2 (Wurlitzer, keys) or track 3 (Rhodes, keys)?"
    assert asked.value.options == ["track 2 (Wurlitzer, keys)", "track 3 (Rhodes, keys)"]
