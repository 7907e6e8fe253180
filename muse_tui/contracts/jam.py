"""The jam's contract: the shared musical context, each member's state, directions, rounds.

A jam is a loop the band plays again and again; a *round* is one pass of the
loop. Between rounds the members may change their parts (asked by a direction,
or of their own accord); every change lands on the next loop boundary. A round
is a plain value: the same prompt, seed and directions give the same rounds.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import Contract
from .intent import PipelineIntent
from .meter import Meter
from .song import EnrichedProgression, Region, Track

#: Why a member's part is what it is this round.
MemberChange = Literal["started", "asked", "evolved", "held", "failed", "context"]


class JamContext(Contract):
    """What the whole band shares: key, tempo, feel and the loop's chords."""

    key: str
    mode: str
    tempo: float = Field(gt=0, le=400)
    bars: int = Field(ge=1, le=16)
    beats_per_bar: float = 4.0
    half_time: bool = False
    progression: EnrichedProgression
    #: The loop's meter where the prompt asked for one (None: 4/4; left out of the JSON).
    meter: Meter | None = Field(default=None, exclude_if=lambda v: v is None)

    @property
    def song_time(self) -> dict[str, object]:
        """The SongState fields that put a song of this loop in its meter."""
        if self.meter is None:
            return {}
        return {"time_signature": self.meter.time_signature, "grouping": self.meter.grouping}

    @property
    def loop_beats(self) -> float:
        return self.bars * self.beats_per_bar


class Directive(Contract):
    """One direction read from the producer's line: to whom, what, and the value it carries."""

    text: str
    targets: list[str] = Field(min_length=1)
    action: str
    value: str | None = None
    shared: bool = False


class MemberState(Contract):
    """A band member between rounds: how they play now, and the part they played last."""

    id: str
    name: str
    track: Track
    energy: float = Field(ge=0, le=1)
    variant: int = 0
    octave: int = 0
    locked_to_kick: bool = False
    laid_out: bool = False
    holding: bool = False
    restlessness: float = 0.0
    part: Region | None = None
    change: MemberChange = "started"
    thought: str = ""


class JamRound(Contract):
    """One pass of the loop: the context, every member as they play it, the directions taken."""

    number: int = Field(ge=1)
    context: JamContext
    members: list[MemberState] = Field(min_length=1)
    directives: list[Directive] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    def member(self, member_id: str) -> MemberState | None:
        return next((m for m in self.members if m.id == member_id), None)


class JamSession(Contract):
    """A jam from its prompt: what every round is derived from, and the round now playing."""

    prompt: str
    seed: int = 0
    intent: PipelineIntent
    round: JamRound
