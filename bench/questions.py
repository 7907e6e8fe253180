"""Questions: how many are answered with the session's own fact, and whether any file changed.

Two sets. Issue 15's forty (`tests/iteration/question_set.py`: two seeded songs,
theory checked with music21) and issue 31's thirty across six genres
(`tests/unit/conversation/questions.yaml`: each fact read back from the MIDI
files: the chord sounding in a bar, the bars a part rests, who plays the melody
in a section, the length in minutes, a key change). Every question is answered
from the session on disk; afterwards no file of any session may have changed.
Prints answered N/M per set, sessions with a changed file, and each miss.

    .venv/bin/python bench/questions.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.iteration.question_set import QUESTIONS, ask, compose_songs, fingerprints
from tests.unit.conversation import harness
from tests.unit.conversation import questions as table


def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        songs = compose_songs(Path(scratch) / "issue15")
        more = harness.compose_songs(Path(scratch) / "issue31", table.table()["songs"])
        every = {f"15:{k}": s for k, s in songs.items()} | {f"31:{k}": s for k, s in more.items()}
        before = {name: fingerprints(song.folder) for name, song in every.items()}
        outcomes = [ask(q, songs) for q in QUESTIONS]
        answered = [table.ask(row, more) for row in table.rows()]
        changed = sum(fingerprints(song.folder) != before[name] for name, song in every.items())
    right = sum(o.answered for o in outcomes)
    print(f"issue 15: the right fact    {right}/{len(outcomes)} ({right / len(outcomes):.0%})")
    ok = sum(o.passed for o in answered)
    print(f"issue 31: the MIDI's fact   {ok}/{len(answered)} ({ok / len(answered):.0%})")
    print(f"sessions with a changed file  {changed}/{len(every)}")
    for o in outcomes:
        if not o.answered:
            print(f"-- {o.question.song or 'theory'} {o.question.text!r}: {o.why}")
    for o in answered:
        if not o.passed:
            print(f"-- {table.row_id(o.row)}: {o.why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
