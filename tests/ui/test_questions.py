"""Questions in the studio are answered in the notes log and never change the song."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.message import Message

from muse_tui.store.checkpoint import load_checkpoint
from tests.ui.test_editing import composed, digests, errors, logged, say, studio


async def test_with_no_song_open_a_question_is_answered_not_composed(tmp_path: Path) -> None:
    app = studio(tmp_path)
    async with app.run_test(size=(140, 44)) as pilot:
        await say(pilot, "what notes are in Cmaj9?")
        assert "Cmaj9: C E G B D" in logged(app)
        assert not app.sessions_root().exists() or not any(app.sessions_root().iterdir())
        assert app.studio.session is None


@pytest.mark.slow
async def test_a_question_about_the_song_is_answered_and_changes_nothing(tmp_path: Path) -> None:
    app = studio(tmp_path)
    messages: list[Message] = []
    async with app.run_test(size=(140, 44), message_hook=messages.append) as pilot:
        folder = await composed(pilot)
        before, song = digests(folder), app.studio.song

        await say(pilot, "why did you pick Eb minor?")
        await say(pilot, "what preset should I use for the bass?")

        text = logged(app)
        assert "It is in Eb minor: you asked for Eb minor." in text  # from the decision record
        assert "Bass" in text and "Why:" in text
        assert digests(folder) == before and app.studio.song == song
        assert load_checkpoint(folder).song_state.history == []
        assert errors(messages) == []
