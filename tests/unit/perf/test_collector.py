"""The cyclic garbage collector is paused while a run computes, never at a gate or after."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from muse_tui.contracts import PipelineConfig
from muse_tui.engine.collector import collector_paused
from muse_tui.engine.orchestrator import Orchestrator
from muse_tui.engine.protocols import ApprovalRequest
from muse_tui.engine.registry import product_stages


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_overlapping_pauses_end_with_the_last() -> None:
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: list[bool] = []

    def first() -> None:
        with collector_paused():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    worker = threading.Thread(target=first)
    worker.start()
    assert first_in.wait(5)
    with collector_paused():
        second_in.set()
        assert first_out.wait(5)
        seen.append(gc.isenabled())  # the first pause ended; this one is still open
    worker.join(5)
    assert seen == [False]
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_an_error_in_the_block_still_ends_the_pause() -> None:
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("a stage failed")
    assert gc.isenabled()


class RecordingGate:
    """Approves each gate, noting whether the collector ran while the person decided."""

    def __init__(self) -> None:
        self.collector_at_gate: list[bool] = []

    async def review(self, request: ApprovalRequest) -> str:
        self.collector_at_gate.append(gc.isenabled())
        return "approve"

    async def ask(self, question: object) -> str | None:
        return None


async def test_a_run_pauses_it_in_its_stages_and_lifts_it_at_a_gate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stages = product_stages()
    in_stage: list[bool] = []
    harmony = stages[2]

    def recording_harmony(song: object, ctx: object) -> object:
        in_stage.append(gc.isenabled())
        return harmony(song, ctx)  # type: ignore[arg-type]

    monkeypatch.setitem(stages, 2, recording_harmony)
    gate = RecordingGate()
    engine = Orchestrator(stages, tmp_path, gate=gate)
    pipeline = await engine.run(
        "dark trap, 140, key of Am",
        seed=1,
        config=PipelineConfig(approval_gates=[2]),
        answers={"bars": "8"},
    )
    assert pipeline.status == "completed"
    assert in_stage == [False]
    assert gate.collector_at_gate == [True]
    assert gc.isenabled()
