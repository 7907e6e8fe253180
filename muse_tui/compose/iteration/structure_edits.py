"""Section edits as in a DAW: insert, extend, shorten, remove, move and repeat a section.

"insert a 4-bar bridge after the intro", "make the intro longer", "cut the
outro", "shorter outro", "move the bridge before the last chorus", "repeat the
chorus". Every edit is one new list of sections, each naming the old section
whose material it carries and how many of its bars it keeps. The regions
follow that list: kept notes move by whole bars and are otherwise untouched,
and only bars no old section held (a new section, the tail of a longer one)
are left for the part writers, as `Revision.fills` (`fill_region` keeps what
is active there, as S6 would). The transition ramps are laid again for the new
form, but kept notes are never passed through S6 again: it recomputes a length
from the note's end, which moves its last bit, and a note kept is kept exactly.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal, cast

from muse_tui.compose.assembly import (
    EARLY_GRACE_BEATS,
    active_spans,
    kept_where_active,
    ramp_region,
)
from muse_tui.compose.request_types import Edit, Scope
from muse_tui.compose.seeding import derive_rng
from muse_tui.compose.transitions import ramp_region_id
from muse_tui.contracts import Arrangement, Position, Region, Section, SongState, Track, new_id
from muse_tui.knowledge.edit_words import Operation, edit_words

from .positions import bar_of, read_position, section_index
from .revision import EditError, Revision
from .section_edits import sections_of

Action = Literal["insert", "extend", "shorten", "remove", "move", "duplicate"]
#: Sections that set up the last peak, and go before it when no place is said.
_BEFORE_THE_LAST_PEAK = frozenset({"bridge", "breakdown", "break", "build", "solo", "interlude"})
#: A phrase: what "longer" and "shorter" add or take away when no number is said.
PHRASE_BARS = 4

#: Not a clause word: a whole line read by `daw_lines.daw_edits`.
_SECTION = cast(Operation, "section")


@dataclass(frozen=True)
class SectionEdit(Edit):
    """A change to the form: the section it names, where it goes, how many bars."""

    operation: Operation = _SECTION
    action: Action = "insert"
    target: Position | None = None  # the section changed (None for a new one)
    place: Position | None = None  # where a new, moved or repeated section goes
    kind: str | None = None  # the kind of a new section
    bars: int | None = None  # its length, or how many bars to add or take away
    length: int | None = None  # a resized section's length as asked ("make the intro 4 bars")
    times: float | None = None  # or as a multiple of what it is ("twice as long")
    scope: Scope = field(default_factory=Scope)


@dataclass(frozen=True)
class Slot:
    """One section of the new form, the old section whose material it carries, and how much."""

    section: Section
    source: int | None  # index of the old section, None for a new one
    kept_bars: int = 0


def handles(edit: Edit) -> bool:
    return isinstance(edit, SectionEdit)


def apply(revision: Revision, edit: Edit) -> Revision:
    """The revision with the song's form changed and its regions laid out on it."""
    assert isinstance(edit, SectionEdit)
    revision = revision.fork()
    song = revision.song
    if song.arrangement is None:
        raise EditError("this song has no sections to change yet.")
    old = list(song.arrangement.sections)
    slots, sentence = _planned(song, edit)
    sections = _renamed([s.section for s in slots])
    slots = [Slot(s, slot.source, slot.kept_bars) for s, slot in zip(sections, slots, strict=True)]
    arrangement = song.arrangement.model_copy(
        update={"sections": sections, "energy_arc": _energy_arc(song.arrangement, slots)}
    )
    taken = {r.id for t in song.tracks for r in t.regions}
    tracks = [_laid_out(song, track, old, slots, taken) for track in song.tracks]
    form = Arrangement.model_validate(arrangement.model_dump())
    revision.song = with_ramps(song.model_copy(update={"arrangement": form, "tracks": tracks}))
    revision.fills.extend(_fills(slots))
    revision.handled.add("arrangement")
    revision.touch("arrangement", "moderate")
    revision.aim("arrangement", "arrangement.sections", "adjust", action=edit.action)
    revision.sentences.append(sentence)
    return revision


