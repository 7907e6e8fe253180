"""The producer's say in a run: S1's blocking questions and the approval gates."""

from __future__ import annotations

from dataclasses import dataclass, field

from muse_tui.contracts import ApprovalRequested, ApprovalResolved, ComposerPipeline, StageRecord

from .collector import collector_lifted
from .event_order import OrderedEvents
from .protocols import ApprovalGate, ApprovalRequest
from .stages import StageResult

#: How many times a blocking question may be asked before the run gives up on it.
MAX_QUESTIONS = 3


class RunCancelled(Exception):
    """The producer cancelled at a gate or question."""


@dataclass
class Gates:
    """Asks the producer through the gate and keeps the answers for the stages."""

    gate: ApprovalGate
    pipeline: ComposerPipeline
    events: OrderedEvents
    answers: dict[str, str] = field(default_factory=dict)
    questions_asked: int = 0

    async def answer_questions(self) -> bool:
        """Ask the blocking questions of S1; True when an answer means S1 must run again."""
        intent = self.pipeline.intent
        if intent is None or not intent.blocking_ambiguities:
            return False
        question = intent.blocking_ambiguities[0]
        if self.answers.get(question.field) is not None or self.questions_asked >= MAX_QUESTIONS:
            return False
        self.questions_asked += 1
        self.events.emit(ApprovalRequested(stage=1, summary=question.reason, question=question))
        with collector_lifted():
            answer = await self.gate.ask(question)
        self.events.emit(
            ApprovalResolved(
                stage=1, decision="cancel" if answer is None else "approve", answer=answer
            )
        )
        if answer is None:
            raise RunCancelled
        self.answers[question.field] = answer
        return True

    async def approved(self, record: StageRecord, result: StageResult, variant: int) -> bool:
        """Whether the producer keeps a gated stage's result (always, for an ungated stage)."""
        stage = record.stage
        if stage not in self.pipeline.config.approval_gates:
            return True
        self.pipeline.status = "paused"
        self.events.emit(ApprovalRequested(stage=stage, summary=result.summary))
        request = ApprovalRequest(
            stage=stage,
            name=record.name,
            summary=result.summary,
            output=result.output,
            song=result.song,
            variant=variant,
        )
        with collector_lifted():
            decision = await self.gate.review(request)
        self.events.emit(ApprovalResolved(stage=stage, decision=decision))
        self.pipeline.status = "running"
        if decision == "cancel":
            raise RunCancelled
        return decision == "approve"
