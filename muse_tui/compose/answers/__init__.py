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

from . import advice, placed, theory, why
from . import song as song_answers
from .shape import Answer

__all__ = ["Answer", "answer", "topic_of"]

WHAT_I_ANSWER = (
    "I can answer questions about this song's key (and any key change), chords, tempo and "
    "meter, length, sections, what happens in a bar, where a part plays or rests, who has the "
    "melody, the tracks, a track's instrument, sound and effects, why it has its key, tempo, "
    "parts and registers, how to mix and what to sample for it, and loading it into MPC "
    "Beats; and theory such as 'notes in Cmaj9' or 'what is a ii-V in Eb'."
)


def topic_of(line: str) -> tuple[str, re.Match[str]] | None:
    """The first topic whose pattern the line matches, with the match."""
    found = topics_of(line)
    return found[0] if found else None


def topics_of(line: str) -> list[tuple[str, re.Match[str]]]:
    """Every topic whose pattern the line matches, in the table's order, with its match."""
    lower = " ".join(line.lower().split())
    found = []
    for name, topic in question_table().topics.items():
        for pattern in topic.compiled:
            if match := pattern.search(lower):
                found.append((name, match))
                break
    return found


def answer(
    line: str, pipeline: ComposerPipeline | None = None, session_dir: Path | None = None
) -> Answer:
    """The answer to `line` about the open session (or theory, which needs none)."""
    said = " ".join(line.split())
    found = topics_of(said)
    if not found:
        return Answer("unknown", WHAT_I_ANSWER)
    name, match = found[0]
    joined = [n for n, _ in found if n in question_table().joined]
    if name in joined and len(joined) > 1 and pipeline is not None and pipeline.song_state.tracks:
        answers = [_song_answer(n, pipeline, session_dir, said, match) for n in joined]
        return Answer(
            "+".join(joined),
            " ".join(a.text for a in answers),
            {k: v for a in answers for k, v in a.facts.items()},
        )
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
    return _song_answer(name, pipeline, session_dir, said, match)


def _song_answer(
    name: str, pipeline: ComposerPipeline, session_dir: Path | None, said: str, match: re.Match[str]
) -> Answer:
    if name == "mpc":
        return song_answers.mpc(pipeline, session_dir)
    if name == "at_bar":
        return placed.at_bar(pipeline, int(match.group("bar")))
    by_line = {
        "sound": song_answers.sound,
        "tracks": song_answers.tracks,
        "when": placed.when,
        "melody": placed.melody,
        "length": placed.length,
        "instrument": placed.instrument,
        "count": placed.count,
        "why": why.why,
        "mix_advice": advice.mix,
        "sample_advice": advice.sample,
    }
    if name in by_line:
        return by_line[name](pipeline, said)
    return {
        "key": song_answers.key,
        "chords": song_answers.chords,
        "tempo": song_answers.tempo,
        "sections": song_answers.sections,
        "key_change": placed.key_change,
    }[name](pipeline)
