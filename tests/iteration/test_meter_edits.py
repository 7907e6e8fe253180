"""Meter edits: "put it in 3/4", "make the chorus 6/8", "straight 4/4 again", and undo.

The bar count stays; every bar takes the new length, the MIDI file says so, and the
sentence tells the producer how the song's length moved.
"""

from __future__ import annotations

from pathlib import Path

import mido

from muse_tui.contracts import ComposerPipeline
from muse_tui.contracts.editing import ModifySongResult
from muse_tui.engine.editing import modify, undo

from .conftest import RecordingGate, Session, fixed_clock


def _signatures(folder: Path) -> list[tuple[float, int, int]]:
    midi = mido.MidiFile(folder / "midi" / "full-arrangement.mid")
    found, tick = [], 0
    for msg in midi.tracks[0]:
        tick += msg.time
        if msg.type == "time_signature":
            found.append((tick / midi.ticks_per_beat, msg.numerator, msg.denominator))
    return found


async def _asked(pipeline: ComposerPipeline, said: str, folder: Path) -> ModifySongResult:
    """The change applied to the session's files, every question answered yes."""
    result = await modify(
        pipeline, said, session_dir=folder, gate=RecordingGate(), clock=fixed_clock
    )
    assert result.status == "applied", result.summary
    return result


async def test_put_it_in_3_4_keeps_the_bars_and_undo_brings_4_4_back(session: Session) -> None:
    before = session.fingerprints()
    bars = session.pipeline.song_state.arrangement.total_bars  # type: ignore[union-attr]
    result = await _asked(session.pipeline, "put the whole song in 3/4", session.folder)
    song = result.song_state
    assert song.time_signature == (3, 4) and song.arrangement.total_bars == bars  # type: ignore[union-attr]
    assert _signatures(session.folder) == [(0.0, 3, 4)]
    assert f"keeps its {bars} bars" in result.summary
    drums = song.track("drums")
    assert drums is not None
    for region in drums.regions:  # every region starts on a 3/4 bar line
        assert region.start_beat % 3 == 0
    assert "meter" in [t.component for t in result.request.targets]  # type: ignore[union-attr]

    undone = undo(result.pipeline, session_dir=session.folder)
    assert undone.status == "undone"
    assert undone.song_state.time_signature == (4, 4)
    assert _signatures(session.folder) == [(0.0, 4, 4)]
    after = session.fingerprints()
    moved = {k for k in before if before[k] != after.get(k)} - {
        "state/song-state.json",
        "state/pipeline-state.json",
        "manifest.json",
    }
    assert moved == set(), moved


async def test_a_section_takes_its_own_meter_and_gives_it_back(session: Session) -> None:
    result = await _asked(session.pipeline, "make the chorus 6/8", session.folder)
    song = result.song_state
    choruses = [s for s in song.arrangement.sections if s.kind == "chorus"]  # type: ignore[union-attr]
    assert choruses and all(s.meter is not None and s.meter.label == "6/8" for s in choruses)
    changes = _signatures(session.folder)
    assert changes[0] == (0.0, 4, 4)
    for chorus in choruses:
        start = song.bar_beat(chorus.start_bar)
        assert (start, 6, 8) in changes
        assert (song.bar_beat(chorus.end_bar), 4, 4) in changes or chorus.end_bar == (
            song.arrangement.total_bars  # type: ignore[union-attr]
        )

    again = await _asked(result.pipeline, "straight 4/4 again", session.folder)
    assert not again.song_state.has_meter_changes
    assert _signatures(session.folder) == [(0.0, 4, 4)]


async def test_a_meter_the_song_is_in_or_a_section_it_lacks_is_one_sentence(
    session: Session,
) -> None:
    same = await modify(session.pipeline, "put it in 4/4", gate=RecordingGate())
    assert same.status == "no_change" and "already in 4/4" in same.summary
    lacking = await modify(session.pipeline, "make the bridge 7/8", gate=RecordingGate())
    assert lacking.status == "no_change" and "has no bridge" in lacking.summary
