"""Which phrase form a section's lead follows, and what each of its bars does."""

from __future__ import annotations

from typing import Literal

from muse_tui.contracts.song import SectionKind
from muse_tui.knowledge.melody import PHRASE_BARS, BarMove, LeadStyle

#: How a section's lead behaves: the hook, a verse line, a development, or a sketch.
SectionPart = Literal["hook", "verse", "bridge", "sketch"]

_PARTS: dict[str, SectionPart] = {
    "chorus": "hook",
    "hook": "hook",
    "drop": "hook",
    "verse": "verse",
    "pre_chorus": "verse",
    "head": "verse",
    "loop": "verse",
    "bridge": "bridge",
    "solo": "bridge",
}

#: Where in its window each part's line sits (0 bottom, 1 top): the hook sings above the verse.
HEIGHT: dict[SectionPart, float] = {"hook": 0.8, "verse": 0.3, "bridge": 0.55, "sketch": 0.45}
#: How loud each part's line plays against the hook: the verse line sits under the singer.
LOUDNESS: dict[SectionPart, float] = {"hook": 1.0, "verse": 0.85, "bridge": 1.0, "sketch": 1.0}


def section_part(kind: SectionKind) -> SectionPart:
    """The part a section kind plays; intros, builds, breaks and outros only sketch the line."""
    return _PARTS.get(kind, "sketch")


def form_names(part: SectionPart, style: LeadStyle) -> list[str]:
    """The forms a part may take (the hook's from the style, a sketch and a bridge their own)."""
    if part == "hook":
        return style.hook_forms
    if part == "verse":
        return style.verse_forms
    return ["development" if part == "bridge" else "sketch"]


def phrase_bars(form: list[BarMove], bars: int) -> list[list[BarMove]]:
    """The bar moves of each phrase of a section of `bars` bars.

    Four-bar phrases; a shorter phrase left over keeps the form's opening and
    ends on its cadence.
    """
    phrases = []
    for start in range(0, bars, PHRASE_BARS):
        length = min(PHRASE_BARS, bars - start)
        if length == PHRASE_BARS:
            phrases.append(list(form))
        else:
            phrases.append([*form[: length - 1], "cadence"])
    return phrases
