"""The blast radius: what a change reaches through the sensitivity map, two levels out."""

from __future__ import annotations

from muse_tui.contracts import SensitivityEntry
from muse_tui.engine.editing import modify
from muse_tui.engine.planning import blast_radius

from .conftest import RecordingGate, Session


def _reached(*triggers: str) -> dict[str, int]:
    return {r.component: r.depth for r in blast_radius([(t, None) for t in triggers])}


def test_a_key_change_reaches_the_harmony_and_not_the_drums() -> None:
    assert _reached("key", "scale") == {"progression": 1, "bass": 1, "chords": 1, "lead": 1}


def test_a_tempo_change_reaches_the_groove_and_the_effects() -> None:
    assert _reached("tempo") == {"drums": 1, "bass": 1, "effectChain": 1}


def test_a_genre_change_reaches_almost_everything_in_stage_order() -> None:
    reaches = blast_radius([("genre", None)])
    assert [r.stage for r in reaches] == sorted(r.stage for r in reaches)
    depths = {r.component: r.depth for r in reaches}
    assert depths["progression"] == 1 and depths["chords"] == 2 and depths["lead"] == 2


def test_a_track_scoped_trigger_stays_on_that_track() -> None:
    (reach,) = blast_radius([("preset", "pad-id")])
    assert (reach.component, reach.scope) == ("effectChain", "pad-id")


def test_cascades_stop_at_depth_two() -> None:
    chain = {
        "a": SensitivityEntry(
            sensitive_to=["key"], regeneration_cost="cheap", regeneration_stage=2
        ),
        "progression": SensitivityEntry(
            sensitive_to=["tempo"], regeneration_cost="cheap", regeneration_stage=2
        ),
        "arrangement": SensitivityEntry(
            sensitive_to=["progression"], regeneration_cost="cheap", regeneration_stage=3
        ),
        "drums": SensitivityEntry(
            sensitive_to=["arrangement"], regeneration_cost="cheap", regeneration_stage=4
        ),
    }
    reached = {r.component for r in blast_radius([("tempo", None)], chain)}
    assert reached == {"progression", "arrangement"}
    assert {r.component for r in blast_radius([("tempo", None)], chain, max_depth=3)} >= {"drums"}


async def test_a_frozen_part_reached_only_second_hand_is_kept(session: Session) -> None:
    song = session.pipeline.song_state
    lead = next(i for i, t in enumerate(song.tracks) if t.role == "lead")
    tracks = list(song.tracks)
    tracks[lead] = tracks[lead].model_copy(update={"frozen": True})
    frozen = session.pipeline.model_copy(
        update={"song_state": song.model_copy(update={"tracks": tracks})}
    )

    genre = await modify(frozen, "change the genre to trap", gate=RecordingGate())
    chord = await modify(frozen, "change the 2nd chord to Gbmaj7")

    assert "lead" in genre.preserved_components  # via the new progression only: depth 2
    kept = {(n.pitch, n.start_beat, n.velocity) for n in genre.song_state.tracks[lead].notes}
    assert kept and kept <= {(n.pitch, n.start_beat, n.velocity) for n in tracks[lead].notes}
    assert "lead" in chord.regenerated_components  # its own input, the progression, changed


async def test_the_producer_freezes_a_part_by_asking_and_undo_thaws_it(session: Session) -> None:
    frozen = await modify(session.pipeline, "freeze the lead")
    assert frozen.status == "applied" and frozen.cost == "cheap"
    assert frozen.regenerated_components == []  # freezing regenerates nothing
    lead = frozen.song_state.track("lead")
    assert lead.frozen and frozen.history_entry.changes[0].path.endswith(".frozen")

    genre = await modify(frozen.pipeline, "change the genre to trap", gate=RecordingGate())
    assert "lead" in genre.preserved_components
    kept = {(n.pitch, n.start_beat, n.velocity) for n in genre.song_state.track("lead").notes}
    assert kept and kept <= {(n.pitch, n.start_beat, n.velocity) for n in lead.notes}

    thawed = await modify(frozen.pipeline, "undo")
    assert not thawed.song_state.track("lead").frozen
    again = await modify(thawed.pipeline, "change the genre to trap", gate=RecordingGate())
    assert "lead" in again.regenerated_components


def test_freeze_and_unfreeze_are_read_with_their_part() -> None:
    from muse_tui.compose.requests import parse_request

    (edit,) = parse_request("lock the drums").edits
    assert (edit.operation, edit.scope.role) == ("freeze", "drums")
    (edit,) = parse_request("unfreeze the bass").edits
    assert (edit.operation, edit.scope.role) == ("unfreeze", "bass")
    (edit,) = parse_request("freeze the bass, no wait, unfreeze it").edits
    assert edit.operation == "unfreeze"
