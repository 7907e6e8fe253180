"""The history is built from the models themselves: no field can be missed by undo."""

from __future__ import annotations

from muse_tui.compose.iteration.history import applied, intent_changes, song_changes
from muse_tui.contracts import HistoryEntry, SongState, StandingEdit, Take

from .conftest import Session


class WiderSong(SongState):
    """A song with a field added after the history was written."""

    groove_note: str = ""


def test_a_field_nobody_listed_is_recorded_and_undone(session: Session) -> None:
    song = WiderSong.model_validate(session.pipeline.song_state.model_dump())
    drums = song.tracks[0]
    changed = song.model_copy(
        update={
            "groove_note": "laid back",
            "seed": song.seed + 1,  # a song field the old hand-written list left out
            "tracks": [drums.model_copy(update={"role": "percussion"}), *song.tracks[1:]],
        }
    )

    changes = song_changes(song, changed)
    undone, _ = applied(changed, None, changes, undo=True)
    redone, _ = applied(undone, None, changes, undo=False)

    assert {c.path for c in changes} == {"grooveNote", "seed", "tracks[0].role"}
    assert undone == song
    assert redone == changed


def test_typed_standing_edits_and_takes_are_undone_with_the_intent(session: Session) -> None:
    intent = session.pipeline.intent
    assert intent is not None
    edited = intent.model_copy(
        update={
            "standing_edits": [StandingEdit(role="bass", kind="density", value=-1)],
            "takes": [Take(role="drums", variant=3, dials=0.15, style="trap")],
        }
    )

    changes = intent_changes(intent, edited)
    _, undone = applied(session.pipeline.song_state, edited, changes, undo=True)

    assert [c.path for c in changes] == ["intent.standingEdits", "intent.takes"]
    assert undone == intent


def test_regions_are_packed_and_a_reordered_line_up_is_recorded_whole(session: Session) -> None:
    song = session.pipeline.song_state
    thinner = song.tracks[1].model_copy(update={"regions": song.tracks[1].regions[:1]})
    fewer = song.model_copy(update={"tracks": [song.tracks[0], thinner, *song.tracks[2:]]})
    swapped = song.model_copy(update={"tracks": [song.tracks[1], song.tracks[0], *song.tracks[2:]]})

    (regions,) = song_changes(song, fewer)
    (line_up,) = song_changes(song, swapped)

    assert regions.path == "tracks[1].regions" and isinstance(regions.new_value[0], list)
    assert applied(fewer, None, [regions], undo=True)[0] == song
    assert line_up.path == "tracks"
    assert applied(swapped, None, [line_up], undo=True)[0] == song


def test_an_older_entry_that_changed_phrases_in_the_constraints_still_undoes(
    session: Session,
) -> None:
    intent = session.pipeline.intent
    assert intent is not None
    entry = HistoryEntry.model_validate(
        {
            "id": "00000000-0000-4000-8000-000000000001",
            "timestamp": "2026-11-22T21:00:00+00:00",
            "userText": "bass simpler, no reverb",
            "changes": [
                {
                    "path": "intent.constraints",
                    "previousValue": [],
                    "newValue": ["no reverb", "edit bass density -1"],
                }
            ],
        }
    )
    edited = intent.model_copy(
        update={
            "constraints": ["no reverb"],
            "standing_edits": [StandingEdit(role="bass", kind="density", value=-1)],
        }
    )

    _, undone = applied(session.pipeline.song_state, edited, entry.changes, undo=True)
    _, redone = applied(session.pipeline.song_state, undone, entry.changes, undo=False)

    assert [c.path for c in entry.changes] == ["intent.constraints", "intent.standingEdits"]
    assert undone == intent.model_copy(update={"constraints": [], "standing_edits": []})
    assert redone == edited
