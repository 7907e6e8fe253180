"""Where a line typed in the prompt box goes: a new song, a change to this one, or a question.

The line is read once here; the words that decide where it goes live in
`compose.iteration.routing`, and `modify` takes the reading as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from muse_tui.compose.iteration.routing import Route, route_kind
from muse_tui.compose.requests import ChangeRequest, parse_request


@dataclass(frozen=True)
class Routed:
    """Where a line goes, and the line as a change request (read once, passed to `modify`)."""

    kind: Route
    request: ChangeRequest


def route(text: str, session_open: bool) -> Routed:
    """Where what the producer typed goes ("compose", "modify" or "question"), and its reading."""
    request = parse_request(text)
    return Routed(route_kind(text, request, session_open), request)
