"""A form the producer asks for in words wins over the genre's template.

S1 keeps the words (`form v-c-v-c-b-c`, `sections two drops`, `key change up a step for
the last chorus`); this module reads them with `askedForm` of the arrangement skill file
and reshapes the template's sections. An asked sequence is the song's form, framed by the
template's intro and outro when it names neither; kinds listed once each ("verse chorus
bridge") name a verse-chorus song's sections (`listed`), not a one-each form; a count
adds or removes sections of a kind; a key change moves the last asked section, and what
follows it, up.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from muse_tui.compose.arrangement.form import PEAK_KINDS
from muse_tui.compose.arrangement.plan import SectionPlan
from muse_tui.contracts.song import SectionKind
from muse_tui.knowledge.arrangement import AskedForms, ListedKinds

_FORM, _SECTIONS, _KEY_CHANGE = "form ", "sections ", "key change"
_ARTICLES = ("a", "an")
#: Words that write a form in order ("intro -> verse then chorus"), not a list of its kinds.
_ORDER_WORDS = re.compile(r"->|→|>|\bthen\b|\s-\s")
#: What song-form letters ("AABA") read as before they meet a template.
_SONG_FORM_LETTERS = frozenset({"a", "peak", "bridge"})


@dataclass(frozen=True)
class Count:
    """How many sections of a kind the producer asked for; `exact` unless "a breakdown"."""

    kind: SectionKind
    number: int
    exact: bool


@dataclass(frozen=True)
class AskedForm:
    """What the prompt asked of the form: a sequence, counts, a key change."""

    sequence: tuple[str, ...] = ()
    counts: tuple[Count, ...] = ()
    key_shift: int = 0
    key_change_in: SectionKind | None = None

    def for_choruses(self, whole_form: bool) -> AskedForm:
        """What is left to ask of a song in choruses of a whole form (jazz, blues): it already
        is its AABA, so song-form letters describe its chorus, not its sections."""
        if whole_form and set(self.sequence) <= _SONG_FORM_LETTERS:
            return replace(self, sequence=())
        return self

    @property
    def reshapes(self) -> bool:
        """Whether the sections themselves were asked for (then a song never grows by repeats)."""
        return bool(self.sequence or self.counts)


def read_asked_form(hints: Iterable[str], table: AskedForms) -> AskedForm:
    """The asked form in S1's structure hints; hints about anything else are passed over."""
    sequence: tuple[str, ...] = ()
    counts: list[Count] = []
    shift, where = 0, None
    for hint in hints:
        if hint.startswith(_FORM):
            sequence = _sequence(hint.removeprefix(_FORM), table) or sequence
        elif hint.startswith(_SECTIONS) and (count := _count(hint.removeprefix(_SECTIONS), table)):
            counts.append(count)
        elif hint in ("breakdown", "bridge"):
            counts.append(Count(hint, 1, exact=False))
        elif hint.startswith(_KEY_CHANGE):
            shift, where = _key_change(hint.removeprefix(_KEY_CHANGE), table)
    return AskedForm(sequence, tuple(counts), shift, where)


def asked_plans(
    plans: Sequence[SectionPlan], asked: AskedForm, table: AskedForms
) -> list[SectionPlan]:
    """The template's sections reshaped as asked."""
    if asked.sequence:
        return _as_sequence(plans, _kinds(asked.sequence, plans), table)
    shaped = list(plans)
    for count in asked.counts:
        shaped = _counted(shaped, count, table)
    return shaped


def key_change_from(plans: Sequence[SectionPlan], asked: AskedForm) -> int | None:
    """The index of the section the key change starts at, if one was asked."""
    if not asked.key_shift:
        return None
    body = [i for i, p in enumerate(plans) if p.kind not in ("intro", "outro")] or [0]
    for wanted in (
        lambda p: p.kind == asked.key_change_in,
        lambda p: p.kind in PEAK_KINDS,
        lambda p: True,
    ):
        found = [i for i in body if wanted(plans[i])]
        if found:
            return found[-1]
    return None


