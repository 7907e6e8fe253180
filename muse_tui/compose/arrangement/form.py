"""The song's form: which sections, in what order, how many bars each.

Structure hints reshape the template; a requested length trims whole sections
(by their `trim` rank) or, for a longer song, repeats the form's core unit (a
verse and its chorus, a solo), and then stretches or squeezes the sections
proportionally in four-bar steps, never below four bars nor past sixteen: a
producer hears a 24-bar verse as a verse that forgot to end. Bars left over
once every section has its share go to the body of the song first, then to the
outro, and to the intro last, once they would pass the template's own length:
an intro stretched from 8 bars to 12 keeps the listener waiting for the beat,
where a longer outro only fades longer. A song in choruses of a whole form (a jazz
head, a blues chorus) is fitted by whole choruses instead (`choruses.py`), and a form
the producer wrote out never grows by repeats (`asked.py`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from muse_tui.compose.arrangement.choruses import fit_choruses, has_choruses, natural_target
from muse_tui.compose.arrangement.plan import SectionPlan
from muse_tui.compose.arrangement.scaling import MIN_SECTION_BARS, scale_bars
from muse_tui.contracts.intent import DurationRange
from muse_tui.knowledge.arrangement import MAX_SECTION_BARS, ArrangementTable

#: How many times the core unit may be repeated to reach a long target.
_MAX_EXTRA_UNITS = 32
#: Where the song peaks: these play every role.
PEAK_KINDS: frozenset[str] = frozenset({"chorus", "hook", "drop"})


@dataclass(frozen=True)
class StructureHints:
    """The structure requests we understood from the prompt."""

    no_chorus: bool = False
    loop_based: bool = False
    long_intro: bool = False
    short_intro: bool = False
    no_intro: bool = False
    no_outro: bool = False
    first_peak_bar: int | None = None
    first_peak_kind: str | None = None


_NO = r"(?:no|without(?: an?)?|skip(?: the)?|lose the)"
_PATTERNS = {
    "no_chorus": rf"\b{_NO} (?:chorus|choruses|hook|hooks)\b|\b(?:chorusless|hookless)\b",
    "loop_based": r"\bloop based\b|\b(?:one|single|just a|one big) loop\b|\bloop only\b",
    "long_intro": r"\b(?:long|longer|extended|slow) intro\b",
    "short_intro": r"\b(?:short|shorter|quick) intro\b",
    "no_intro": rf"\b{_NO} intro\b|\bcold open\b|\bstraight in\b",
    "no_outro": rf"\b{_NO} outro\b|\b(?:hard|abrupt) (?:end|ending|stop)\b",
}
_PEAK_AT = re.compile(r"\b(drop|chorus|hook)\b.*?\b(?:at|on|in|by)\s+(?:bar\s+)?(\d+)\b")


def parse_structure_hints(hints: Iterable[str]) -> StructureHints:
    """Read hints like "no chorus", "loop-based", "long intro", "drop at bar 32".

    "bar N" counts bars before the peak (bar 32 → after 32 bars); a DAW-style
    number one past a phrase (bar 33, bar 17) is read the same way.
    """
    found: dict[str, object] = {}
    for hint in hints:
        text = " ".join(hint.lower().replace("-", " ").replace("_", " ").split())
        for flag, pattern in _PATTERNS.items():
            if re.search(pattern, text):
                found[flag] = True
        match = _PEAK_AT.search(text)
        if match:
            bar = int(match.group(2))
            found["first_peak_bar"] = bar - 1 if bar % 4 == 1 else bar
            found["first_peak_kind"] = match.group(1)
    return StructureHints(**found)  # type: ignore[arg-type]


def apply_hints(
    plans: Sequence[SectionPlan], hints: StructureHints, table: ArrangementTable
) -> list[SectionPlan]:
    """Reshape the form: lose the chorus, the intro or the outro; lengthen or shorten the intro."""
    shaped = list(plans)
    if hints.no_chorus:
        shaped = _without_chorus(shaped, table)
    if hints.no_intro:
        shaped = [p for p in shaped if p.kind != "intro"] or shaped
    if hints.no_outro:
        shaped = [p for p in shaped if p.kind != "outro"] or shaped
    if hints.long_intro or hints.short_intro:
        shaped = [
            replace(p, bars=_resized_intro(p.bars, longer=hints.long_intro))
            if p.kind == "intro"
            else p
            for p in shaped
        ]
    return shaped


def _without_chorus(plans: list[SectionPlan], table: ArrangementTable) -> list[SectionPlan]:
    """Pre-choruses lengthen their verse; choruses become hook-less B sections a notch lower."""
    shaped: list[SectionPlan] = []
    for plan in plans:
        if plan.kind == "pre_chorus":
            if shaped and shaped[-1].kind not in PEAK_KINDS:
                shaped[-1] = replace(shaped[-1], bars=shaped[-1].bars + plan.bars)
            else:
                shaped.append(replace(plan, kind="verse"))
        elif plan.kind in ("chorus", "hook"):
            energy = plan.energy if plan.energy is not None else table.section_energy[plan.kind]
            shaped.append(
                replace(
                    plan,
                    kind="interlude",
                    name=re.sub(r"\b(?:Chorus|Hook)\b", "B Section", plan.name),
                    energy=round(energy - 0.15, 3),
                    chord_plan=plan.chord_plan or "vary",
                )
            )
        else:
            shaped.append(plan)
    return shaped


#: A producer's "long intro" is a DJ's 16 bars at least (half a minute at 128 BPM):
#: doubling a 4-bar intro gave 8 bars, 14 s at 140 BPM, which nobody hears as long.
LONG_INTRO_BARS = 16


def _resized_intro(bars: int, *, longer: bool) -> int:
    if longer:
        return max(bars * 2, LONG_INTRO_BARS)
    return max(MIN_SECTION_BARS, bars // 2 // MIN_SECTION_BARS * MIN_SECTION_BARS)


def target_bars(
    plans: Sequence[SectionPlan], bars: int | None, duration: DurationRange | None
) -> int | None:
    """How long the song will be: `bars` exactly, else a phrase-friendly length in `duration`."""
    if bars is not None:
        return bars
    if duration is None:
        return None
    low, high = duration.min, duration.max
    if has_choruses(plans):
        whole = natural_target(_trim_levels(plans) + _grown_levels(plans, low), low, high)
        if whole is not None:
            return whole
    lengths = [sum(p.bars for p in level) for level in _trim_levels(plans)]
    fitting = [t for t in lengths if low <= t <= high]
    if fitting:
        wanted = max(fitting)
    else:
        grown = (_length(level) for level in _grown_levels(plans, low))
        wanted = next((t for t in grown if low <= t <= high), min(max(lengths[0], low), high))
    for grain in (8, 4):
        options = [t for t in range(low, high + 1) if t % grain == 0]
        if options:
            return min(options, key=lambda t: (abs(t - wanted), -t))
    return wanted


def fit_song(
    plans: Sequence[SectionPlan],
    target: int | None,
    hints: StructureHints,
    phrase_bars: int | None = None,
    *,
    grow: bool = True,
) -> list[SectionPlan]:
    """Fit the form to `target` bars (or keep its length), placing the first peak if asked.

    `grow=False` keeps the sections as they are, stretched, never repeated (a form the
    producer wrote out)."""
    if target is not None and target < MIN_SECTION_BARS:
        raise ValueError(f"a song needs at least {MIN_SECTION_BARS} bars, not {target}")
    fitted = None
    if hints.first_peak_bar is not None:
        fitted = _place_first_peak(plans, hints, target, phrase_bars, grow)
    if fitted is None:
        fitted = fit_form(plans, target, phrase_bars, grow=grow)
    # Numbers follow the order played: both halves of a placed peak grew (two of one name),
    # or a trim took a middle section ("Chorus 1, Dub Break, Chorus 3").
    if len({p.name for p in fitted}) < len(fitted) or _numbers_skip(fitted):
        fitted = _numbered_in_order(fitted)
    return fitted


def _numbers_skip(plans: Sequence[SectionPlan]) -> bool:
    """Whether a numbered name's numbers, in the order played, are not 1, 2, 3… (an unnumbered
    first one counts as 1: "Loop A', Loop A' 2" is in order)."""
    numbers: dict[str, list[int]] = {}
    for plan in plans:
        found = re.fullmatch(r"(.*?)\s*(\d+)", plan.name)
        base, number = (found[1], int(found[2])) if found else (plan.name, 1)
        numbers.setdefault(base, []).append(number)
    return any(seen != list(range(1, len(seen) + 1)) for seen in numbers.values())


def _place_first_peak(
    plans: Sequence[SectionPlan],
    hints: StructureHints,
    target: int | None,
    phrase_bars: int | None,
    grow: bool = True,
) -> list[SectionPlan] | None:
    """Fit what comes before the first peak into `first_peak_bar` bars; None if it cannot be."""
    at = hints.first_peak_bar or 0
    peaks = [i for i, p in enumerate(plans) if p.kind == hints.first_peak_kind]
    peaks = peaks or [i for i, p in enumerate(plans) if p.kind in PEAK_KINDS]
    if not peaks:
        return None
    before, after = list(plans[: peaks[0]]), list(plans[peaks[0] :])
    rest = None if target is None else target - at
    if (rest is not None and rest < MIN_SECTION_BARS) or (at and not before):
        return None
    if 0 < at < MIN_SECTION_BARS:
        return None
    lead_in = fit_form(before, at, phrase_bars, grow=False) if at else []
    return lead_in + fit_form(after, rest, phrase_bars, grow=grow)


def fit_form(
    plans: Sequence[SectionPlan],
    target: int | None,
    phrase_bars: int | None = None,
    *,
    grow: bool = True,
) -> list[SectionPlan]:
    """Trim or grow, then scale sections to exactly `target` bars (None keeps them as they are).

    `grow=False` only stretches (the lead-in to a peak placed at a bar).
    """
    if target is None:
        return list(plans)
    levels = _trim_levels(plans) + (_grown_levels(plans, target) if grow else [])
    if has_choruses(plans) and (in_choruses := fit_choruses(levels, target)) is not None:
        return in_choruses
    feasible = [
        level for level in levels if MIN_SECTION_BARS * len(level) <= target <= _room(level, target)
    ]
    if feasible:
        # The fullest form whose length is proportionally closest to the target.
        chosen = min(feasible, key=lambda lvl: abs(math.log(target / _length(lvl))))
    elif MIN_SECTION_BARS * len(levels[0]) > target:
        chosen = _squeezed(_trim_levels(plans)[-1], target)
    else:
        chosen = max(levels, key=len)
    grain = _grain([p.bars for p in chosen], target, phrase_bars)
    lengths = scale_bars(
        [p.bars for p in chosen], target, grain, MAX_SECTION_BARS, [p.kind for p in chosen]
    )
    return [replace(p, bars=b) for p, b in zip(chosen, lengths, strict=True)]


def _length(plans: Sequence[SectionPlan]) -> int:
    return sum(p.bars for p in plans)


def _room(plans: Sequence[SectionPlan], target: int) -> int:
    """The most bars these sections hold without one passing MAX_SECTION_BARS."""
    return MAX_SECTION_BARS * len(plans) + target % MIN_SECTION_BARS


def _grown_levels(plans: Sequence[SectionPlan], target: int) -> list[list[SectionPlan]]:
    """The form with its core unit played once more, twice more… until `target` fits in it."""
    unit = _core_unit(plans)
    fits_already = _length(plans) >= target and _room(plans, target) >= target
    if unit is None or fits_already:
        return []
    start, end = unit
    copies = [replace(p, trim=None) for p in plans[start:end]]
    levels: list[list[SectionPlan]] = []
    for extra in range(1, _MAX_EXTRA_UNITS + 1):
        grown = _numbered_in_order([*plans[:end], *copies * extra, *plans[end:]])
        levels.append(grown)
        if _length(grown) >= target and _room(grown, target) >= target:
            break
    return levels


def _core_unit(plans: Sequence[SectionPlan]) -> tuple[int, int] | None:
    """The span a longer song repeats: a verse-to-peak run, else the last run into a peak.

    A form ending "Chorus 2, Bridge, Chorus 3" repeats "Verse 2 … Chorus 2", so the
    bridge keeps its place near the end; an EDM form repeats "Breakdown, Build, Drop";
    a form without peaks repeats its last solo, loop or verse.
    """
    peaks = [i for i, p in enumerate(plans) if p.kind in PEAK_KINDS]
    runs = []
    for number, peak in enumerate(peaks):
        begin = peaks[number - 1] + 1 if number else 0
        begin = next((i for i in range(begin, peak) if plans[i].kind != "intro"), peak)
        runs.append((begin, peak + 1))
    with_verse = [(a, b) for a, b in runs if any(p.kind == "verse" for p in plans[a:b])]
    if with_verse or runs:
        return (with_verse or runs)[-1]
    middle = [i for i, p in enumerate(plans) if p.kind not in ("intro", "outro")]
    playing = [i for i in middle if plans[i].kind in ("solo", "loop", "verse")] or middle
    return (playing[-1], playing[-1] + 1) if playing else None


def _numbered_in_order(plans: Sequence[SectionPlan]) -> list[SectionPlan]:
    """Names numbered by order of appearance once a unit is repeated ("Chorus 1, 2, 3, 4").

    A name that had no number keeps it the first time; its repeats count on from 2.
    """
    bases = [re.sub(r"\s*\d+$", "", p.name) for p in plans]
    numbered = {b for b, p in zip(bases, plans, strict=True) if b != p.name}
    seen: dict[str, int] = {}
    renamed = []
    for base, plan in zip(bases, plans, strict=True):
        seen[base] = seen.get(base, 0) + 1
        if base in numbered:
            name = f"{base} {seen[base]}"
        else:
            name = base if seen[base] == 1 else f"{base} {seen[base]}"
        renamed.append(replace(plan, name=name))
    return renamed


def _trim_levels(plans: Sequence[SectionPlan]) -> list[list[SectionPlan]]:
    """The full form, then the form without rank-1 sections, without ranks 1–2, and so on."""
    ranks = sorted({p.trim for p in plans if p.trim is not None})
    levels = [list(plans)]
    for rank in ranks:
        levels.append([p for p in plans if p.trim is None or p.trim > rank])
    return levels


def _squeezed(plans: list[SectionPlan], target: int) -> list[SectionPlan]:
    """Drop sections until four bars each fit: outro, intro, quiet ones from the end, then peaks."""
    kept = list(plans)
    order: list[Callable[[SectionPlan], bool]] = [
        lambda p: p.kind == "outro",
        lambda p: p.kind == "intro",
        lambda p: p.kind not in PEAK_KINDS,
        lambda p: True,
    ]
    for droppable in order:
        while MIN_SECTION_BARS * len(kept) > target and len(kept) > 1:
            found = [i for i, p in enumerate(kept) if droppable(p)]
            if not found:
                break
            kept.pop(found[-1])
    return kept


def _grain(bars: list[int], target: int, phrase_bars: int | None) -> int:
    """Eight-bar steps when the form or the progression thinks in eights and they fit, else four."""
    eights = phrase_bars == 8 or all(b % 8 == 0 for b in bars)
    return 8 if eights and 8 * len(bars) <= target else MIN_SECTION_BARS
