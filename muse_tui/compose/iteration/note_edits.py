"""Surgical edits to the notes of a part: thin or fill it, add or remove ghost notes, swing it.

Every function is pure: contracts in, contracts out, an RNG passed in where a
choice is made. They work on one Region at a time (notes relative to its
start, which sits on a bar line); a section-scoped edit only passes that
section's regions.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from muse_tui.compose.humanize import swing_position, unswing_position
from muse_tui.contracts import Note, Region
from muse_tui.knowledge import rhythm_table
from muse_tui.theory.drums import KICK, KICK_ACOUSTIC

from .revision import EditError

SNARES = (38, 40, 37)
CLOSED_HAT = 42
HATS = frozenset({42, 44, 46})
THIN_SHARE = 0.3  # a "simpler" removes about this share of what can go, per step
GHOST_VELOCITY = (22, 38)
GHOST_CEILING = 45  # notes this soft on a snare (or a short bass note) count as ghosts
TICK = 1 / 960
#: A busier line that gained less than this share of notes already moved in 8ths.
FULL_LINE = 1.1


@dataclass(frozen=True)
class Groove:
    """What a part edit needs to know about the song's time: bar length and swing."""

    beats_per_bar: float = 4.0
    swing: float = 50.0
    swing_unit: str = "16th"


def thinned(region: Region, steps: int, groove: Groove, role: str) -> Region:
    """Fewer notes: the weakest beats go first, the downbeats always stay; a bass holds over."""
    if steps <= 0 or not region.notes:
        return region
    notes = sorted(region.notes, key=lambda n: (n.start_beat, n.pitch))
    drums = role in rhythm_table().tracks.kit_roles
    units = [[n] for n in notes] if drums else _onsets(notes)
    ranked = sorted(
        (u for u in units if _weight(u[0].start_beat, groove) < 4),
        key=lambda u: (_priority(u, groove, drums), -u[0].start_beat),
    )
    share = 1 - (1 - THIN_SHARE) ** steps
    gone = {id(n) for u in ranked[: math.ceil(len(ranked) * share)] for n in u}
    kept = [n for n in notes if id(n) not in gone]
    if role in rhythm_table().tracks.monophonic_roles:
        kept = _held_over(kept, [n for n in notes if id(n) in gone], region.length_beats)
    return region.model_copy(update={"notes": kept})


def filled(region: Region, steps: int, groove: Groove, role: str) -> Region:
    """More notes: drums get hats on the 8ths (16ths at two steps), other parts repeat into gaps."""
    if steps <= 0 or not region.notes:
        return region
    if role in rhythm_table().tracks.kit_roles:
        notes = _with_hats(region, steps, groove)
        if len(notes) == len(region.notes):  # every 8th has its hat already: fill the 16ths
            notes = _with_hats(region, steps + 1, groove)
        return region.model_copy(update={"notes": notes})
    gap_needed = 1.0 if steps == 1 else 0.5
    notes = _echoed(region, gap_needed, groove)
    if (
        steps == 1 and len(notes) < len(region.notes) * FULL_LINE
    ):  # every gap a beat long is filled: the half-beat ones
        notes = _echoed(region, 0.5, groove)
    return region.model_copy(update={"notes": notes})


def _echoed(region: Region, gap_needed: float, groove: Groove) -> list[Note]:
    """Each onset echoed halfway into the gap after it (on the 8th grid) where the gap is long."""
    onsets = _onsets(sorted(region.notes, key=lambda n: (n.start_beat, n.pitch)))
    notes: list[Note] = []
    for i, onset in enumerate(onsets):
        after = onsets[i + 1][0].start_beat if i + 1 < len(onsets) else region.length_beats
        start = onset[0].start_beat
        straight = unswing_position(start, groove.swing, groove.swing_unit)  # type: ignore[arg-type]
        middle = math.ceil((straight + (after - start) / 2) * 2 - 1e-6) / 2
        echo = swing_position(middle, groove.swing, groove.swing_unit)  # type: ignore[arg-type]
        if after - start < gap_needed or not start + 0.25 <= echo <= after - 0.25:
            notes += onset
            continue
        for note in onset:
            notes.append(_cut(note, echo))
            length = min(note.duration_beats, after - echo)
            notes.append(
                note.model_copy(
                    update={
                        "start_beat": on_tick(echo),
                        "duration_beats": on_tick(length),
                        "velocity": max(1, round(note.velocity * 0.8)),
                    }
                )
            )
    return sorted(notes, key=lambda n: (n.start_beat, n.pitch))


def with_ghost_notes(region: Region, groove: Groove, role: str, rng: random.Random) -> Region:
    """Soft snare ghosts on the 16ths around the backbeat, or dead notes leading into bass notes."""
    if role in ("bass", "sub_bass"):
        return region.model_copy(update={"notes": _bass_ghosts(region.notes, rng)})
    if role != "drums":
        raise EditError("ghost notes suit the drums and the bass.")
    notes = list(region.notes)
    present = [n.pitch for n in notes if n.pitch in SNARES]
    if not present:
        return region
    snare = max(SNARES, key=present.count)
    hits = sorted(n.start_beat for n in notes if n.pitch == snare)
    for straight in (k * 0.5 + 0.25 for k in range(int(region.length_beats * 2))):
        at = swing_position(straight, groove.swing, groove.swing_unit)  # type: ignore[arg-type]
        if at >= region.length_beats or any(abs(at - h) < 0.2 for h in hits):
            continue
        leads_in = any(0 < h - at <= 0.3 for h in hits)
        if leads_in or rng.random() < 0.2:
            velocity = rng.randint(*GHOST_VELOCITY)
            notes.append(
                Note(
                    pitch=snare,
                    velocity=velocity,
                    start_beat=on_tick(at),
                    duration_beats=0.0625,
                    channel=notes[0].channel,
                )
            )
    return region.model_copy(update={"notes": sorted(notes, key=lambda n: (n.start_beat, n.pitch))})


