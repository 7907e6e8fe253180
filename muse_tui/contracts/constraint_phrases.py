"""Reading checkpoints written before standing edits and takes had their own intent fields.

They were phrases among `intent.constraints`: "edit bass density -1", "edit drums
ghost_notes +1 in chorus", "take bass variant=3 dials=+0.15 style=walking".
"""

from __future__ import annotations

import re
from typing import Any

_STANDING = re.compile(
    r"^edit (?P<role>[a-z_]+) (?P<kind>density|ghost_notes|swing) (?P<value>\S+)"
    r"(?: in (?P<section>[a-z_]+))?$"
)
_TAKE = re.compile(r"^take (?P<role>[a-z_]+)(?P<settings>(?: [a-z_]+=\S+)*)$")
_TAKE_FIELDS = {"variant": int, "dials": float, "style": str, "genre": str, "density": int}


def split_constraints(
    phrases: list[Any],
) -> tuple[list[Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The constraints proper, then the standing edits and the takes hidden among them."""
    plain: list[Any] = []
    edits: list[dict[str, Any]] = []
    takes: dict[str, dict[str, Any]] = {}
    for text in phrases:
        if isinstance(text, str) and (m := _STANDING.match(text)):
            edit = {"role": m["role"], "kind": m["kind"], "value": float(m["value"])}
            edits.append(edit | ({"section": m["section"]} if m["section"] else {}))
        elif isinstance(text, str) and (m := _TAKE.match(text)):
            settings = dict(w.split("=", 1) for w in m["settings"].split())
            take = {k: cast(settings[k]) for k, cast in _TAKE_FIELDS.items() if k in settings}
            takes[m["role"]] = {"role": m["role"], **take}  # a later take of a role replaced it
        else:
            plain.append(text)
    return plain, edits, list(takes.values())


def has_phrases(phrases: object) -> bool:
    """Whether a constraints value still carries standing edits or takes."""
    return isinstance(phrases, list) and any(
        isinstance(t, str) and (_STANDING.match(t) or _TAKE.match(t)) for t in phrases
    )
