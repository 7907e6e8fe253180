"""The pipeline engine against fake stages: the ten cases of the spec and the event rules."""

from __future__ import annotations

import asyncio
import errno
import json
import time
from pathlib import Path

import pytest

from muse_tui.contracts import Ambiguity, PipelineConfig
from muse_tui.engine.protocols import ApprovalRequest
from muse_tui.store.atomic import WriteFailed
from muse_tui.store.checkpoint import CheckpointError, load_checkpoint, pipeline_path
from muse_tui.store.manifest import read_manifest
from tests.engine.fakes import Knobs, orchestrator

SESSION = "session-20261122-abc123"
PIPELINE = "00000000-0000-4000-8000-000000000001"


def no_gates(**overrides: object) -> PipelineConfig:
    return PipelineConfig(approval_gates=[], **overrides)  # type: ignore[arg-type]


def assert_well_ordered(kinds: list[str]) -> None:
    assert kinds[0] == "pipeline_started"
    assert kinds[-1] == "pipeline_finished"
    assert kinds.count("pipeline_started") == kinds.count("pipeline_finished") == 1


async def test_1_happy_path_completes_every_stage_and_writes_outputs(tmp_path: Path) -> None:
    engine, sink = orchestrator(tmp_path)
    p = await engine.run("dark trap", seed=1, config=no_gates(), session_id=SESSION)

    assert p.status == "completed"
    assert [p.stages[s].status for s in range(1, 9)] == ["completed"] * 8
    assert p.current_stage == 9
    assert len(p.song_state.tracks) == 4
    session = tmp_path / SESSION
    for rel in (
        "manifest.json",
        "state/song-state.json",
        "state/pipeline-state.json",
        "progression/main.progression",
        "midi/full-arrangement.mid",
    ):
        assert (session / rel).stat().st_size > 0, rel
    assert len(list((session / "midi").glob("*.mid"))) == 5
    assert_well_ordered(sink.kinds())
    completed = [e for e in sink.events if e.kind == "stage_completed"]
    assert completed[1].line.startswith("✓ Stage 2/8: 4-chord progression in C minor (Cm → ")


async def test_2_parts_run_concurrently_and_bass_hears_the_drums_of_its_section(
    tmp_path: Path,
) -> None:
    knobs = Knobs(part_seconds=0.2)
    engine, _ = orchestrator(tmp_path, knobs)
    p = await engine.run("x", seed=1, config=no_gates())

    assert p.status == "completed"
    assert p.stages[4].duration_ms is not None
    # Overlap, not queue: every part began before any part finished. (A wall-clock
    # bound measured the machine's load instead: 571 ms on a busy CI machine.)
    spans = knobs.part_spans
    assert set(spans) == {"drums", "bass", "chords", "lead"}
    latest_start = max(first for first, _ in spans.values())
    earliest_end = min(last for _, last in spans.values())
    assert latest_start < earliest_end, "four 200 ms parts must overlap, not queue"
    assert p.stages[4].duration_ms < 800, "queued one after another, they take 800 ms at least"
    # every bass section saw the finished drum region of the same section: 8 kicks in 4 bars
    assert knobs.observed_kicks == {"Intro": 8, "Verse": 8, "Chorus": 8, "Outro": 8}


async def test_sequential_parts_when_parallel_generation_is_off(tmp_path: Path) -> None:
    knobs = Knobs(part_seconds=0.05)
    engine, _ = orchestrator(tmp_path, knobs)
    p = await engine.run("x", seed=1, config=no_gates(parallel_midi_generation=False))
    assert p.status == "completed"
    assert p.stages[4].duration_ms is not None and p.stages[4].duration_ms >= 200
    assert knobs.observed_kicks["Chorus"] == 8


async def test_a_failed_drum_part_releases_the_bass_instead_of_deadlocking(tmp_path: Path) -> None:
    knobs = Knobs(drums_fail=1)
    engine, _ = orchestrator(tmp_path, knobs)
    p = await asyncio.wait_for(engine.run("x", seed=1, config=no_gates()), timeout=10)

    assert p.status == "completed"
    assert p.stages[4].retry_count == 1
    assert "drums: drum machine jammed" in p.stages[4].attempt_errors[0].message


async def test_3_a_first_failure_of_harmony_is_retried(tmp_path: Path) -> None:
    engine, sink = orchestrator(tmp_path, Knobs(fail_first={2: 1}))
    p = await engine.run("x", seed=1, config=no_gates())

    assert p.status == "completed"
    assert p.stages[2].retry_count == 1
    assert p.recovery.total_retries == 1
    assert "injected failure 1" in p.stages[2].attempt_errors[0].message
    assert "stage_retrying" in sink.kinds()


