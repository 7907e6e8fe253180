"""The studio keyboard (issue 15): keys do what the screen says, and only that.

Each test was written against the old behaviour first and failed there (see
the report of branch `propose`): a muted soloed track showed only "S" and
the transport did not say why nothing sounded; a gate answered keys typed
before it was shown; a pick from the comparison left the focus outside the prompt.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import _time, events

from muse_tui.contracts import Ambiguity
from muse_tui.engine.registry import product_stages
from muse_tui.tui.screens.ambiguity import AmbiguityModal
from muse_tui.tui.screens.approval import ApprovalModal
from muse_tui.tui.widgets.arrangement import ArrangementView
from muse_tui.tui.widgets.compare import CompareView
from muse_tui.tui.widgets.prompt import PromptInput
from muse_tui.tui.widgets.transport import TransportBar
from tests.ui.harness import Players, make_studio, until
from tests.ui.test_audition import load_song
from tests.ui.test_compose import NO_GATES, type_prompt
from tests.ui.test_editing import PROMPT, settle


def typed_at(moment: float, character: str) -> events.Key:
    """A key the producer pressed at `moment` (before a dialog showed; it was queued meanwhile)."""
    key = events.Key(character, character)
    key.time = moment
    return key


async def test_mute_and_solo_both_show_and_a_silent_solo_is_said(tmp_path: Path) -> None:
    players = Players()
    app = make_studio(tmp_path, players=players)
    async with app.run_test(size=(120, 40)) as pilot:
        await load_song(pilot)
        song = app.studio.song
        bass = song.tracks[1]
        view, transport = app.studio.query_one(ArrangementView), app.studio.query_one(TransportBar)
        await pilot.press("space", "down", "s")
        assert view.marks[bass.id] == "S" and "silent" not in str(transport.render())

        await pilot.press("m")  # the soloed track muted: the player is silent
        assert view.marks[bass.id] == "MS"  # both states, in the bass's lane
        assert "silent: the soloed track is muted" in str(transport.render())

        await pilot.press("s")  # unsolo: the mute stays visible, the song sounds again
        assert view.marks[bass.id] == "M" and "silent" not in str(transport.render())
        await pilot.press("t")  # the bass alone, but it is muted
        assert view.marks[bass.id] == "M▶"
        assert "silent: the track alone is muted" in str(transport.render())


async def test_a_gate_ignores_keys_typed_before_it_was_shown(tmp_path: Path) -> None:
    app = make_studio(tmp_path)  # the harmony gate is on
    async with app.run_test(size=(120, 40)) as pilot:
        typing = _time.get_time()  # the producer types on; the gate is not shown yet
        await type_prompt(pilot, "dark trap")
        await until(pilot, lambda: isinstance(app.screen, ApprovalModal))
        gate = app.screen
        for character in "very dark, ya":  # still typing when the gate opened: y, r, a, escape…
            app.post_message(typed_at(typing, character))
        app.post_message(typed_at(typing, "escape"))
        await pilot.pause()
        assert app.screen is gate  # neither approved, regenerated, auditioned nor cancelled
        assert app.studio.running

        await pilot.press("y")  # seen, then answered
        await until(pilot, lambda: app.screen is app.studio)
        await app.workers.wait_for_complete()


async def test_a_question_ignores_keys_typed_before_it_was_shown(tmp_path: Path) -> None:
    app = make_studio(tmp_path, settings=NO_GATES)
    answers: list[str | None] = []
    async with app.run_test(size=(120, 40)) as pilot:
        question = Ambiguity(
            field="key",
            reason="Which key?",
            options=["C_minor", "A_minor"],
            default_value="C_minor",
            severity="blocking",
        )
        modal = AmbiguityModal(question)
        typing = _time.get_time()  # typed as the question opened
        await app.push_screen(modal, answers.append)
        await pilot.pause()
        for character in ("2", "enter", "escape"):
            app.post_message(typed_at(typing, character))
        await pilot.pause()
        assert app.screen is modal and answers == []

        await pilot.press("2")
        await pilot.pause()
        assert answers == ["A_minor"]


async def test_in_the_prompt_no_studio_key_fires(tmp_path: Path) -> None:
    players = Players()
    app = make_studio(tmp_path, players=players)
    async with app.run_test(size=(120, 40)) as pilot:
        await load_song(pilot)
        await pilot.press("space")  # playing, from outside the prompt
        calls = len(players.last.calls)
        prompt = app.studio.query_one(PromptInput)
        prompt.focus()
        typed = "mas tlp?10dn"
        await pilot.press(*typed)
        assert prompt.text == "mas tlp?10dn"
        assert players.last.calls[calls:] == []  # no mute, solo, alone, loop, stop
        assert app.screen is app.studio  # "?" typed, not the help screen
        assert app.studio.query_one(TransportBar).state.playing


@pytest.mark.slow
async def test_after_a_pick_what_is_typed_goes_to_the_prompt(tmp_path: Path) -> None:
    settings = "approval_gates = []\ndefault_bars = 16\n"
    app = make_studio(tmp_path, registry=product_stages, settings=settings)
    async with app.run_test(size=(140, 44)) as pilot:
        await type_prompt(pilot, PROMPT)
        await settle(pilot)
        await pilot.press("escape", "a")  # out of the prompt; alternatives for the first track
        await settle(pilot)
        assert app.studio.query_one(CompareView).has_focus
        await pilot.press("right", "enter")  # use option B
        await settle(pilot)
        assert app.studio.pipeline.song_state.history[-1].agent == "alternatives"
        assert isinstance(app.focused, PromptInput)
        await pilot.press(*"more swing")
        assert app.studio.query_one(PromptInput).text == "more swing"


def _typed_at_once(app, *keys: str) -> None:
    """Keys that reach the app together, as a fast typist's do: each is read before the one
    before it has been handled (pilot.press waits between keys, which hides the race)."""
    characters = {"slash": "/", "tab": "\t", "escape": "\x1b", "enter": "\r"}
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else characters.get(key)))


async def test_keys_typed_fast_around_a_focus_key_each_do_what_they_would_slowly(
    tmp_path: Path,
) -> None:
    """Before, a key typed right behind tab reached the widget tab was leaving ("ab", tab,
    down, m typed "abm" and muted nothing). Priority focus bindings would have reversed the
    race: the keys before them then had their bindings looked up at the new focus (x, enter,
    tab submitted nothing; m, / muted nothing; up, escape moved the arrangement)."""
    players = Players()
    app = make_studio(tmp_path, players=players)
    async with app.run_test(size=(120, 40)) as pilot:
        await load_song(pilot)
        prompt = app.studio.query_one(PromptInput)
        view = app.studio.query_one(ArrangementView)
        bass = app.studio.song.tracks[1]
        prompt.focus()
        await pilot.pause()

        _typed_at_once(app, "a", "b", "tab", "down", "m")  # tab to the arrangement, mute the bass
        await pilot.pause()
        assert prompt.text == "ab"
        assert view.has_focus and view.marks.get(bass.id) == "M"

        _typed_at_once(app, "m", "slash", "c", "d")  # unmute, then back to the prompt, typing
        await pilot.pause()
        assert view.marks.get(bass.id, "") == ""
        assert prompt.has_focus and prompt.text == "abcd"

        _typed_at_once(app, "escape", "m")  # out of the prompt: m mutes
        await pilot.pause()
        assert prompt.text == "abcd" and view.marks.get(bass.id) == "M"

        selected = view.track_index  # up before escape walks the prompt, not the lanes
        _typed_at_once(app, "slash", "up", "escape")
        await pilot.pause()
        assert view.has_focus and view.track_index == selected

        _typed_at_once(app, "slash")
        await pilot.pause()
        prompt.load_text("")
        _typed_at_once(app, "x", "enter", "tab")  # enter sends the prompt before tab leaves it
        await pilot.pause()
        assert prompt.prompts[-1] == "x"


async def test_a_paste_behind_tab_waits_with_the_keys_for_the_focus_move(tmp_path: Path) -> None:
    """A paste typed behind / reaches the prompt after the letters before it, not the pane
    / left (review: "c" then a paste of "de" left the prompt holding "c")."""
    app = make_studio(tmp_path, players=Players())
    async with app.run_test(size=(120, 40)) as pilot:
        await load_song(pilot)
        await pilot.pause()
        prompt = app.studio.query_one(PromptInput)
        _typed_at_once(app, "slash", "c")
        app.post_message(events.Paste("de"))
        await pilot.pause()
        assert prompt.has_focus and prompt.text == "cde"


async def test_keys_typed_right_after_enter_do_not_change_the_prompt_sent(tmp_path: Path) -> None:
    """Before, "uk garage … G minor", enter, "abc" typed fast composed "…G minorabc" (read as
    A minor): the letters reached the prompt before enter's binding took its text."""
    app = make_studio(tmp_path, settings=NO_GATES)
    async with app.run_test(size=(120, 40)) as pilot:
        prompt = app.studio.query_one(PromptInput)
        prompt.focus()
        await pilot.pause()
        _typed_at_once(app, *"trap in G minor", "enter", "a", "b", "c")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.studio.pipeline.raw_prompt == "trap in G minor"
        assert prompt.prompts[-1] == "trap in G minor"
        assert prompt.text.endswith("abc")  # typed after enter: still in the prompt, not lost
