"""The terminal's keys reach the app in batches: a paste read in one go is typed in one go."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual import events
from textual._xterm_parser import XTermParser
from textual.drivers.headless_driver import HeadlessDriver
from textual.message import Message

from muse_tui.tui.input_batches import batched, joined
from muse_tui.tui.typed_runs import Typed, TypedRunParser, key_for
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


def _as_keys(messages) -> list[tuple[str, object]]:
    """What the app is handed, each `Typed` run spelled out as its keys."""
    spelled: list[tuple[str, object]] = []
    for message in messages:
        if isinstance(message, Typed):
            spelled += [("key", (k.key, k.character)) for k in map(key_for, message.text)]
        elif isinstance(message, events.Key):
            spelled.append(("key", (message.key, message.character)))
        elif isinstance(message, events.Paste):
            spelled.append(("paste", message.text))
        else:
            spelled.append((type(message).__name__, None))
    return spelled


READS = [
    ["dark trap 140 bpm", "\r", "abc"],
    ["émoi, ré mineur — 2-step\tx\x7fy\r\nz", "\x01\x00q"],
    ["a", "\x1b[A", "bc", "\x1b", "[B", "de"],  # arrows, one split across two reads
    ["xy\x1b[200~pasted\rtext", " still pasted", "\x1b[201~", "after"],  # bracketed paste
    ["\x1b[20", "0~in a paste", "\x1b[2", "01~out"],  # its markers split across reads
    ["ok", "\x1bx", "yz"],  # alt+x
]


@pytest.mark.parametrize("reads", READS)
def test_the_studios_parser_hands_over_what_textuals_does(reads: list[str]) -> None:
    """Runs of printable text become one `Typed`, and spell the same keys as before."""
    ours, textuals = TypedRunParser(), XTermParser()
    got = [m for data in reads for m in ours.feed(data)]
    want = [m for data in reads for m in textuals.feed(data)]
    got += list(ours.tick()) if ours._timeout_time is None else []
    assert _as_keys(got) == _as_keys(want)


def test_a_plain_paste_is_one_typed_run() -> None:
    """Before, Textual's parser made 10,000 keys of it (and formatted each for its log)."""
    text = ("dark trap, 140, key of Am, rolling 808s " * 250)[:10_000]
    parser = TypedRunParser()
    runs = [
        m for start in range(0, len(text), 4096) for m in parser.feed(text[start : start + 4096])
    ]
    assert all(isinstance(m, Typed) for m in runs)
    joined_runs = joined(runs)
    assert len(joined_runs) == 1 and joined_runs[0].text == text


async def test_a_typed_run_in_the_prompt_is_one_edit_and_elsewhere_its_keys(
    tmp_path: Path,
) -> None:
    """A run the prompt types lands as one edit; a run read while the roll has the focus
    is its keys: "/" moves the focus from there to the prompt, and the rest is typed there."""
    messages: list[Message] = []
    app = make_studio(tmp_path)
    async with app.run_test(size=(120, 40), message_hook=messages.append) as pilot:
        prompt = app.studio.query_one(PromptInput)
        prompt.focus()
        await pilot.pause()
        messages.clear()
        text = ("dark trap, 140, key of Am, rolling 808s " * 250)[:10_000]
        app.post_message(Typed(text))
        await until(pilot, lambda: prompt.text == text)
        edits = {id(m) for m in messages if isinstance(m, PromptInput.Changed)}
        assert len(edits) == 1

        prompt.load_text("")
        elsewhere = next(w for w in app.studio.focus_chain if w is not prompt)
        elsewhere.focus()
        await pilot.pause()
        app.post_message(Typed("/abc"))
        await until(pilot, lambda: prompt.text == "abc")
        assert app.focused is prompt
