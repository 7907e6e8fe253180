"""Typing after a song finishes goes to the prompt, and typing ahead never answers a question."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path

from textual import events
from textual.message import Message
from textual.notifications import Notify
from textual.pilot import Pilot

from muse_tui.tui.app import StudioApp
from muse_tui.tui.screens.confirm import TYPE_AHEAD_GRACE_S, ConfirmModal
from muse_tui.tui.typed_runs import Typed
from muse_tui.tui.widgets.prompt import PromptInput
from tests.ui.harness import Players, make_studio
from tests.ui.test_compose import NO_GATES, type_prompt


async def _composed(pilot) -> None:
    await type_prompt(pilot, "dark trap")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@contextlib.asynccontextmanager
async def _after_a_song(
    tmp_path: Path, players: Players
) -> AsyncIterator[tuple[StudioApp, Pilot[None], PromptInput]]:
    """A studio whose song has just been composed, the empty prompt focused."""
    app = make_studio(tmp_path, players=players, settings=NO_GATES)
    async with app.run_test(size=(120, 40)) as pilot:
        await _composed(pilot)
        prompt = app.studio.query_one(PromptInput)
        assert app.focused is prompt and prompt.text == ""
        yield app, pilot, prompt


async def test_after_a_song_finishes_the_words_typed_go_to_the_prompt(tmp_path: Path) -> None:
    players = Players()
    async with _after_a_song(tmp_path, players) as (app, pilot, prompt):
        await pilot.press("space")  # an empty prompt: space plays, nothing is typed
        assert players.last.status == "playing" and prompt.text == ""
        await pilot.press(*"make the bass simpler, less swing")
        assert prompt.text == "make the bass simpler, less swing"
        # m, s, a and space were typed, not taken as mute, solo, alternatives and stop.
        assert not any(c[0] in ("mute", "solo") for c in players.last.calls)
        assert players.last.status == "playing" and app.studio.comparison is None


async def test_keys_typed_before_a_question_shows_go_to_the_prompt_not_the_answer(
    tmp_path: Path,
) -> None:
    app = make_studio(tmp_path, settings=NO_GATES)
    answers: list[bool] = []
    async with app.run_test(size=(120, 40)) as pilot:
        prompt = app.studio.query_one(PromptInput)
        prompt.load_text("more swi")
        prompt.move_cursor(prompt.document.end)
        modal = ConfirmModal(
            "Before changing the song", "Proceed?", prompt.insert, grace=TYPE_AHEAD_GRACE_S
        )
        await app.push_screen(modal, answers.append)
        await pilot.pause()
        for character in "ng":  # still typing "more swing" when the question opened
            key = events.Key(character, character)
            key.time = modal.opened_at  # pressed before the producer could read the question
            app.post_message(key)
        await pilot.pause()
        assert app.screen is modal and answers == []
        assert prompt.text == "more swing"

        key = events.Key("n", "n")
        key.time = modal.opened_at + TYPE_AHEAD_GRACE_S + 0.1  # read, then answered
        app.post_message(key)
        await pilot.pause()
        assert answers == [False] and app.screen is app.studio


async def test_u_undoes_in_the_studio_as_help_says(tmp_path: Path) -> None:
    """Before, help listed u for undo, but u did nothing outside the History pane."""
    messages: list[Message] = []
    app = make_studio(tmp_path, settings=NO_GATES)
    async with app.run_test(size=(120, 40), message_hook=messages.append) as pilot:
        await _composed(pilot)
        prompt = app.studio.query_one(PromptInput)
        await pilot.press("u")  # in the prompt u is typed
        assert prompt.text == "u"
        prompt.clear()
        await pilot.press("escape", "u")  # outside it, u undoes (nothing yet, and it says so)
        await pilot.pause()
        said = [m.notification.message for m in messages if isinstance(m, Notify)]
        assert "There is no change to undo." in said


async def test_slash_in_the_empty_prompt_is_not_typed_but_a_slash_chord_is(tmp_path: Path) -> None:
    """Before, / (help: "Type a new prompt") typed a "/" when the prompt already had the focus,
    as it has after every gate and change."""
    app = make_studio(tmp_path, settings=NO_GATES)
    async with app.run_test(size=(120, 40)) as pilot:
        await _composed(pilot)
        prompt = app.studio.query_one(PromptInput)
        assert app.focused is prompt
        await pilot.press("slash")
        assert prompt.text == "" and app.focused is prompt
        await pilot.press(*"Am/E", "slash")
        assert prompt.text == "Am/E/"  # within a line a slash is a slash


async def test_an_unbracketed_paste_lands_in_the_prompt_as_one_edit(tmp_path: Path) -> None:
    """Before, 10,000 keys queued at once (a paste the terminal did not bracket) were typed
    one by one, each re-wrapping the whole line: minutes of a frozen studio (bench/paste.py)."""
    messages: list[Message] = []
    app = make_studio(tmp_path, settings=NO_GATES)
    async with app.run_test(size=(120, 40), message_hook=messages.append) as pilot:
        prompt = app.studio.query_one(PromptInput)
        prompt.focus()
        await pilot.press("d")  # typed alone: a key
        await pilot.pause()
        messages.clear()
        text = ("ark trap, 140, key of Am, " * 400)[:10_000]
        for character in text:
            app.post_message(events.Key(character if character != " " else "space", character))
        await pilot.pause()
        assert prompt.text == "d" + text
        edits = {id(m) for m in messages if isinstance(m, PromptInput.Changed)}  # as it bubbles
        assert len(edits) == 1  # one edit for the paste, not 10,000


def _paste_keys(app, text: str) -> None:
    """`text` as a terminal without bracketed paste hands it over: one key per character."""
    for character in text:
        app.post_message(events.Key(character if character != " " else "space", character))


async def test_an_unbracketed_paste_into_the_empty_prompt_does_not_start_playback(
    tmp_path: Path,
) -> None:
    """Before, a paste beginning with a space (as a line copied from a chat or a document
    often does) into the empty prompt played the song: its first space went to the play key
    (space in an empty prompt plays) and the rest was typed. Neither the keys of a paste queued
    together nor a run the driver reads at once (`Typed`) is a space pressed by the producer."""
    players = Players()
    async with _after_a_song(tmp_path, players) as (app, pilot, prompt):
        text = ("  dark trap, 140 bpm, key of Am " * 400)[:10_000]
        for paste in (partial(_paste_keys, app), lambda t: app.post_message(Typed(t))):
            paste(text)
            await pilot.pause()
            assert prompt.text == text
            played = [c for player in players.opened for c in player.calls if c[0] == "play"]
            assert not played, "the paste started playback"
            prompt.clear()
            await pilot.pause()


async def test_the_notes_pane_shows_a_long_prompt_shortened(tmp_path: Path) -> None:
    """Before, a pasted 10,000-character prompt was echoed whole in the notes pane."""
    app = make_studio(tmp_path, settings=NO_GATES)
    async with app.run_test(size=(120, 40)) as pilot:
        prompt = app.studio.query_one(PromptInput)
        prompt.focus()
        app.post_message(events.Paste("dark trap, 140, key of Am " + "very " * 2_000))
        await pilot.pause()
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        shown = " ".join(" ".join(strip.text.split()) for strip in app.studio.log_pane.lines)
        assert "dark trap, 140, key of Am" in shown
        assert "(10,025 characters)" in shown  # the prompt sent: stripped
        assert shown.count("very") < 60
