"""Tempo limits have one truth: the BPMs a song may be composed with bound every tempo edit."""

from __future__ import annotations

from muse_tui.compose.intent.numbers import read_tempo
from muse_tui.compose.intent.text import PromptText
from muse_tui.contracts import TEMPO_LIMITS, ComposerPipeline
from muse_tui.engine.editing import modify

from .conftest import Session, fixed_clock


def _at(pipeline: ComposerPipeline, bpm: float) -> ComposerPipeline:
    song = pipeline.song_state.model_copy(update={"tempo": bpm})
    assert pipeline.intent is not None
    intent = pipeline.intent.model_copy(update={"tempo": bpm})
    return pipeline.model_copy(update={"song_state": song, "intent": intent})


def test_a_prompt_may_ask_for_any_tempo_within_the_limits() -> None:
    low, high = TEMPO_LIMITS
    for bpm in (low, 250.0, high):
        reading = read_tempo(PromptText(f"drum and bass at {bpm:g} bpm"))
        assert reading is not None and reading.bpms == (bpm,)
    assert read_tempo(PromptText(f"drum and bass at {high + 10:g} bpm")) is None


async def test_a_bit_faster_makes_a_250_bpm_song_faster(session: Session) -> None:
    result = await modify(_at(session.pipeline, 250.0), "a bit faster", clock=fixed_clock)

    assert result.status == "applied", result.summary
    assert result.song_state.tempo > 250.0


async def test_faster_at_the_limit_changes_nothing_and_never_slows(session: Session) -> None:
    high = TEMPO_LIMITS[1]
    at_limit = await modify(_at(session.pipeline, high), "faster", clock=fixed_clock)
    above = await modify(_at(session.pipeline, high + 20), "a bit faster", clock=fixed_clock)

    assert at_limit.status == "no_change" and at_limit.song_state.tempo == high
    assert above.song_state.tempo == high + 20


async def test_slower_never_makes_a_slow_song_faster(session: Session) -> None:
    low = TEMPO_LIMITS[0]
    result = await modify(_at(session.pipeline, low - 5), "slower", clock=fixed_clock)

    assert result.song_state.tempo == low - 5
