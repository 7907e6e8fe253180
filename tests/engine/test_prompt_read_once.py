"""S1 reads the prompt once: later stages and regeneration read the intent, never the text."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from muse_tui.compose.intent import decompose
from muse_tui.contracts import ComposerPipeline, PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import assembly_stage, product_stages, sounds_stage
from muse_tui.engine.stages import StageContext

EXPRESSIVE = (Path(__file__).parents[1] / "data" / "structured" / "expressive.txt").read_text()


@pytest.fixture(scope="module")
def expressive(tmp_path_factory: pytest.TempPathFactory) -> ComposerPipeline:
    engine = Orchestrator(product_stages(), tmp_path_factory.mktemp("sessions"))
    config = PipelineConfig(approval_gates=[])
    done = run_blocking(engine.run(EXPRESSIVE, seed=3, config=config))
    assert done.status == "completed", done.status
    return done


def test_a_structured_prompt_says_its_title_effects_and_expression_to_the_intent() -> None:
    intent = decompose(EXPRESSIVE).intent
    assert intent.song_title == "A late-night groove with Rhodes chords and a singing lead."
    assert intent.effect_requests == {"keys": ["chorus"], "lead": ["delay"]}
    kinds = {(r.kind, r.role) for r in intent.expression_requests}
    assert {("sustain", "keys"), ("vibrato", "lead"), ("pressure", "pad")} <= kinds
    assert ("cc_curve", "pad") in kinds


def test_a_plain_prompt_keeps_its_json_as_it_was() -> None:
    intent = decompose("lofi hip hop with rhodes and vinyl crackle").intent
    keys = set(intent.model_dump(by_alias=True, exclude_unset=False, mode="json"))
    assert {"title", "effectRequests", "expressionRequests"}.isdisjoint(keys)
    assert intent.song_title == "lofi hip hop with rhodes and vinyl crackle"
    asked = decompose("lofi hip hop, filter sweep on the pad over the build").intent
    assert [(r.kind, r.role, r.section) for r in asked.expression_requests] == [
        ("cc_curve", "pad", "build")
    ]


def _later_stage(pipeline: ComposerPipeline, stage: int, prompt: str) -> StageContext:
    """A stage run on the finished session, its prompt text swapped for another."""
    return StageContext(
        stage=stage,
        seed=pipeline.song_state.seed,
        variant=0,
        attempt=1,
        config=pipeline.config,
        pipeline=pipeline.model_copy(update={"raw_prompt": prompt}),
        session_dir=Path("."),
        clock=lambda: datetime(2026, 11, 28, tzinfo=UTC),
    )


def test_sounds_follow_the_intent_whatever_the_prompt_text_now_says(
    expressive: ComposerPipeline,
) -> None:
    song = expressive.song_state
    as_composed = sounds_stage(song, _later_stage(expressive, 5, expressive.raw_prompt))
    other_text = sounds_stage(song, _later_stage(expressive, 5, "dark trap"))
    assert other_text.output.effect_chains == as_composed.output.effect_chains  # type: ignore[union-attr]
    lead = next(t for t in song.tracks if t.role == "lead")
    chain = next(c for c in as_composed.output.effect_chains if c.target_id == lead.id)
    assert "delay" in [e.kind for e in chain.effects], "the Effects: block's delay on the lead"


def test_assembly_plans_the_expression_the_intent_holds(
    expressive: ComposerPipeline, tmp_path: Path
) -> None:
    unplanned = expressive.song_state.model_copy(update={"expression": None})
    ctx = _later_stage(expressive, 6, "dark trap")
    ctx.session_dir = tmp_path
    assembled = assembly_stage(unplanned, ctx)
    planned = {(r.kind, r.role) for r in assembled.song.expression or []}
    assert {("vibrato", "lead"), ("pressure", "pad"), ("cc_curve", "pad")} <= planned
