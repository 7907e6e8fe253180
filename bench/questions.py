"""Questions (issue 15): how many of forty are answered with the session's own fact.

Composes the two seeded songs of `tests/iteration/question_set.py`, asks every
question (from the session on disk, or with no session for theory), checks the
fact against the session or music21, and checks no file of either session
changed. Prints answered N/40, files changed, and each miss with its answer.

    .venv/bin/python bench/questions.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.iteration.question_set import QUESTIONS, ask, compose_songs, fingerprints


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        songs = compose_songs(Path(scratch))
        before = {name: fingerprints(song.folder) for name, song in songs.items()}
        outcomes = [ask(q, songs) for q in QUESTIONS]
        changed = sum(fingerprints(song.folder) != before[name] for name, song in songs.items())
    right = sum(o.answered for o in outcomes)
    print(f"answered with the right fact  {right}/{len(outcomes)} ({right / len(outcomes):.0%})")
    print(f"sessions with a changed file  {changed}/{len(songs)}")
    for o in outcomes:
        if not o.answered:
            print(f"-- {o.question.song or 'theory'} {o.question.text!r}: {o.why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
