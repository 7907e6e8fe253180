"""Issue 31: thirty questions about a song, each answered with the fact its MIDI files hold.

One test per row of `questions.yaml` (checks in `questions.py`), and one that
asks them all and finds every session folder byte for byte as it was.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from .harness import Song, compose_songs
from .questions import ask, row_id, rows, table

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def songs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Song]:
    return compose_songs(tmp_path_factory.mktemp("questions"), table()["songs"])


def folder_bytes(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_the_table_has_thirty_questions_across_genres() -> None:
    found = rows()
    assert len(found) >= 30 and len({row_id(r) for r in found}) == len(found)
    assert len({r["song"] for r in found}) >= 5


@pytest.mark.parametrize("row", rows(), ids=row_id)
def test_question_is_answered_from_the_song(row: dict[str, Any], songs: dict[str, Song]) -> None:
    outcome = ask(row, songs)
    assert outcome.passed, f"{outcome.why}: {outcome.text!r}"


def test_asking_changes_no_file(songs: dict[str, Song]) -> None:
    before = {name: folder_bytes(song.folder) for name, song in songs.items()}
    for row in rows():
        ask(row, songs)
    assert {name: folder_bytes(song.folder) for name, song in songs.items()} == before
