"""Where a line typed in the prompt box goes: a new song, a change, a question, or unclear.

The line is read once here; the shapes that decide where it goes live in
`compose.iteration.routing` (rules in `skills/iteration/questions.json`), and
`modify` takes the reading as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from muse_tui.compose.intent.structured import structured_route
from muse_tui.compose.iteration.routing import Route, route_kind
from muse_tui.compose.requests import ChangeRequest, parse_request


@dataclass(frozen=True)
class Routed:
    """Where a line goes, and the line as a change request (read once, passed to `modify`)."""

    kind: Route
    request: ChangeRequest


def route(text: str, session_open: bool) -> Routed:
    """Where what the producer typed goes, and its reading as a change request."""
    if structured := structured_route(text, session_open):  # a STORI PROMPT's Mode: decides
        return Routed(structured[0], parse_request(structured[1]))
    request = parse_request(text)
    return Routed(route_kind(text, request, session_open), request)
