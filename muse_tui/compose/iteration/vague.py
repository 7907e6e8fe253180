"""A wish with no direction ("make it better", "I don't like it") becomes a question, not a change.

The critics say which axis of the song is weakest; `skills/iteration/questions.json`
(`vague`) lists concrete requests for each axis. The first three this song can
take (each is tried on a copy, nothing is kept) are offered; nothing changes
until the producer picks one.
"""

from __future__ import annotations

from dataclasses import dataclass

from muse_tui.compose.critics import score_song
from muse_tui.compose.requests import parse_request
from muse_tui.contracts import PipelineIntent, SongState
from muse_tui.knowledge.questions import question_table

from .apply import apply_edit
from .revision import EditError, Revision

OFFERED = 3
LETTERS = "ABC"


@dataclass(frozen=True)
class VagueAnswer:
    """The question asked back: the weakest axis, its score, and the requests offered."""

    axis: str
    score: float
    weakness: str
    question: str
    options: tuple[str, ...]

    @property
    def sentence(self) -> str:
        """What the studio and the CLI print: the question, why, and the options lettered."""
        offered = "; ".join(f"{LETTERS[i]}) “{o}”" for i, o in enumerate(self.options))
        return (
            f"{self.question} {self.weakness[0].upper()}{self.weakness[1:]} "
            f"({self.axis} {self.score:.2f}). Try {offered}. Nothing changed."
        )


def vague_answer(song: SongState, intent: PipelineIntent) -> VagueAnswer:
    """Three concrete requests aimed at the song's weakest critic axis (ties: the order written)."""
    table = question_table().vague
    score = score_song(song, intent)
    axis = min(table.axes, key=lambda a: getattr(score, a))
    wanted = table.axes[axis]
    fitting = [o for o in wanted.options if fits(song, intent, o)]
    return VagueAnswer(
        axis=axis,
        score=getattr(score, axis),
        weakness=wanted.weakness,
        question=table.question,
        options=tuple(fitting[:OFFERED]),
    )


def fits(song: SongState, intent: PipelineIntent, request: str) -> bool:
    """Whether a request reads as a change this song can take (tried on a copy)."""
    read = parse_request(request)
    if read.kind != "change":
        return False
    revision = Revision(song=song, intent=intent)
    try:
        for edit in read.edits:
            revision = apply_edit(revision, edit)
    except EditError:
        return False
    return True