def _sequence(words: str, table: AskedForms) -> tuple[str, ...]:
    """Section kinds (or song-form letters) in order: "v-c-v-c-b-c", "aaba", "intro, two verses"."""
    compact = words.replace(" form", "").replace("-", "")
    if compact in table.song_forms:
        return tuple(table.song_forms[compact])
    if re.fullmatch(r"[a-z]+(?:\s*[-–/]\s*[a-z]+)+", words) and all(
        part in table.letters for part in re.split(r"\s*[-–/]\s*", words)
    ):
        return tuple(table.letters[part] for part in re.split(r"\s*[-–/]\s*", words))
    kinds: list[str] = []
    for item in re.split(r"\s*(?:,|->|→|>|\bthen\b|\band\b)\s*|\s+-\s+", words):
        kinds += _items(item.strip(), table)
    if table.listed and _only_names_kinds(words, kinds, table):
        return _song_with(kinds, table.listed)
    return tuple(kinds)


def _only_names_kinds(words: str, kinds: Sequence[str], table: AskedForms) -> bool:
    """Whether the words list the song's section kinds, once each, rather than its order:
    no arrows, "then", counts or repeats, and only kinds a verse-chorus song is made of."""
    listed = table.listed
    if listed is None or len(kinds) < 2 or len(set(kinds)) < len(kinds):
        return False
    if _ORDER_WORDS.search(words) or any(w in table.numbers for w in words.split()):
        return False
    known = {"intro", "outro", *listed.cycle, *listed.departures}
    return set(kinds) <= known and any(k in listed.cycle for k in kinds)


def _song_with(kinds: Sequence[str], listed: ListedKinds) -> tuple[str, ...]:
    """The song a list of kinds names: intro, the cycle `cycles` times, the departures, the
    cycle's peak again, outro ("verse chorus bridge": v-c-v-c-b-c)."""
    cycle = [k for k in kinds if k in listed.cycle]
    departures = [k for k in kinds if k in listed.departures]
    back = ([k for k in cycle if k in listed.returns] or cycle[-1:]) if departures else []
    intro = ["intro"] if "intro" in kinds else []
    outro = ["outro"] if "outro" in kinds else []
    return (*intro, *cycle * listed.cycles, *departures, *back, *outro)


def _items(text: str, table: AskedForms) -> list[str]:
    """One item ("two verses", "chorus") or several written with spaces ("verse chorus")."""
    words = text.split()
    found: list[str] = []
    number = 1
    index = 0
    while index < len(words):
        word = words[index]
        pair = " ".join(words[index : index + 2])
        if word in _ARTICLES or word in table.numbers:
            number = 1 if word in _ARTICLES else table.numbers[word]
        elif (kind := _kind(pair, table)) is not None:
            found += [kind] * number
            number, index = 1, index + 1
        elif (kind := _kind(word, table)) is not None:
            found += [kind] * number
            number = 1
        index += 1
    return found


def _kind(word: str, table: AskedForms) -> SectionKind | None:
    for candidate in (word, re.sub(r"es$", "", word), re.sub(r"s$", "", word)):
        if candidate in table.words:
            return table.words[candidate]
    return None


def _count(words: str, table: AskedForms) -> Count | None:
    """ "two drops" → exactly 2; "a second drop" → exactly 2; "a breakdown" → at least one."""
    parts = words.replace(" more ", " ").split()
    kind = _kind(parts[-1], table)
    if kind is None:
        return None
    numbers = [table.numbers[w] for w in parts[:-1] if w in table.numbers]
    if not numbers:
        return Count(kind, 1, exact=False)
    return Count(kind, numbers[-1], exact=True)


