"""The terminal's keys reach the app in batches: a paste read in one go is typed in one go."""

from __future__ import annotations

import threading
from pathlib import Path

from textual import events
from textual.drivers.headless_driver import HeadlessDriver
from textual.message import Message

from muse_tui.tui.input_batches import batched
from muse_tui.tui.widgets.prompt import PromptInput
from tests.ui.harness import make_studio, until


async def test_keys_the_input_thread_reads_together_are_typed_together(tmp_path: Path) -> None:
    """Before, Textual's driver handed the app each key on its own (a task and a wake-up
    each), and the app took them as they trickled in: a 10,000-character unbracketed paste
    reached the prompt a few keys at a time (bench/paste.py: seconds)."""
    messages: list[Message] = []
    app = make_studio(tmp_path)
    async with app.run_test(size=(120, 40), message_hook=messages.append) as pilot:
        prompt = app.studio.query_one(PromptInput)
        prompt.focus()
        await pilot.pause()
        messages.clear()
        driver = batched(HeadlessDriver)(app)
        wakes = []
        wake = driver._loop.call_soon_threadsafe

        def counted(*args, **kwargs):
            wakes.append(args)
            return wake(*args, **kwargs)

        driver._loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
        text = "dark trap, 140, key of Am, rolling 808s " * 50

        def input_thread() -> None:
            for character in text:
                key = events.Key("space" if character == " " else character, character)
                driver.send_message(key)

        reader = threading.Thread(target=input_thread)
        reader.start()
        reader.join()
        await until(pilot, lambda: prompt.text == text)
        driver._loop.call_soon_threadsafe = wake  # type: ignore[method-assign]
        assert len(wakes) == 1  # read while the loop was busy: all handed over at once
        edits = {id(m) for m in messages if isinstance(m, PromptInput.Changed)}
        assert len(edits) == 1
