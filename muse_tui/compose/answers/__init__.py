"""Answers to a producer's questions, from the session and the theory core. Asking changes nothing.

`answer(line, pipeline, session_dir)` finds the question's topic with the
patterns of `skills/iteration/questions.json` (tried in the order written) and
answers it: theory topics ("notes in Cmaj9", "what is a ii–V in Eb") need no
song; the others read the open session. A question about a song with none open
says how to get one; a question no topic covers says what can be asked.
"""

from __future__ import annotations

import re
from pathlib import Path

from muse_tui.contracts import ComposerPipeline
from muse_tui.knowledge.questions import question_table

from . import song as song_answers
from . import theory
from .shape import Answer

__all__ = ["Answer", "answer", "topic_of"]

WHAT_I_ANSWER = (
    "I can answer questions about this song's key, chords, tempo, sections, tracks, a track's "
    "sound and effects, and loading it into MPC Beats; and theory such as 'notes in Cmaj9' or "
    "'what is a ii-V in Eb'."
)


def topic_of(line: str) -> tuple[str, re.Match[str]] | None:
    """The first topic whose pattern the line matches, with the match."""
    lower = " ".join(line.lower().split())
    for name, topic in question_table().topics.items():
        for pattern in topic.compiled:
            if found := pattern.search(lower):
                return name, found
    return None


def answer(
    line: str, pipeline: ComposerPipeline | None = None, session_dir: Path | None = None
) -> Answer:
    """The answer to `line` about the open session (or theory, which needs none)."""
    said = " ".join(line.split())
    found = topic_of(said)
    if found is None:
        return Answer("unknown", WHAT_I_ANSWER)
    name, match = found
    original = said[match.start() : match.end()]  # the producer's own case: CM7 is not Cm7
    groups = {k: original[v[0] - match.start() : v[1] - match.start()]
              for k in match.groupdict() if (v := match.span(k)) != (-1, -1)}  # fmt: skip
    if name == "chord_notes":
        return theory.chord_notes(groups["chord"])
    if name == "numerals_in_key":
        return theory.numerals_in_key(groups["numerals"], groups["key"])
    if name == "scale_notes":
        return theory.scale_notes(groups["key"])
    if pipeline is None or not pipeline.song_state.tracks:
        about = question_table().topics[name].about.rstrip(".").lower()
        return Answer(
            "no_session",
            f"There is no song open to ask about ({about}). Compose one or open a session; "
            "theory questions such as 'notes in Cmaj9' need no song.",
        )
    if name == "sound":
        return song_answers.sound(pipeline, said)
    if name == "mpc":
        return song_answers.mpc(pipeline, session_dir)
    if name == "tracks":
        return song_answers.tracks(pipeline, said)
    return {
        "key": song_answers.key,
        "chords": song_answers.chords,
        "tempo": song_answers.tempo,
        "sections": song_answers.sections,
    }[name](pipeline)
