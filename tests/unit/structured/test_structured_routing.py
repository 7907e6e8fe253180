"""A structured prompt's Mode: decides where it goes; a broken one fails S1 once, by line."""

from __future__ import annotations

from pathlib import Path

from muse_tui.compose.intent import decompose
from muse_tui.compose.intent.structured import merged_effects
from muse_tui.compose.iteration.structure_edits import SectionEdit
from muse_tui.contracts import PipelineConfig
from muse_tui.contracts.song import Effect, EffectChain, Track
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages
from muse_tui.engine.routing import route

EXAMPLES = Path(__file__).parents[2] / "data" / "structured"


def _example(name: str) -> str:
    return (EXAMPLES / f"{name}.txt").read_text()


def test_mode_routes_compose_edit_and_ask() -> None:
    assert route(_example("compose-advanced"), session_open=True).kind == "compose"
    assert route(_example("edit-track"), session_open=True).kind == "modify"
    assert route(_example("edit-track"), session_open=False).kind == "unclear"
    assert route(_example("ask"), session_open=True).kind == "question"
    assert route(_example("ask"), session_open=False).kind == "question"


def test_an_edit_reads_its_request_and_vibes_on_its_target() -> None:
    prompt = "STORI PROMPT\nMode: edit\nTarget: track:Bass\nVibe:\n- darker:2\n- simpler\n"
    edits = route(prompt + "Request:\nLess busy please.\n", session_open=True).request.edits
    assert [(e.operation, e.scope.role) for e in edits] == [("darker", "bass"), ("simpler", "bass")]


def test_an_edit_is_placed_by_its_section_and_position_headers() -> None:
    in_chorus = "STORI PROMPT\nMode: edit\nSection: chorus\nRequest: make the drums busier.\n"
    edits = route(in_chorus, session_open=True).request.edits
    assert [(e.operation, e.scope.role, e.scope.section) for e in edits] == [
        ("busier", "drums", "chorus")
    ]
    after_intro = (
        "STORI PROMPT\nMode: edit\nPosition: after intro\nRequest: insert a 4-bar bridge\n"
    )
    (edit,) = route(after_intro, session_open=True).request.edits
    assert isinstance(edit, SectionEdit) and (edit.action, edit.kind, edit.bars) == (
        "insert",
        "bridge",
        4,
    )
    assert edit.place is not None and (edit.place.relation, edit.place.section) == (
        "after",
        "intro",
    )
    at_bar = "STORI PROMPT\nMode: edit\nPosition: 9\nRequest: add I vi IV to the keys\n"
    (edit,) = route(at_bar, session_open=True).request.edits
    assert edit.place is not None and edit.place.bar == 9


def test_a_plain_sentence_routes_as_before() -> None:
    assert route("dark trap at 140 in Am", session_open=False).kind == "compose"


def test_a_yaml_error_fails_the_intent_stage_once_naming_the_line(tmp_path: Path) -> None:
    broken = "STORI PROMPT\nStyle: trap\nRole:\n  - drums\n - bass\n"
    assert route(broken, session_open=True).kind == "compose"
    engine = Orchestrator(product_stages(), tmp_path)
    pipeline = run_blocking(engine.run(broken, seed=1, config=PipelineConfig(approval_gates=[])))
    assert pipeline.status == "failed"
    record = pipeline.stages[1]
    assert record.error is not None and "line 5" in record.error.message
    assert len(record.attempt_errors) <= 1, "not retried: the same text fails the same way"


def test_effects_blocks_add_the_missing_inserts_and_keep_the_ones_there() -> None:
    lead = Track(id="00000000-0000-4000-8000-000000000001", name="Lead", role="lead", channel=3)
    keys = Track(id="00000000-0000-4000-8000-000000000002", name="Keys", role="keys", channel=2)
    tuned = Effect(kind="chorus", name="Chorus", parameters={"rate_hz": 0.3})
    chains = [EffectChain(id="fx-keys", target_id=keys.id, effects=[tuned])]
    asked = decompose(_example("expressive")).intent.effect_requests  # S1 reads them once
    merged = merged_effects(chains, [lead, keys], asked, bpm=84)
    by_target = {c.target_id: c for c in merged}
    assert [e.kind for e in by_target[lead.id].effects] == ["delay"]
    assert by_target[keys.id].effects == [tuned], "S5's own chorus is kept as it was tuned"
    plain = decompose("dark trap").intent.effect_requests
    assert merged_effects(chains, [lead, keys], plain, bpm=84) == chains