# ── reading the request ─────────────────────────────────────────────────────
def read_section_edit(said: str) -> SectionEdit | None:
    """A form change in a producer's words, or None when the line asks for something else."""
    text = " ".join(said.lower().split())
    kinds = _kind_words()
    count = _count_words()
    if m := re.search(
        rf"\b(?:insert|add|put in|put)\s+(?:a |an |another |one more )?"
        rf"(?:(?P<n>{count})[- ]bars?\s+)?(?P<kind>{kinds})\b(?P<rest>.*)$",
        text,
    ):
        place = read_position(m.group("rest")) if _placed(m.group("rest")) else None
        kind = edit_words().section_words[m.group("kind")]
        return SectionEdit(action="insert", kind=kind, bars=_number(m.group("n")), place=place)
    if m := re.search(r"\bmove\s+(?P<what>.+?)\s+(?P<rest>(?:before|after|to)\b.*)$", text):
        target = read_position(m.group("what"))
        place = read_position(m.group("rest"))
        if target is not None and place is not None:
            return SectionEdit(action="move", target=target, place=place)
    if m := re.search(r"\b(?:repeat|duplicate|double)\s+(?P<what>.+)$", text):
        what, _, rest = m.group("what").partition(" after ")
        target = read_position(what)
        place = read_position(f"after {rest}") if rest else None
        if target is not None and target.section is not None:
            return SectionEdit(action="duplicate", target=target, place=place)
    if m := re.search(
        rf"\b(?:cut|remove|delete|lose|get rid of|drop)\s+(?P<what>(?:the )?"
        rf"(?:\w+ )?(?:{kinds})(?: \d{{1,2}})?)\s*$",
        text,
    ):
        target = read_position(m.group("what"))
        if target is not None:
            return SectionEdit(action="remove", target=target)
    return _resized(text, kinds, count)


def _resized(text: str, kinds: str, count: str) -> SectionEdit | None:
    """'make the intro longer', 'shorter outro', 'extend the chorus by 8 bars',
    'stretch out the chorus', 'the bridge could be shorter', 'the intro is too short'.

    The section must be what is made longer: "make the drums tighter in the
    chorus" is a part edit, and is left to the clause reader.
    """
    section = rf"(?:the\s+)?(?:\w+\s+)?(?:{kinds})(?:\s+\d{{1,2}})?"
    if sized := _sized(text, section, count):
        return sized
    amount = rf"(?:a (?:bit|little|lot) |much |(?:{count}) bars? )?"
    said = (
        rf"\b(?P<verb>extend|lengthen|stretch|shorten|trim)(?:\s+out)?\s+{section}"
        rf"|\b(?:make|have)\s+{section}\s+{amount}(?P<than>longer|shorter)\b"
        rf"|\b(?P<adjective>longer|shorter)\s+{section}"
        # "the intro should be longer", "intro longer": the section, then what it should be
        rf"|^(?:{section})\s+(?:(?:should|could|needs to|has to|must)\s+be\s+)?{amount}"
        rf"(?P<after>longer|shorter)\b"
        # "the intro is too short": the opposite of what it is
        rf"|^(?:{section})\s+(?:is|feels|seems)\s+(?:a bit |way |much )?too\s+(?P<too>short|long)\b"
    )
    found = re.search(said, text)
    if found is None:
        return None
    word = (
        found.group("verb")
        or found.group("than")
        or found.group("adjective")
        or found.group("after")
        or {"short": "longer", "long": "shorter"}.get(found.group("too"))
    )
    target = read_position(found.group(0))
    if target is None or target.section is None:
        return None
    by = re.search(rf"\bby\s+({count})\s+bars?\b|\b({count})\s+bars?\s+(?:longer|shorter)", text)
    action: Action = "extend" if word in ("extend", "lengthen", "stretch", "longer") else "shorten"
    return SectionEdit(
        action=action,
        target=target.model_copy(update={"relation": "at", "offset_bars": 0}),
        bars=_number(by.group(1) or by.group(2)) if by else None,
    )


def _sized(text: str, section: str, count: str) -> SectionEdit | None:
    """'make the intro 4 bars', 'the drop should be 32 bars', 'make the bridge twice as long'."""
    multiples = {"twice": 2.0, "two times": 2.0, "three times": 3.0, "half": 0.5}
    times = "|".join(multiples)
    not_by = r"(?!\s+(?:longer|shorter|more|less)\b)"  # "8 bars longer" is by how much
    found = re.search(
        rf"\b(?:make|have|set)\s+(?P<what>{section})(?:\s+(?P<name>(?!bars?\b|twice\b|half\b|two\b"
        rf"|three\b)[a-z]+))?\s+(?:(?P<n>\d{{1,3}}|{count})\s+bars?"
        rf"(?:\s+long)?|(?P<times>{times})\s+(?:as\s+long|the\s+length))\b{not_by}"
        rf"|^(?P<what2>{section})\s+(?:should|could|needs to)\s+be\s+(?P<n2>\d{{1,3}}|{count})"
        rf"\s+bars?\b{not_by}",
        text,
    )
    if found is None:
        return None
    target = read_position(found.group("what") or found.group("what2"))
    if target is None or target.section is None:
        return None
    if name := found.group("name"):  # "the head out": a section's own name, kind and word
        target = target.model_copy(update={"section": f"{target.section} {name}"})
    said = found.group("n") or found.group("n2")
    return SectionEdit(
        action="extend",
        target=target.model_copy(update={"relation": "at", "offset_bars": 0}),
        length=_number(said) if said else None,
        times=multiples[found.group("times")] if found.group("times") else None,
    )


