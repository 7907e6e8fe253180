"""The first frame's stand-ins: they draw what the prompt and the notes draw, and lose no key.

Stand-ins draw the prompt and the notes until the first frame is painted; the
real widgets take their places right after (`StudioScreen.mount_prompt_and_notes`).
A producer who starts typing at once must not notice: the picture is the same,
and every key and paste reaches the prompt, in order, doing what it would have.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events

from muse_tui.tui.screens.help import HelpScreen
from muse_tui.tui.widgets.arrangement import ArrangementView
from muse_tui.tui.widgets.prompt import PromptInput
from muse_tui.tui.widgets.stand_ins import NotesStandIn, PromptStandIn
from tests.ui.harness import make_studio, until


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
@pytest.mark.parametrize("theme", ["muse-dark", "muse-light"])
@pytest.mark.parametrize("prompt_focused", [True, False], ids=["in-prompt", "elsewhere"])
async def test_the_stand_ins_draw_what_the_prompt_and_the_notes_draw(
    tmp_path: Path, size: tuple[int, int], theme: str, prompt_focused: bool
) -> None:
    app = make_studio(tmp_path, settings=f'theme = "{theme}"\n')
    async with app.run_test(size=size) as pilot:
        await app.workers.wait_for_complete()  # the prompt and the notes have taken over
        await pilot.pause()
        studio = app.studio
        assert not studio.query("PromptStandIn, NotesStandIn")
        if not prompt_focused:
            studio.query_one(ArrangementView).focus()
            await pilot.pause()
        drawn = app.export_screenshot()

        # The first frame's stand-ins back in the prompt's and the notes' places.
        prompt, log = studio.prompt, studio.log_pane
        prompt_stand_in, notes_stand_in = (
            PromptStandIn(id="prompt-stand-in"),
            NotesStandIn(id="log-stand-in"),
        )
        for stand_in, pane in ((prompt_stand_in, prompt), (notes_stand_in, log)):
            stand_in.border_title = pane.border_title
            await pane.parent.mount(stand_in, before=pane)
        if prompt_focused:
            studio.set_focus(prompt_stand_in)
        prompt.display = log.display = False
        await pilot.pause()
        assert app.focused is (
            prompt_stand_in if prompt_focused else studio.query_one("#arrangement")
        )
        assert app.export_screenshot() == drawn


async def test_keys_pressed_at_once_reach_the_prompt(tmp_path: Path) -> None:
    app = make_studio(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        assert isinstance(app.focused, PromptStandIn)  # typing starts before the prompt is there
        await pilot.press(*"dark trap", "ctrl+n", *"140")
        await app.workers.wait_for_complete()  # the swap, however slow the machine
        prompt = app.studio.prompt
        assert app.focused is prompt and prompt.text == "dark trap\n140"
        assert not app.studio.query(PromptStandIn) and not app.studio.query(NotesStandIn)


@pytest.mark.parametrize("key", ["escape", "tab"])
async def test_leaving_the_prompt_at_once_works_as_before(tmp_path: Path, key: str) -> None:
    app = make_studio(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        assert isinstance(app.focused, PromptStandIn)
        await pilot.press(*"lofi", key)
        await app.workers.wait_for_complete()
        assert isinstance(app.focused, ArrangementView)
        assert app.studio.prompt.text == "lofi"
        await pilot.press("slash")  # back to the prompt, where the text waits
        assert app.focused is app.studio.prompt


def _type(app, *keys: str | events.Paste) -> None:
    """Keys (and pastes) as the terminal's driver hands them to the app: all at once."""
    for key in keys:
        if isinstance(key, events.Paste):
            app.post_message(key)
        else:
            app.post_message(events.Key(key, key if len(key) == 1 else None))


@pytest.mark.parametrize(
    ("keys", "text", "focused"),
    [
        (["d", "a", events.Paste("rk tr"), "a", "p", "ctrl+n"], "dark trap\n", PromptInput),
        (["l", "o", "f", "i", "escape"], "lofi", ArrangementView),
        (["l", "o", "f", "i", "tab"], "lofi", ArrangementView),
    ],
    ids=["typed-and-pasted", "escape", "tab"],
)
async def test_what_comes_before_the_prompt_mounts_reaches_it_in_order(
    tmp_path: Path, keys: list[str | events.Paste], text: str, focused: type
) -> None:
    app = make_studio(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        assert isinstance(app.focused, PromptStandIn)
        _type(app, *keys)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()  # the keys handed over are handled
        assert app.studio.prompt.text == text
        assert isinstance(app.focused, focused)


async def test_the_prompt_key_outside_the_prompt_finds_it_before_it_mounts(
    tmp_path: Path,
) -> None:
    app = make_studio(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        app.studio.set_focus(app.studio.query_one(ArrangementView))  # a click there, say
        await pilot.press("slash", "o", "k")  # the prompt key, then what to type there
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.studio.prompt.text == "ok" and app.focused is app.studio.prompt


async def test_a_studio_key_typed_behind_escape_before_the_prompt_mounts_is_not_typed(
    tmp_path: Path,
) -> None:
    """Found by hand (issue 33, no lost keys): escape then j typed in the studio's first
    seconds put "j" in the prompt instead of opening the jam: every key held for the prompt
    went to it, those typed after escape too."""
    app = make_studio(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        assert isinstance(app.focused, PromptStandIn)
        _type(app, "l", "o", "f", "i", "escape")
        app.post_message(events.Key("question_mark", "?"))  # help, outside the prompt
        await pilot.pause()
        await app.workers.wait_for_complete()
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert app.studio.prompt.text == "lofi"
