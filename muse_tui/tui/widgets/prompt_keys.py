"""The prompt's keys and the sentences it shows while empty.

Both prompt boxes answer them: the prompt itself (`prompt.PromptInput`, a text
area) and the stand-in the first frame draws until the text area is mounted
(`stand_ins.PromptStandIn`), so the footer reads the same under either.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

NEW_SONG_PLACEHOLDER = 'Say what you want — "Frank Ocean meets Burial, late-night vibes, 2-step"'
CHANGE_PLACEHOLDER = 'Say what to change — "bass too busy, simplify", "3rd chord darker", "undo"'

#: Keys an empty prompt does not type. Space is the studio's play key. Slash is its "go to the
#: prompt" key: pressed here it finds the prompt there already, and no prompt starts with a
#: slash (a slash chord, "Am/E", is typed as usual).
KEYS_BEFORE_TEXT = frozenset({"space", "slash"})

#: Keys the prompt keeps from the text area: they go to its bindings, not into the text.
OWN_KEYS = {"prompt.submit", "prompt.newline"}

PROMPT_BINDINGS: list[BindingType] = [
    Binding(
        "enter",
        "submit",
        "Compose",
        id="prompt.submit",
        tooltip="Send the prompt: compose a new song from it",
    ),
    Binding(
        "ctrl+n,shift+enter",
        "newline",
        "New line",
        show=False,
        id="prompt.newline",
        tooltip="Break the line (shift+enter too, where the terminal tells it from enter)",
    ),
    Binding(
        "up",
        "history_or_up",
        "Earlier prompt",
        show=False,
        id="prompt.history_previous",
        tooltip="On the first line: bring back the previous prompt",
    ),
    Binding(
        "down",
        "history_or_down",
        "Later prompt",
        show=False,
        id="prompt.history_next",
        tooltip="On the last line: bring back the next prompt",
    ),
]


class PromptBox:
    """Marks the widget that holds the prompt: the text area, or before it mounts its stand-in."""

    text: str