def _placed(rest: str) -> bool:
    return bool(
        re.search(r"\b(before|after|ahead of|following|at bar|at the start|at the end)\b", rest)
    )


@cache
def _kind_words() -> str:
    words = sorted(edit_words().section_words, key=len, reverse=True)
    return "|".join(re.escape(w) for w in words)


@cache
def _count_words() -> str:
    return "|".join([r"\d{1,2}", *edit_words().number_words])


def _number(said: str | None) -> int | None:
    if said is None:
        return None
    return int(said) if said.isdigit() else edit_words().number_words[said]


# ── planning the new form ───────────────────────────────────────────────────
def _planned(song: SongState, edit: SectionEdit) -> tuple[list[Slot], str]:
    """The new form as slots, and the sentence that says what changed."""
    old = sections_of(song)
    kept = [Slot(s, i, s.bars) for i, s in enumerate(old)]
    if edit.action == "insert":
        return _insert(song, edit, kept)
    assert edit.target is not None
    index = section_index(song, edit.target)
    section = old[index]
    if edit.action in ("extend", "shorten"):
        bars = _resize(section, edit)
        kept[index] = Slot(
            section.model_copy(update={"bars": bars}), index, min(bars, section.bars)
        )
        verb = "longer" if bars > section.bars else "shorter"
        said = f"{section.name} is {abs(bars - section.bars)} bars {verb} ({bars} bars)."
        return _laid(kept), said
    if edit.action == "remove":
        if len(old) == 1:
            raise EditError("that is the only section; the song needs at least one.")
        del kept[index]
        return _laid(kept), f"Removed {section.name} ({section.bars} bars); what followed moved up."
    moved = kept[index]
    if edit.action == "duplicate":
        at = _insertion_index(song, edit.place) if edit.place else index + 1
        kept = _laid([*kept[:at], moved, *kept[at:]])
        return kept, f"Repeated {section.name} ({section.bars} bars) at bar {_start(kept, at) + 1}."
    assert edit.place is not None
    at = _insertion_index(song, edit.place)
    del kept[index]
    new_index = at - (at > index)
    kept = _laid([*kept[:new_index], moved, *kept[new_index:]])
    return kept, f"Moved {section.name} to bar {_start(kept, new_index) + 1}."


def _insert(song: SongState, edit: SectionEdit, kept: list[Slot]) -> tuple[list[Slot], str]:
    old = [s.section for s in kept]
    kind = edit.kind or "bridge"
    at = _insertion_index(song, edit.place) if edit.place else _usual_place(old, kind)
    like = next((s for s in old if s.kind == kind), None)
    before = old[at - 1] if at > 0 else old[0]
    after = old[at] if at < len(old) else old[-1]
    bars = edit.bars or (like.bars if like else PHRASE_BARS * 2)
    new = Section(
        name=kind.replace("_", "-").title(),
        kind=kind,  # type: ignore[arg-type]
        start_bar=0,
        bars=max(1, bars),
        energy=like.energy if like else round((before.energy + after.energy) / 2, 3),
        active_roles=list(like.active_roles if like else before.active_roles),
        chord_plan=like.chord_plan if like else "vary",
    )
    kept = _laid([*kept[:at], Slot(new, None, 0), *kept[at:]])
    return (
        kept,
        f"Inserted a {new.bars}-bar {kind.replace('_', '-')} at bar {_start(kept, at) + 1}.",
    )


def _usual_place(sections: Sequence[Section], kind: str) -> int:
    """Where a section goes when no place is said: where songs usually put one.

    An intro opens, an outro closes, a bridge or breakdown comes before the last
    chorus (or drop, or hook), another of a kind the song has follows the last of
    them, and anything else comes before the outro.
    """
    kinds = [s.kind for s in sections]
    if kind == "intro":
        return 0
    if kind == "outro":
        return len(sections)
    if kind in _BEFORE_THE_LAST_PEAK:
        peaks = [i for i, k in enumerate(kinds) if k in ("chorus", "drop", "hook")]
        if peaks:
            return peaks[-1]
    if kind in kinds:
        return len(kinds) - kinds[::-1].index(kind)
    return len(sections) - 1 if kinds[-1] == "outro" else len(sections)


