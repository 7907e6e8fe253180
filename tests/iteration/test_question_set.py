"""Issue 15's question set: forty questions, each answered with its session's fact."""

from __future__ import annotations

import pytest

from muse_tui.compose.answers import answer

from .everyday import Song
from .question_set import QUESTIONS, Question, ask, compose_songs, fingerprints

Songs = dict[str, Song]


@pytest.fixture(scope="module")
def songs(tmp_path_factory: pytest.TempPathFactory) -> Songs:
    return compose_songs(tmp_path_factory.mktemp("question-set"))


def test_the_set_is_forty_questions_of_every_topic() -> None:
    assert len(QUESTIONS) == 40
    topics = {answer(q.text, None, None).topic for q in QUESTIONS if q.song is None}
    assert {"chord_notes", "numerals_in_key", "scale_notes"} <= topics


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: f"{q.song}:{q.text}")
def test_each_question_is_answered_with_the_right_fact(songs: Songs, question: Question) -> None:
    outcome = ask(question, songs)
    assert outcome.answered, outcome.why


def test_asking_all_forty_changes_no_file(songs: Songs) -> None:
    before = {name: fingerprints(song.folder) for name, song in songs.items()}
    for question in QUESTIONS:
        ask(question, songs)
    assert {name: fingerprints(song.folder) for name, song in songs.items()} == before