def _key_change(words: str, table: AskedForms) -> tuple[int, SectionKind | None]:
    """Semitones (down is negative) and the kind whose last statement the change lands on."""
    semitones = next(
        (
            table.intervals[name]
            for name in sorted(table.intervals, key=len, reverse=True)
            if re.search(rf"\b{re.escape(name)}\b", words)
        ),
        table.key_shift,
    )
    down = re.search(r"\b(?:down|lower)\b", words) is not None
    last = re.search(r"\b(?:last|final) (\w+)$", words)
    kind = _kind(last.group(1), table) if last else None
    return (-semitones if down else semitones), kind


def _kinds(sequence: Sequence[str], plans: Sequence[SectionPlan]) -> list[str]:
    """Song-form letters as the template's kinds: `a` its first body kind short of a peak (a
    trap verse, not its opening hook), `peak` its chorus, hook or drop."""
    body = [p.kind for p in plans if p.kind not in ("intro", "outro")]
    first = next((k for k in body if k not in PEAK_KINDS), body[0] if body else "verse")
    peak = next((k for k in body if k in PEAK_KINDS), "chorus")
    return [first if k == "a" else peak if k == "peak" else k for k in sequence]


def _as_sequence(
    plans: Sequence[SectionPlan], kinds: Sequence[str], table: AskedForms
) -> list[SectionPlan]:
    """The asked kinds in order, each the template's own section of its kind where it has one."""
    of_kind: dict[str, list[SectionPlan]] = {}
    for plan in plans:
        of_kind.setdefault(plan.kind, []).append(plan)
    used: Counter[str] = Counter()
    totals = Counter(kinds)
    shaped = []
    for kind in kinds:
        own = of_kind.get(kind)
        plan = own[min(used[kind], len(own) - 1)] if own else _new_plan(kind, table)
        used[kind] += 1
        name = table.sections[kind].name  # type: ignore[index]
        name = f"{name} {used[kind]}" if totals[kind] > 1 else name
        shaped.append(replace(plan, name=name, trim=None))
    if "intro" not in kinds and (intro := of_kind.get("intro")):
        shaped.insert(0, intro[0])
    if "outro" not in kinds and (outro := of_kind.get("outro")):
        shaped.append(outro[-1])
    return shaped


def _counted(plans: list[SectionPlan], count: Count, table: AskedForms) -> list[SectionPlan]:
    """As many sections of the kind as asked: extras go from the end, missing ones are added."""
    have = [i for i, p in enumerate(plans) if p.kind == count.kind]
    shaped = [replace(p, trim=None) if p.kind == count.kind else p for p in plans]
    if count.exact and len(have) > count.number:
        extra = set(have[count.number :])
        return [p for i, p in enumerate(shaped) if i not in extra]
    own = [p for p in shaped if p.kind == count.kind]
    for _ in range(count.number - len(have)):
        plan = own[-1] if own else _new_plan(count.kind, table)
        plan = replace(plan, name=re.sub(r"\s*\d+$", "", plan.name))
        shaped.insert(_place(shaped, count.kind, table), plan)
    return shaped


def _place(plans: Sequence[SectionPlan], kind: SectionKind, table: AskedForms) -> int:
    """Where an added section goes: a drop after the first peak without one after it, others
    before the last peak; failing that, before the outro."""
    peaks = [i for i, p in enumerate(plans) if p.kind in PEAK_KINDS and p.kind != kind]
    if kind in table.after_peak:
        free = [i for i in peaks if i + 1 >= len(plans) or plans[i + 1].kind != kind]
        if free:
            return free[0] + 1
    elif peaks:
        return peaks[-1]
    outro = [i for i, p in enumerate(plans) if p.kind == "outro"]
    return outro[-1] if outro else len(plans)


def _new_plan(kind: str, table: AskedForms) -> SectionPlan:
    section = table.sections[kind]  # type: ignore[index]
    return SectionPlan(
        kind=kind,  # type: ignore[arg-type]
        name=section.name,
        bars=section.bars,
        energy=None,
        play=tuple(section.play),
        transition=None,
        chord_plan=None,
        trim=None,
    )
