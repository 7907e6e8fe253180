"""What a prompt asks of the players' expression: a `MidiExpressiveness:` block or phrases.

"filter sweep on the pad over the build", "vibrato on the lead", "no vibrato on
the lead" (an edit taking one away). S1 reads the prompt's requests once onto
the intent (`PipelineIntent.expression_requests`); a change request reads its
own words here too. How each request is played is `compose.expression`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from muse_tui.compose.intent.structured import StructuredPromptError, parse_structured, role_of
from muse_tui.contracts.song import ExpressionKind, ExpressionRequest, TrackRole
from muse_tui.knowledge import intent_lexicon
from muse_tui.knowledge.edit_words import edit_words

#: The controllers a producer names: the mod wheel and the filter cutoff.
CC_MODULATION, CC_FILTER = 1, 74
#: What each kind adds by default, and to which roles (requests may add others).
DEFAULTS: Mapping[ExpressionKind, tuple[TrackRole, ...]] = {
    "sustain": ("keys", "chords"),
    "vibrato": ("lead",),
    "scoop": ("lead",),
    "swell": ("pad",),
}
_KIND_WORDS: Mapping[str, ExpressionKind] = {
    "sustain pedal": "sustain",
    "sustain": "sustain",
    "pedal": "sustain",
    "vibrato": "vibrato",
    "scoops": "scoop",
    "scoop": "scoop",
    "swells": "swell",
    "swell": "swell",
    "aftertouch": "pressure",
    "channel pressure": "pressure",
    "pressure": "pressure",
}
_CURVE_WORDS = {"filter sweep": CC_FILTER, "filter": CC_FILTER, "mod wheel": CC_MODULATION}
_WORD = r"[a-z_ -]+?"
#: "filter sweep on the pad over the build", "vibrato on the lead", "aftertouch on the pads".
_ASKED = re.compile(
    rf"(?P<what>filter sweep|mod wheel|sustain pedal|channel pressure|aftertouch|vibrato|"
    rf"scoops?|swells?)\s+(?:on|to|for|from|off)\s+(?:the\s+)?(?P<role>{_WORD})"
    rf"(?:\s+(?:over|in|during|through)\s+(?:the\s+|each\s+|every\s+)?(?P<section>{_WORD}))?"
    rf"(?=$|[,.;!?]|\s+(?:and|with|at|in|over)\b)"
)


def requested(prompt: str) -> list[ExpressionRequest]:
    """Expressions the prompt asks for: a `MidiExpressiveness:` block, or phrases in a sentence."""
    try:
        structured = parse_structured(prompt)
    except StructuredPromptError:  # S1 names the bad line; here it is read as a sentence
        structured = None
    return requested_in(prompt, structured.expressiveness if structured else None)


def requested_in(prompt: str, block: Mapping[str, Any] | None) -> list[ExpressionRequest]:
    """The prompt's requests, its structured header block already read (S1 reads it once)."""
    return from_block(block) if block else from_phrases(prompt)


def edit_value(request: ExpressionRequest, add: bool) -> str:
    """An expression change as a change request's value: '+' or '-', then the request as JSON."""
    return ("+" if add else "-") + request.to_json(indent=None)


_REMOVING = re.compile(r"\b(?:no|remove|without|take|drop|lose|kill|stop|lift)\b(?:\s+the)?\s*$")


def from_phrases(text: str) -> list[ExpressionRequest]:
    """ "filter sweep on the pad over the build" → a CC74 curve on the pad in build sections."""
    return [request for request, add in expression_changes(text) if add]


def expression_changes(text: str) -> list[tuple[ExpressionRequest, bool]]:
    """Expressions a sentence asks to add (True) or take away (False, "no vibrato on the lead")."""
    changes: list[tuple[ExpressionRequest, bool]] = []
    said = " ".join(text.lower().split())
    for found in _ASKED.finditer(said):
        role = _role(found.group("role"))
        if role is None:
            continue
        what = found.group("what")
        section = _section(found.group("section"))
        if what in _CURVE_WORDS:
            request = _curve(role, _CURVE_WORDS[what], section)
        else:
            request = ExpressionRequest(kind=_KIND_WORDS[what], role=role, section=section)
        add = not _REMOVING.search(said[max(0, found.start() - 16) : found.start()])
        if (request, add) not in changes:
            changes.append((request, add))
    return changes


def from_block(block: Mapping[str, Any]) -> list[ExpressionRequest]:
    """A `MidiExpressiveness:` block: `sustain_pedal: keys`, `vibrato: [lead]`, `cc_curves: […]`.

    Entries name roles (a word, a list, or `true` for the usual role); anything
    unreadable is skipped, never raised.
    """
    requests: list[ExpressionRequest] = []
    for raw_key, value in block.items():
        key = str(raw_key).lower().replace("_", " ").strip()
        if key in ("cc curves", "cc curve", "automation"):
            requests += _curves(value)
            continue
        kind = _KIND_WORDS.get(key) or _KIND_WORDS.get(key.removesuffix("s"))
        if kind is None or value is False or value is None:
            continue
        if value is True:
            roles = list(DEFAULTS.get(kind, ("lead",)))
        else:
            items = value if isinstance(value, list) else str(value).split(",")
            roles = [_role(str(i)) for i in items if not isinstance(i, (list, dict))]
        for role in roles:
            request = ExpressionRequest(kind=kind, role=role) if role else None
            if request is not None and request not in requests:
                requests.append(request)
    return requests


def _curves(value: object) -> list[ExpressionRequest]:
    curves: list[ExpressionRequest] = []
    for item in value if isinstance(value, list) else [value]:
        if not isinstance(item, dict):
            continue
        role = _role(str(item.get("track") or item.get("role") or "pad"))
        controller = _byte(item.get("cc"))
        if role is None or controller is None:
            continue
        low = _byte(item.get("from", item.get("start")))
        high = _byte(item.get("to", item.get("end")))
        section = _section(str(item["section"])) if item.get("section") else None
        curves.append(_curve(role, controller, section, low, high))
    return curves


def _curve(
    role: TrackRole,
    controller: int,
    section: str | None,
    low: int | None = None,
    high: int | None = None,
) -> ExpressionRequest:
    return ExpressionRequest(
        kind="cc_curve",
        role=role,
        section=section,
        controller=controller,
        start_value=20 if low is None else low,
        end_value=127 if high is None else high,
    )


def _byte(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        number = int(str(value).strip())
    except ValueError:
        return None
    return number if 0 <= number <= 127 else None


def _role(word: str) -> TrackRole | None:
    """The role a part word names, read as a structured prompt's `Role:` reads it."""
    return role_of(" ".join(word.lower().replace("_", " ").split()), intent_lexicon())


def _section(word: str | None) -> str | None:
    """A section word as a section kind ("choruses", "pre-chorus"); other names as written."""
    if not word:
        return None
    cleaned = " ".join(word.lower().replace("_", " ").split())
    kinds = edit_words().section_words
    return kinds.get(cleaned) or kinds.get(cleaned.removesuffix("s")) or cleaned.replace(" ", "_")