def _insertion_index(song: SongState, place: Position) -> int:
    """Where a section goes in the list: a bar must be a section boundary."""
    if place.section is not None:
        index = section_index(song, place)
        return (
            index + 1
            if place.relation == "after" and not place.offset_bars
            else _boundary(song, place)
        )
    return _boundary(song, place)


def _boundary(song: SongState, place: Position) -> int:
    old = sections_of(song)
    bar = bar_of(song, place)
    for i, section in enumerate(old):
        if section.start_bar == bar:
            return i
        if section.start_bar < bar < section.end_bar:
            raise EditError(
                f"a section goes between sections; bar {bar + 1} is inside {section.name} "
                f"(bars {section.start_bar + 1}–{section.end_bar})."
            )
    return len(old)


def _resize(section: Section, edit: SectionEdit) -> int:
    """The section's new length: a phrase more or less, or the bars asked for."""
    if edit.length is not None or edit.times is not None:
        bars = edit.length if edit.length is not None else round(section.bars * (edit.times or 1))
        if bars < 1 or bars == section.bars:
            raise EditError(f"{section.name} is {section.bars} bars already.")
        return bars
    if edit.action == "extend":
        return section.bars + (edit.bars or PHRASE_BARS)
    step = edit.bars or (PHRASE_BARS if section.bars > PHRASE_BARS else section.bars // 2)
    if step < 1 or section.bars - step < 1:
        raise EditError(
            f"{section.name} is only {section.bars} bars; it cannot be shorter by {step}."
        )
    return section.bars - step


def _laid(slots: Sequence[Slot]) -> list[Slot]:
    """The slots end to end from bar 0, in order."""
    laid, bar = [], 0
    for slot in slots:
        laid.append(
            Slot(slot.section.model_copy(update={"start_bar": bar}), slot.source, slot.kept_bars)
        )
        bar += slot.section.bars
    return laid


def _start(slots: Sequence[Slot], index: int) -> int:
    return slots[index].section.start_bar


def _renamed(sections: Sequence[Section]) -> list[Section]:
    """Sections of a kind numbered in order ("Chorus 1", "Chorus 2"), custom names kept."""
    renamed = []
    for section in sections:
        title = section.kind.replace("_", "-").title()
        plain = rf"{re.escape(title)}(?: \d+)?"
        # a custom name ("Head Out") is kept and not counted: "Head" beside it stays "Head"
        same = [s for s in sections if s.kind == section.kind and re.fullmatch(plain, s.name)]
        if not re.fullmatch(plain, section.name):
            renamed.append(section)
            continue
        number = next(i for i, s in enumerate(same, 1) if s is section)
        name = title if len(same) == 1 else f"{title} {number}"
        renamed.append(section.model_copy(update={"name": name}))
    return renamed


def _energy_arc(arrangement: Arrangement, slots: Sequence[Slot]) -> list[float]:
    """The energy of every bar, each slot's kept bars carrying their old values."""
    if not arrangement.energy_arc:
        return []
    old = arrangement.sections
    arc: list[float] = []
    for slot in slots:
        kept: list[float] = []
        if slot.source is not None:
            start = old[slot.source].start_bar - old[0].start_bar
            kept = arrangement.energy_arc[start : start + slot.kept_bars]
        tail = kept[-1] if kept else slot.section.energy
        arc += kept + [tail] * (slot.section.bars - len(kept))
    return arc


def _fills(slots: Sequence[Slot]) -> list[Section]:
    """The bars no old section held: a whole new section, or the new tail of a longer one."""
    fills = []
    for slot in slots:
        section = slot.section
        if slot.kept_bars < section.bars:
            fills.append(
                section.model_copy(
                    update={
                        "start_bar": section.start_bar + slot.kept_bars,
                        "bars": section.bars - slot.kept_bars,
                        "transition": "none",
                    }
                )
            )
    return fills


# ── laying the regions on the new form ──────────────────────────────────────
def _laid_out(
    song: SongState, track: Track, old: Sequence[Section], slots: Sequence[Slot], taken: set[str]
) -> Track:
    """The track's regions moved with their sections; a new section gets an empty region.

    A region that ran to its section's end runs to the new end; a repeated
    section's copy gets an id of its own (added to `taken`).
    """
    beats = song.beats_per_bar
    ramp = ramp_region_id(track.id)
    regions: list[Region] = []
    used: set[str] = set()
    for slot in slots:
        section = slot.section
        if slot.source is None:
            regions.append(_empty(song, track, section, taken))
            continue
        source = old[slot.source]
        start, end = source.start_bar * beats, source.end_bar * beats
        for region in track.regions:
            if region.id == ramp or not start <= region.start_beat < end:
                continue
            moved = _kept(region, slot.kept_bars * beats - (region.start_beat - start))
            new_start = region.start_beat + (section.start_bar - source.start_bar) * beats
            length = moved.length_beats
            if abs(region.end_beat - end) < 1e-6:
                length = section.end_bar * beats - new_start
            update: dict[str, object] = {
                "start_beat": new_start,
                "length_beats": length,
                "name": f"{track.name} · {section.name}",
            }
            if region.id in used:
                update["id"] = _fresh_id(song.seed, track.id, new_start, taken)
            used.add(region.id)
            regions.append(moved.model_copy(update=update))
    shift = (slots[-1].section.end_bar - old[-1].end_bar) * beats
    regions += [
        r.model_copy(update={"start_beat": r.start_beat + shift})
        for r in track.regions
        if r.id != ramp and r.start_beat >= old[-1].end_bar * beats
    ]
    regions += [r for r in track.regions if r.id == ramp]
    return track.model_copy(update={"regions": regions})


def _kept(region: Region, beats: float) -> Region:
    """The region cut after `beats`: later notes dropped, a note across the cut shortened."""
    if beats >= region.length_beats:
        return region
    cut = beats - EARLY_GRACE_BEATS  # a note pushed just ahead of a cut bar goes with it
    notes = [
        n if n.end_beat <= beats else n.model_copy(update={"duration_beats": beats - n.start_beat})
        for n in region.notes
        if n.start_beat < cut
    ]
    return region.model_copy(
        update={
            "length_beats": beats,
            "notes": notes,
            "control_changes": [c for c in region.control_changes if c.beat < beats],
            "pitch_bends": [b for b in region.pitch_bends if b.beat < beats],
        }
    )


def _empty(song: SongState, track: Track, section: Section, taken: set[str]) -> Region:
    beats = song.beats_per_bar
    start = section.start_bar * beats
    return Region(
        id=_fresh_id(song.seed, track.id, start, taken),
        name=f"{track.name} · {section.name}",
        start_beat=start,
        length_beats=section.bars * beats,
    )


def _fresh_id(seed: int, track_id: str, start: float, taken: set[str]) -> str:
    """An id from the song's seed and the region's place, unlike any the song holds."""
    n = 0
    while (found := new_id(derive_rng(seed, track_id, "section", start, n))) in taken:
        n += 1
    taken.add(found)
    return found


def fill_region(song: SongState, track_id: str, written: Region) -> SongState:
    """Put notes a part writer wrote for new bars into the track's region that holds them."""
    index = next(i for i, t in enumerate(song.tracks) if t.id == track_id)
    track = song.tracks[index]
    ramp = ramp_region_id(track.id)
    at = written.start_beat
    target = next(
        (
            j
            for j, r in enumerate(track.regions)
            if r.id != ramp and r.start_beat <= at < r.end_beat
        ),
        None,
    )
    if target is None:
        return song
    region = track.regions[target]
    offset = written.start_beat - region.start_beat
    spans = active_spans(song.arrangement, track.role, song.beats_per_bar, song)
    written = kept_where_active(written, spans, track.channel)  # as S6 keeps them
    region = region.model_copy(
        update={
            "notes": [
                *region.notes,
                *(
                    n.model_copy(update={"start_beat": n.start_beat + offset})
                    for n in written.notes
                ),
            ],
            "control_changes": [
                *region.control_changes,
                *(c.model_copy(update={"beat": c.beat + offset}) for c in written.control_changes),
            ],
            "pitch_bends": [
                *region.pitch_bends,
                *(b.model_copy(update={"beat": b.beat + offset}) for b in written.pitch_bends),
            ],
        }
    )
    regions = list(track.regions)
    regions[target] = region
    tracks = list(song.tracks)
    tracks[index] = track.model_copy(update={"regions": regions})
    return song.model_copy(update={"tracks": tracks})


def with_ramps(song: SongState) -> SongState:
    """The song with each track's transition ramps laid again for its sections."""
    tracks = []
    for track in song.tracks:
        ramp = ramp_region_id(track.id)
        regions = [r for r in track.regions if r.id != ramp]
        if (ramps := ramp_region(song, track, track.channel)) is not None:
            regions.append(ramps)
        tracks.append(track.model_copy(update={"regions": regions}))
    return song.model_copy(update={"tracks": tracks})
