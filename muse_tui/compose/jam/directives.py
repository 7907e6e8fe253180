"""A producer's line read as directions to the band ("@drums busier", "everyone, key of D").

A line is cut into clauses at each @mention; a clause goes to the members it
names (by id, name or alias, with or without the @), else to the whole band.
Every action whose pattern a clause matches is one `Directive`. Shared actions
(key, tempo, feel) go to everyone whoever was named. Pure: the words are in
`skills/jam/directives.json`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from muse_tui.contracts.jam import Directive
from muse_tui.knowledge.jam import DirectiveTable, Persona, directive_table

BAND = "band"

_MENTION = re.compile(r"@\s*([\w#]+)")
_LONGEST_LINE = 500


def read_directives(
    text: str, members: Sequence[Persona], table: DirectiveTable | None = None
) -> list[Directive]:
    """Every direction in `text`, in the order written; [] when nothing is understood."""
    return read_line(text, members, table)[0]


def read_line(
    text: str, members: Sequence[Persona], table: DirectiveTable | None = None
) -> tuple[list[Directive], list[str]]:
    """The directions in `text`, and the clauses in it that say none (as written)."""
    table = table or directive_table()
    line = " ".join(text.split())[:_LONGEST_LINE]
    found: list[Directive] = []
    unread: list[str] = []
    for clause, named in _clauses(line, members):
        targets = named or [BAND]
        if table.band_pattern.search(clause):
            targets = [BAND]
        before = len(found)
        for action in table.actions:
            for pattern in action.compiled:
                match = pattern.search(clause)
                if match is None:
                    continue
                found.append(
                    Directive(
                        text=clause.strip(" ,.;"),
                        targets=[BAND] if action.shared else targets,
                        action=action.action,
                        value=_value(action.action, match),
                        shared=action.shared,
                    )
                )
                break
        words = _MENTION.sub("", clause).strip(" ,.;:!")
        if len(found) == before and words:
            unread.append(clause.strip(" ,.;"))
    return _without_contradictions(found), unread


def _clauses(line: str, members: Sequence[Persona]) -> list[tuple[str, list[str]]]:
    """(clause, the member ids it names) — a clause runs from one @mention to the next."""
    starts = [m.start() for m in _MENTION.finditer(line)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    pieces = [line[a:b] for a, b in zip(starts, [*starts[1:], len(line)], strict=True)]
    clauses = []
    for piece in pieces:
        named = [
            _member_for(m.group(1), members)
            for m in _MENTION.finditer(piece)
            if _member_for(m.group(1), members)
        ]
        if not named:
            named = _named_without_at(piece, members)
        clauses.append((piece, [n for n in named if n is not None]))
    return clauses


def _member_for(word: str, members: Sequence[Persona]) -> str | None:
    word = word.lower()
    for member in members:
        if word in (member.id.lower(), member.name.lower(), *(a.lower() for a in member.aliases)):
            return member.id
    return None


def _named_without_at(clause: str, members: Sequence[Persona]) -> list[str]:
    """Members a clause names at its start without an @ ("drums, busier"; "bass: simpler")."""
    head = re.match(r"\s*(?:hey\s+)?([\w# ]+?)\s*[,:]", clause.lower())
    if head is None:
        return []
    member = _member_for(head.group(1).strip(), members)
    return [member] if member else []


def _value(action: str, match: re.Match[str]) -> str | None:
    if action == "key":
        tonic = match.group("tonic")
        tonic = tonic[0].upper() + tonic[1:].replace("♯", "#").replace("♭", "b")
        mode = (match.groupdict().get("mode") or "").lower()
        if mode in ("minor", "min", "m"):
            return f"{tonic} minor"
        if mode in ("major", "maj"):
            return f"{tonic} major"
        return tonic
    if action == "tempo":
        return match.group("bpm")
    return None


def _without_contradictions(found: list[Directive]) -> list[Directive]:
    """Of two opposite directions to the same members in one line, the later one stands."""
    opposites = {
        "busier": "simpler",
        "simpler": "busier",
        "higher": "lower",
        "lower": "higher",
        "lay_out": "come_back",
        "come_back": "lay_out",
        "half_time": "full_time",
        "full_time": "half_time",
        "faster": "slower",
        "slower": "faster",
    }
    kept: list[Directive] = []
    for directive in found:
        opposite = opposites.get(directive.action)
        kept = [d for d in kept if not (d.action == opposite and d.targets == directive.targets)]
        kept.append(directive)
    return kept