async def test_4_persistent_harmony_failure_fails_the_run_with_every_cause(tmp_path: Path) -> None:
    engine, sink = orchestrator(tmp_path, Knobs(fail_first={2: 99}))
    p = await engine.run("x", seed=1, config=no_gates())

    assert p.status == "failed"
    assert p.recovery.last_successful_stage == 1
    error = p.stages[2].error
    assert error is not None
    for n in (1, 2, 3):
        assert f"injected failure {n} in stage 2" in error.message
    assert 3 not in p.stages, "nothing runs after a critical failure"
    assert_well_ordered(sink.kinds())
    assert sink.events[-1].status == "failed"  # type: ignore[union-attr]
    finished = sink.events[-1]
    assert finished.error == error  # type: ignore[union-attr]
    assert "injected failure 3 in stage 2" in finished.message  # type: ignore[union-attr]


async def test_a_stage_whose_file_is_refused_fails_once_with_what_to_do(tmp_path: Path) -> None:
    # Retrying into a full disk at once only fails again; the producer needs the reason.
    engine, sink = orchestrator(tmp_path)
    calls: list[int] = []

    def harmony(song: object, ctx: object) -> object:
        calls.append(1)
        raise WriteFailed(errno.ENOSPC, "could not write chords.mid: No space left on device")

    engine.stages[2] = harmony
    p = await engine.run("x", seed=1, config=no_gates())

    assert p.status == "failed"
    assert calls == [1]
    error = p.stages[2].error
    assert error is not None
    assert error.code == "FILE_WRITE_FAILED"
    assert error.sentence == (
        "could not write chords.mid: No space left on device; "
        "free some space, then resume it with `muse-studio resume SESSION`."
    )
    assert sink.events[-1].error == error  # type: ignore[union-attr]


class Gate:
    """Answers gates from a script and remembers what it was shown."""

    def __init__(self, *decisions: str, answer: str | None = "neo_soul") -> None:
        self.decisions = list(decisions)
        self.seen: list[ApprovalRequest] = []
        self.questions: list[Ambiguity] = []
        self.answer = answer
        self.opened = asyncio.Event()
        self.release = asyncio.Event()

    async def review(self, request: ApprovalRequest) -> str:
        self.seen.append(request)
        self.opened.set()
        await self.release.wait()
        return self.decisions.pop(0)

    async def ask(self, question: Ambiguity) -> str | None:
        self.questions.append(question)
        return self.answer


async def test_6_the_gate_pauses_after_harmony_and_regenerate_changes_the_progression(
    tmp_path: Path,
) -> None:
    gate = Gate("regenerate", "approve")
    engine, sink = orchestrator(tmp_path, gate=gate)
    run = asyncio.create_task(engine.run("x", seed=3, config=PipelineConfig(approval_gates=[2])))

    await asyncio.wait_for(gate.opened.wait(), 5)
    await asyncio.sleep(0.05)
    assert not run.done()
    assert 3 not in engine_stages(sink), "S3 must wait for the producer"
    gate.release.set()
    p = await asyncio.wait_for(run, 5)

    assert p.status == "completed"
    first, second = (r.output.progression for r in gate.seen)  # type: ignore[union-attr]
    assert [c.symbol for c in first.chords] != [c.symbol for c in second.chords]
    assert p.song_state.progression == second
    assert sink.kinds().count("approval_requested") == 2


def engine_stages(sink: object) -> set[int]:
    return {e.stage for e in sink.events if e.kind == "stage_started"}  # type: ignore[attr-defined]


async def test_cancel_at_the_gate_cancels_the_run(tmp_path: Path) -> None:
    gate = Gate("cancel")
    gate.release.set()
    engine, sink = orchestrator(tmp_path, gate=gate)
    p = await engine.run("x", seed=3, config=PipelineConfig(approval_gates=[2]))

    assert p.status == "cancelled"
    assert_well_ordered(sink.kinds())
    assert not (tmp_path / p.session_id / "midi").exists()
    assert not list((tmp_path / p.session_id).rglob("*.tmp"))


async def test_a_blocking_question_is_asked_and_its_answer_used(tmp_path: Path) -> None:
    gate = Gate(answer="lo_fi")
    engine, _ = orchestrator(tmp_path, gate=gate)
    p = await engine.run("something warm", seed=1, config=no_gates())
    assert [q.field for q in gate.questions] == ["genre"]
    assert p.intent is not None and p.intent.genre == ["lo_fi"]
    assert p.status == "completed"


