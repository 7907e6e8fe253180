"""Where a typed line goes: a new song, a change to the open one, a question, or unclear.

The shapes are data (`skills/iteration/questions.json`, `routing`). A question
is recognised before anything else and never changes anything, with or without
a song open ("why did you pick Eb minor?" names a key but asks about it; "can
you make the bass simpler?" asks for a change and is one). Asking for a new
song, or a full prompt with a genre and no change words, composes afresh;
undo, redo and "try something different" change the open song.
"""

from __future__ import annotations

from typing import Literal

from muse_tui.compose.intent.extract import read_prompt
from muse_tui.compose.requests import ChangeRequest
from muse_tui.knowledge.artists import artist_table
from muse_tui.knowledge.edit_words import edit_words
from muse_tui.knowledge.lexicon import intent_lexicon
from muse_tui.knowledge.questions import question_table

Route = Literal["compose", "modify", "question", "unclear"]

_HISTORY = ("undo", "redo", "try_again")


def is_question(text: str) -> bool:
    """The line asks something (and is not a change asked politely, "can you make it darker?")."""
    said = " ".join(text.strip().lower().split())
    shapes = question_table().routing
    asks_for_change = shapes.asks_for_change_pattern
    if asks_for_change is not None and asks_for_change.search(said):
        return False
    return bool(shapes.question_pattern.search(said))


def _changes_something(said: str) -> bool:
    """Change verbs, or a comparative from the edit words ("darker", "busier")."""
    if question_table().routing.change_pattern.search(said):
        return True
    return any(f" {word} " in f" {said} " for word in edit_words().comparatives)


def route_kind(text: str, request: ChangeRequest, session_open: bool) -> Route:
    """Where the line goes, given how it reads as a change request and whether a song is open."""
    said = " ".join(text.strip().lower().split())
    if request.kind in _HISTORY:
        return "modify" if session_open else "unclear"
    if is_question(said):
        return "question"
    if question_table().routing.new_song_pattern.search(said) or not session_open:
        return "compose"
    reading = read_prompt(text, intent_lexicon(), artist_table())
    if (reading.genres or reading.artists) and not _changes_something(said):
        return "compose"  # "dark trap at 140" with a song open: a new song, not a change
    if request.kind in ("change", "praise", "vague"):
        return "modify"  # praise and a vague wish: modify answers and changes nothing
    return "unclear"  # "could you add a key change?" asks for a change the edits do not know