def without_ghost_notes(region: Region, role: str) -> Region:
    def ghost(n: Note) -> bool:
        if role == "drums":
            return n.pitch in SNARES and n.velocity < GHOST_CEILING
        return n.velocity < GHOST_CEILING and n.duration_beats <= 0.15

    return region.model_copy(update={"notes": [n for n in region.notes if not ghost(n)]})


def reswung(region: Region, swing_from: float, swing_to: float, unit: str) -> Region:
    """The part played with another swing amount (MPC swing %, 50 straight, 66 triplet)."""
    if abs(swing_to - swing_from) < 1e-9:
        return region

    def move(beat: float) -> float:
        straight = unswing_position(beat, swing_from, unit)  # type: ignore[arg-type]
        return swing_position(straight, swing_to, unit)  # type: ignore[arg-type]

    notes = []
    for note in region.notes:
        start, end = move(note.start_beat), move(note.end_beat)
        length = max(TICK, min(end, region.length_beats) - start)
        notes.append(
            note.model_copy(
                update={"start_beat": on_tick(start), "duration_beats": on_tick(length)}
            )
        )
    return region.model_copy(update={"notes": notes})


def _onsets(notes: list[Note]) -> list[list[Note]]:
    """Notes struck together (within a 64th), as chords or single notes, in time order."""
    groups: list[list[Note]] = []
    for note in notes:
        if groups and note.start_beat - groups[-1][0].start_beat < 1 / 16:
            groups[-1].append(note)
        else:
            groups.append([note])
    return groups


def _weight(beat: float, groove: Groove) -> int:
    """4 on the bar's downbeat, 3 on a beat, 2 on an 8th, 1 on a 16th, 0 off the grid."""
    straight = unswing_position(beat, groove.swing, groove.swing_unit)  # type: ignore[arg-type]
    step = round(straight * 4)
    if abs(straight * 4 - step) > 0.35:
        return 0
    if step % round(groove.beats_per_bar * 4) == 0:
        return 4
    return 3 if step % 4 == 0 else 2 if step % 2 == 0 else 1


def _priority(unit: list[Note], groove: Groove, drums: bool) -> tuple[float, float]:
    weight = float(_weight(unit[0].start_beat, groove))
    if drums and unit[0].pitch in (KICK, KICK_ACOUSTIC, *SNARES):
        weight += 2  # the kick and the backbeat carry the groove; hats and ghosts go first
    return weight, sum(n.velocity for n in unit) / len(unit)


def _held_over(kept: list[Note], gone: list[Note], length: float) -> list[Note]:
    """A monophonic line holds each note over the notes taken out after it."""
    result = []
    for i, note in enumerate(kept):
        following = kept[i + 1].start_beat if i + 1 < len(kept) else length
        ends = [g.end_beat for g in gone if note.start_beat < g.start_beat < following]
        end = min(following, max([note.end_beat, *ends]))
        result.append(note.model_copy(update={"duration_beats": on_tick(end - note.start_beat)}))
    return result


def _with_hats(region: Region, steps: int, groove: Groove) -> list[Note]:
    notes = list(region.notes)
    hats = [n for n in notes if n.pitch in HATS]
    velocity = sorted(n.velocity for n in hats)[len(hats) // 2] if hats else 70
    every = 0.5 if steps == 1 else 0.25
    busy_bars = {int(n.start_beat // groove.beats_per_bar) for n in notes}
    for k in range(int(region.length_beats / every)):
        at = swing_position(k * every, groove.swing, groove.swing_unit)  # type: ignore[arg-type]
        if int(at // groove.beats_per_bar) not in busy_bars:
            continue
        if any(abs(h.start_beat - at) < 0.1 for h in hats):
            continue
        notes.append(
            Note(
                pitch=CLOSED_HAT,
                velocity=max(1, round(velocity * 0.75)),
                start_beat=on_tick(at),
                duration_beats=0.1,
                channel=notes[0].channel,
            )
        )
    return sorted(notes, key=lambda n: (n.start_beat, n.pitch))


def _bass_ghosts(notes: Sequence[Note], rng: random.Random) -> list[Note]:
    ordered = sorted(notes, key=lambda n: n.start_beat)
    added = []
    for previous, note in zip([None, *ordered[:-1]], ordered, strict=True):
        gap_from = previous.end_beat if previous else 0.0
        at = note.start_beat - 0.25
        if at >= gap_from + 0.25 and rng.random() < 0.5:
            velocity = rng.randint(*GHOST_VELOCITY)
            added.append(
                note.model_copy(
                    update={
                        "start_beat": on_tick(at),
                        "duration_beats": 0.0625,
                        "velocity": velocity,
                    }
                )
            )
    return sorted([*ordered, *added], key=lambda n: (n.start_beat, n.pitch))


def _cut(note: Note, at: float) -> Note:
    if note.end_beat <= at:
        return note
    return note.model_copy(update={"duration_beats": on_tick(max(TICK, at - note.start_beat))})


def on_tick(beats: float) -> float:
    """`beats` on the nearest tick of 960 per beat, as the MIDI files are written."""
    return round(beats * 960) / 960
