"""Whether a line typed with a song open is a change to it, a new song, or a question.

Asking for a new song, or a full prompt with a genre and no change words,
composes afresh; anything that reads as a change request, an undo or "try
something different" modifies; praise and questions change nothing.
"""

from __future__ import annotations

import re
from typing import Literal

from muse_tui.compose.intent.extract import read_prompt
from muse_tui.compose.requests import ChangeRequest
from muse_tui.knowledge.artists import artist_table
from muse_tui.knowledge.edit_words import edit_words
from muse_tui.knowledge.lexicon import intent_lexicon

Route = Literal["compose", "modify", "question"]

_NEW_SONG = re.compile(
    r"\b(new|another|fresh|different) (song|beat|track|tune|idea|one from scratch)\b"
    r"|\b(start over|from scratch|start again|make me a|give me a|write me a|compose)\b"
)
_CHANGE_VERBS = (
    r"\b(make (it|the)|change|swap|switch|more|less|too|undo|redo|mute|unmute|add|remove|"
    r"turn|transpose|slow|speed|simplify|try|freeze|unfreeze)\b"
)


def _change_shape() -> re.Pattern[str]:
    """Change verbs, or a comparative from the edit words (re caches the compiled pattern)."""
    comparatives = "|".join(re.escape(word) for word in edit_words().comparatives)
    return re.compile(rf"{_CHANGE_VERBS}|\b({comparatives})\b")


def route_kind(text: str, request: ChangeRequest, session_open: bool) -> Route:
    """ "compose", "modify" or "question" for the line and its reading as a request."""
    said = " ".join(text.strip().lower().split())
    if not session_open:
        return "question" if request.kind == "question" else "compose"
    if _NEW_SONG.search(said):
        return "compose"
    if request.kind in ("undo", "redo", "try_again"):
        return "modify"
    reading = read_prompt(text, intent_lexicon(), artist_table())
    if (reading.genres or reading.artists) and not _change_shape().search(said):
        return "compose"  # "dark trap at 140" with a song open: a new song, not a change
    return "modify" if request.kind == "change" else "question"
