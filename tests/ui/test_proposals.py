"""A change proposed in the studio: "current | proposal" where the roll was, heard on the next
bar by 1 and 2, accepted with enter or discarded with d; nothing moves on disk until accepted,
and a pending proposal is shown again when the session is opened after a restart.

The real pipeline composes a 16-bar song; the MIDI player is a fake that records calls.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from muse_tui.engine.registry import product_stages
from muse_tui.store.checkpoint import load_checkpoint
from muse_tui.tui.widgets.compare import ProposalView
from muse_tui.tui.widgets.prompt import PromptInput
from tests.ui.harness import SESSION_IDS, Players, make_studio, until
from tests.ui.test_editing import PROMPT, say, settle

pytestmark = pytest.mark.slow  # each composes a song with the real stages

SETTINGS = "approval_gates = []\ndefault_bars = 16\n"


def song_files(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha1(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.relative_to(folder).parts[0] != "proposal"
        and p.name != ".muse-lock"
    }  # fmt: skip


def studio(tmp_path: Path, players: Players | None = None) -> Any:
    return make_studio(tmp_path, registry=product_stages, settings=SETTINGS, players=players)


def set_alternatives(players: Players) -> list[tuple[Any, ...]]:
    return [c for c in players.last.calls if c[0] == "set_alternative"]


async def test_a_bigger_change_is_proposed_heard_and_accepted(tmp_path: Path) -> None:
    players = Players()
    app = studio(tmp_path, players)
    async with app.run_test(size=(140, 44)) as pilot:
        await say(pilot, PROMPT)
        folder = app.sessions_root() / SESSION_IDS[0]
        before, song = song_files(folder), app.studio.song

        await say(pilot, "Bass too busy, simplify")

        view = app.studio.query_one(ProposalView)
        assert "current | proposal" in str(view.query_one("#proposal-title").render())
        assert song_files(folder) == before  # nothing on disk but the proposal
        assert (folder / "proposal/proposal.json").is_file()
        assert app.studio.song is song and app.studio.pipeline.song_state.history == []
        assert isinstance(app.focused, PromptInput)  # what is typed next is for the prompt

        await pilot.press("escape")  # out of the prompt: to the proposal
        assert app.focused is view
        await pilot.press("2")
        bass = song.track("bass")
        assert set_alternatives(players)[-1][1] == bass.id  # the proposed bass, from the next bar
        assert players.last.status == "playing"
        await pilot.press("1")
        assert set_alternatives(players)[-1] == ("set_alternative", bass.id, None)

        await pilot.press("enter")
        await settle(pilot)
        assert not app.studio.query(ProposalView)
        assert not (folder / "proposal").exists()
        entry = app.studio.pipeline.song_state.history[-1]
        assert entry.user_text == "Bass too busy, simplify"
        assert load_checkpoint(folder).song_state.history[-1].id == entry.id
        assert app.studio.song.track("bass") != bass
        moved = {k for k, v in song_files(folder).items() if before.get(k) != v}
        assert {"midi/bass.mid", "state/pipeline-state.json"} <= moved


async def test_discard_leaves_the_song_and_a_restart_shows_a_pending_proposal(
    tmp_path: Path,
) -> None:
    app = studio(tmp_path)
    async with app.run_test(size=(140, 44)) as pilot:
        await say(pilot, PROMPT)
        folder = app.sessions_root() / SESSION_IDS[0]
        before = song_files(folder)
        await say(pilot, "what would it sound like in D minor?")
        assert app.studio.query_one(ProposalView).request == "what would it sound like in D minor?"
        assert app.studio.song.key == "Eb"
        await pilot.press("escape", "d")
        await settle(pilot)
        assert not app.studio.query(ProposalView) and not (folder / "proposal").exists()
        assert song_files(folder) == before

        await say(pilot, "what would it sound like in D minor?")  # pending when the studio quits

    again = studio(tmp_path)
    async with again.run_test(size=(140, 44)) as pilot:
        again.studio.open_session(folder)
        await settle(pilot)
        await until(pilot, lambda: again.studio.query(ProposalView))
        view = again.studio.query_one(ProposalView)
        assert view.request == "what would it sound like in D minor?"
        view.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert again.studio.song.key == "D"
        assert load_checkpoint(folder).song_state.key == "D"


async def test_asking_to_hear_a_small_change_proposes_it(tmp_path: Path) -> None:
    """Asked to hear a cheap change ("… a louder bass"), the studio proposes it all the same."""
    app = studio(tmp_path)
    async with app.run_test(size=(140, 44)) as pilot:
        await say(pilot, PROMPT)
        folder = app.sessions_root() / SESSION_IDS[0]
        before = song_files(folder)
        await say(pilot, "let me hear it with a louder bass")
        assert app.studio.query_one(ProposalView).request == "let me hear it with a louder bass"
        assert song_files(folder) == before
        assert app.studio.pipeline.song_state.history == []


async def test_enter_in_the_empty_prompt_accepts_the_proposal_shown(tmp_path: Path) -> None:
    """Before, the proposal said "enter accept" but the prompt had the focus after proposing:
    enter there said "Type what you want first." and the proposal stayed pending."""
    app = studio(tmp_path)
    async with app.run_test(size=(140, 44)) as pilot:
        await say(pilot, PROMPT)
        folder = app.sessions_root() / SESSION_IDS[0]
        await say(pilot, "what would it sound like in D minor?")
        prompt = app.studio.query_one(PromptInput)
        assert app.focused is prompt and prompt.text == ""
        assert app.screen.active_bindings["enter"].binding.id == "studio.accept_proposal"
        await pilot.press("x")  # a line begun: enter sends it, as the footer then says
        assert app.screen.active_bindings["enter"].binding.id == "prompt.submit"
        await pilot.press("backspace", "enter")
        await settle(pilot)
        assert not app.studio.query(ProposalView) and not (folder / "proposal").exists()
        assert app.studio.song.key == "D" and load_checkpoint(folder).song_state.key == "D"
        assert app.focused is prompt and prompt.text == ""
        # Nothing is pending now: enter in the empty prompt is the prompt's again.
        assert app.screen.active_bindings["enter"].binding.id == "prompt.submit"
