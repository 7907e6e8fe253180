"""The meter a prompt asks for: "3/4", "waltz", "jig", "in 7", "a 6/8 bridge".

Words come from `skills/rhythm/meters.json`. Two different meters for the whole
song ("a 4/4 waltz") are a question for the producer, not a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from muse_tui.contracts import Ambiguity, Meter, SectionKind
from muse_tui.knowledge.meters import MeterTable

_SECTION_WORDS: dict[str, SectionKind] = {
    "intro": "intro",
    "verse": "verse",
    "pre-chorus": "pre_chorus",
    "prechorus": "pre_chorus",
    "chorus": "chorus",
    "hook": "hook",
    "bridge": "bridge",
    "breakdown": "breakdown",
    "drop": "drop",
    "solo": "solo",
    "interlude": "interlude",
    "outro": "outro",
}
_SIGNATURE = r"(\d{1,2} ?/ ?(?:2|4|8|16))"
_SECTION = r"(pre-?chorus|intro|verse|chorus|hook|bridge|breakdown|drop|solo|interlude|outro)s?"
#: "a 6/8 bridge", "the bridge in 6/8", "chorus goes to 3/4", "switch to 7/8 for the solo".
_SECTION_METERS = (
    re.compile(rf"{_SIGNATURE} {_SECTION}\b"),
    re.compile(
        rf"\b{_SECTION} (?:(?:is|goes|switches|changes|moves) )?(?:(?:in|into|to) )?{_SIGNATURE}"
    ),
    re.compile(rf"\b{_SIGNATURE} (?:for|in) the {_SECTION}\b"),
)


@dataclass
class MeterReading:
    """The song's meter (None: the prompt named none), the sections' own, what clashed."""

    meter: Meter | None = None
    sections: dict[SectionKind, Meter] = field(default_factory=dict)
    clashing: list[Meter] = field(default_factory=list)

    def ambiguity(self) -> Ambiguity | None:
        if len(self.clashing) < 2:
            return None
        labels = [m.label for m in self.clashing]
        return Ambiguity(
            field="meter",
            reason=f"The prompt asks for both {' and '.join(labels)}: which meter should the "
            "song be in?",
            options=labels,
            default_value=labels[0],
            severity="blocking",
        )


def read_meter(prompt: str, table: MeterTable) -> MeterReading:
    """Every meter the prompt names: section meters first, then the song's."""
    text = " ".join(prompt.lower().split())
    reading = MeterReading()
    for pattern in _SECTION_METERS:
        for match in pattern.finditer(text):
            groups = [g for g in match.groups() if g]
            label = next(g for g in groups if "/" in g)
            word = next(g for g in groups if "/" not in g)
            meter = _meter(label.replace(" ", ""), ())
            kind = _SECTION_WORDS.get(word)
            if meter is not None and kind is not None:
                reading.sections.setdefault(kind, meter)
        text = pattern.sub(" ", text)
    grouping = _grouping(text, table)
    found: list[Meter] = []
    implied: list[Meter] = []
    for word in table.words:
        for match in word.regex.finditer(text):
            label = word.meter
            if "{n}" in label:
                label = "/".join(g for g in match.groups() if g)
            meter = _meter(label, word.grouping or grouping)
            heard = implied if word.implied else found
            if meter is not None and all(m.time_signature != meter.time_signature for m in heard):
                heard.append(meter)
    found = found or implied[:1]
    if found:
        reading.meter = found[0]
        if grouping and sum(grouping) == found[0].numerator:
            reading.meter = found[0].model_copy(update={"grouping": grouping})
    reading.clashing = found if len(found) > 1 else []
    return reading


def _grouping(text: str, table: MeterTable) -> tuple[int, ...]:
    match = re.search(table.grouping_words.pattern, text)
    if match is None:
        return ()
    return tuple(int(n) for n in re.findall(r"\d", match.group(1)))


def _meter(label: str, grouping: tuple[int, ...]) -> Meter | None:
    """A meter a song can be in (2 to 15 beats), or None for a number that is not one."""
    try:
        meter = Meter.parse(label)
    except ValueError:
        return None
    if not 2 <= meter.numerator <= 15:
        return None
    if grouping and sum(grouping) == meter.numerator:
        return Meter.parse(label, grouping)
    return meter