async def test_no_answer_to_a_blocking_question_cancels(tmp_path: Path) -> None:
    engine, sink = orchestrator(tmp_path, gate=Gate(answer=None))
    p = await engine.run("something warm", seed=1, config=no_gates())
    assert p.status == "cancelled"
    assert_well_ordered(sink.kinds())


async def test_7_skipped_stages_are_marked_and_not_run(tmp_path: Path) -> None:
    knobs = Knobs()
    engine, sink = orchestrator(tmp_path, knobs)
    p = await engine.run("x", seed=1, config=no_gates(skip_stages=[7, 8]))

    assert p.status == "completed"
    assert p.stages[7].status == p.stages[8].status == "skipped"
    assert 7 not in knobs.calls and 8 not in knobs.calls
    assert sink.kinds().count("stage_skipped") == 2


async def test_8_a_stage_timeout_is_retried_then_fails_with_timeout(tmp_path: Path) -> None:
    engine, sink = orchestrator(tmp_path, Knobs(stall={2: 0.3}))
    p = await engine.run("x", seed=1, config=no_gates(stage_timeout_ms=100))

    assert p.status == "failed"
    record = p.stages[2]
    assert [e.code for e in record.attempt_errors] == ["TIMEOUT"] * 3
    assert record.error is not None and record.error.code == "TIMEOUT"
    assert record.retry_count == 2
    assert_well_ordered(sink.kinds())


async def test_the_whole_run_timeout_ends_the_run(tmp_path: Path) -> None:
    engine, sink = orchestrator(tmp_path, Knobs(stall={3: 0.5}))
    p = await engine.run("x", seed=1, config=no_gates(pipeline_timeout_ms=200))
    assert p.status == "failed"
    finished = sink.events[-1]
    assert finished.kind == "pipeline_finished"
    assert finished.error is not None and finished.error.code == "TIMEOUT"  # type: ignore[union-attr]


async def test_9_the_manifest_has_eight_timings_that_sum_within_the_total(tmp_path: Path) -> None:
    engine, _ = orchestrator(tmp_path)
    p = await engine.run("x", seed=1, config=no_gates(), session_id=SESSION)
    manifest = read_manifest(tmp_path / SESSION)

    assert [t.stage for t in manifest.stage_timings] == list(range(1, 9))
    assert p.total_duration_ms is not None
    assert sum(t.duration_ms for t in manifest.stage_timings) <= p.total_duration_ms
    assert all(t.duration_ms < p.config.stage_timeout_ms for t in manifest.stage_timings)
    assert manifest.status == "completed"


async def test_10_no_midi_port_completes_partially_with_a_hint(tmp_path: Path) -> None:
    engine, sink = orchestrator(tmp_path)
    p = await engine.run("x", seed=1, config=no_gates(enable_playback=True))

    assert p.status == "completed_partial"
    assert [p.stages[s].status for s in range(1, 8)] == ["completed"] * 7
    error = p.stages[8].error
    assert error is not None and error.code == "MIDI_PORT_UNAVAILABLE"
    assert error.recovery_hint and "loopMIDI" in error.recovery_hint
    assert "loopMIDI" in sink.events[-1].message  # type: ignore[union-attr]


async def test_cancelling_the_task_still_ends_with_pipeline_finished(tmp_path: Path) -> None:
    knobs = Knobs(stall={3: 5})
    engine, sink = orchestrator(tmp_path, knobs)
    run = asyncio.create_task(engine.run("x", seed=1, config=no_gates()))
    while 3 not in engine_stages(sink):
        await asyncio.sleep(0.01)
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    knobs.released.set()  # let the abandoned stage thread end now, not in 5 s
    assert_well_ordered(sink.kinds())
    assert sink.events[-1].status == "cancelled"  # type: ignore[union-attr]


async def test_resume_continues_after_the_last_good_stage(tmp_path: Path) -> None:
    knobs = Knobs(fail_first={4: 99})
    engine, _ = orchestrator(tmp_path, knobs)
    broken = await engine.run("x", seed=5, config=no_gates(), session_id=SESSION)
    assert broken.status == "failed" and broken.recovery.last_successful_stage == 3

    knobs.fail_first = {}
    calls_before = dict(knobs.calls)
    resumed = await engine.resume(tmp_path / SESSION)
    assert resumed.status == "completed"
    assert resumed.recovery.is_resumed
    assert resumed.recovery.previous_pipeline_id == broken.pipeline_id
    for stage in (1, 2, 3):
        assert knobs.calls[stage] == calls_before[stage], f"stage {stage} ran again"


def test_a_corrupt_checkpoint_is_refused_with_a_way_forward(tmp_path: Path) -> None:
    path = tmp_path / "state" / "pipeline-state.json"
    path.parent.mkdir()
    path.write_text('{"pipelineId": ')
    with pytest.raises(CheckpointError, match=r"cannot resume: .* is corrupt .* start fresh with"):
        load_checkpoint(tmp_path)


async def test_a_checkpoint_from_another_schema_version_is_refused(tmp_path: Path) -> None:
    engine, _ = orchestrator(tmp_path)
    await engine.run("x", seed=1, config=no_gates(skip_stages=[4, 5, 6, 7, 8]), session_id=SESSION)
    path = pipeline_path(tmp_path / SESSION)
    state = json.loads(path.read_text())
    state["version"] = "9.0.0"
    path.write_text(json.dumps(state))
    with pytest.raises(CheckpointError, match=r"schema 9\.0\.0"):
        await engine.resume(tmp_path / SESSION)


async def test_a_checkpoint_keeps_the_previous_one_as_backup(tmp_path: Path) -> None:
    engine, _ = orchestrator(tmp_path)
    await engine.run("x", seed=1, config=no_gates(), session_id=SESSION)
    state = tmp_path / SESSION / "state"
    assert (state / "pipeline-state.json.bak").stat().st_size > 0
    assert (state / "song-state.json.bak").stat().st_size > 0


async def test_same_seed_same_song_different_seed_different_song(tmp_path: Path) -> None:
    a, _ = orchestrator(tmp_path / "a")
    b, _ = orchestrator(tmp_path / "b")
    c, _ = orchestrator(tmp_path / "c")
    pa = await a.run("x", seed=11, config=no_gates())
    pb = await b.run("x", seed=11, config=no_gates())
    pc = await c.run("x", seed=12, config=no_gates())
    assert pa.song_state == pb.song_state
    assert pa.song_state != pc.song_state


async def test_progress_events_arrive_inside_their_stage(tmp_path: Path) -> None:
    engine, sink = orchestrator(tmp_path)
    await engine.run("x", seed=1, config=no_gates())
    current = None
    progress = 0
    for event in sink.events:
        if event.kind == "stage_started":
            current = event.stage
        elif event.kind == "stage_progress":
            assert event.stage == current == 4
            progress += 1
    assert progress == 16  # 4 parts × 4 sections


def test_the_run_is_fast_enough_to_feel_instant(tmp_path: Path) -> None:
    engine, _ = orchestrator(tmp_path)
    start = time.perf_counter()
    p = asyncio.run(engine.run("x", seed=1, config=no_gates()))
    assert p.status == "completed"
    assert time.perf_counter() - start < 5  # generous: a behaviour check, not a benchmark


def _picky_validation(rejections: int) -> tuple[object, list[int]]:
    """A validation stage that sends the song back to harmony `rejections` times."""
    from muse_tui.engine.stages import QualityRewind, StageResult

    seen_variants: list[int] = []

    def validation(song: object, ctx: object) -> StageResult:
        variant = song.progression.variant  # type: ignore[attr-defined]
        seen_variants.append(variant)
        if len(seen_variants) <= rejections:
            raise QualityRewind(2, "harmony scored 0.41: the chords leave the key")
        from muse_tui.contracts import QualityScore, ValidationOutput

        score = QualityScore(
            harmony=0.8, rhythm=0.8, arrangement=0.8, vibe=0.8, composite=0.8, passed=True
        )
        return StageResult(ValidationOutput(quality_report=score, passed=True), song, "passed")  # type: ignore[arg-type]

    return validation, seen_variants


async def test_a_failing_quality_gate_regenerates_the_weakest_stage(tmp_path: Path) -> None:
    engine, sink = orchestrator(tmp_path)
    engine.stages[7], variants = _picky_validation(rejections=1)
    p = await engine.run("x", seed=1, config=no_gates(enable_quality_gate=True))

    assert p.status == "completed"
    assert variants == [0, 1], "harmony was regenerated with a new variant before validating again"
    assert p.stages[7].retry_count == 1
    assert p.stages[7].attempt_errors[0].code == "QUALITY_GATE_FAILED"
    assert_well_ordered(sink.kinds())


async def test_a_song_that_never_passes_completes_partially(tmp_path: Path) -> None:
    engine, _ = orchestrator(tmp_path)
    engine.stages[7], variants = _picky_validation(rejections=99)
    p = await engine.run("x", seed=1, config=no_gates(enable_quality_gate=True))

    assert p.status == "completed_partial"
    assert len(variants) == 3
    assert p.stages[7].status == "failed"
    assert p.stages[8].status == "completed"
