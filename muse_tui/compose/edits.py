"""Surgical edits a producer asks for: recolour a chord, thin or fill a part, ghost notes, swing.

Every function is pure: contracts in, contracts out, an RNG passed in where a
choice is made. Part edits work on one Region at a time (notes relative to its
start, which sits on a bar line); a section-scoped edit only passes that
section's regions. What must outlive a regeneration of the part is kept as a
standing edit or a take (`compose.takes`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from muse_tui.compose.harmony import REGISTERS
from muse_tui.compose.humanize import swing_position, unswing_position
from muse_tui.contracts import (
    EnrichedProgression,
    HarmonicFunction,
    Note,
    ProgressionChord,
    Region,
)
from muse_tui.theory import (
    Chord,
    ChordSyntaxError,
    Key,
    parse_chord,
    parse_key,
    to_roman,
    voice,
    voice_lead,
)
from muse_tui.theory.drums import KICK, KICK_ACOUSTIC

SNARES = (38, 40, 37)
CLOSED_HAT = 42
HATS = frozenset({42, 44, 46})
MONOPHONIC = frozenset({"bass", "sub_bass", "lead"})
THIN_SHARE = 0.3  # a "simpler" removes about this share of what can go, per step
GHOST_VELOCITY = (22, 38)
GHOST_CEILING = 45  # notes this soft on a snare (or a short bass note) count as ghosts
_TICK = 1 / 960
_BASE_TENSION: dict[str, float] = {
    "tonic": 0.1, "predominant": 0.35, "dominant": 0.6, "secondary_dominant": 0.65,
    "borrowed": 0.45, "chromatic": 0.75, "passing": 0.5,
}  # fmt: skip


class EditError(ValueError):
    """An edit that cannot be made; the message is one sentence a producer reads."""


@dataclass(frozen=True)
class Groove:
    """What a part edit needs to know about the song's time: bar length and swing."""

    beats_per_bar: float = 4.0
    swing: float = 50.0
    swing_unit: str = "16th"


# ── harmony ─────────────────────────────────────────────────────────────────
def song_key_of(progression: EnrichedProgression) -> Key:
    try:
        return parse_key(f"{progression.key} {progression.mode}")
    except ValueError:
        return parse_key(progression.key)


def recoloured(
    progression: EnrichedProgression,
    indices: Sequence[int],
    direction: str,
    voicing_style: str = "close",
) -> EnrichedProgression:
    """The progression with the chords at `indices` made darker or brighter.

    A major chord turns minor (IV → iv), a dominant gains a flat nine (keeping
    its pull), a minor chord gives way to the major chord a third below
    (vi → IV, i → bVI); brighter goes the other way. Raises EditError when none can move.
    """
    key = song_key_of(progression)
    shift = _darker if direction == "darker" else _brighter
    chords = list(progression.chords)
    moved = 0
    for index in indices:
        try:
            chord = parse_chord(chords[index].symbol)
        except ChordSyntaxError:
            continue
        new = shift(chord, key)
        if new is None:
            continue
        chords[index] = _placed(new, chords, index, key, chords[index], voicing_style)
        moved += 1
    if not moved:
        raise EditError(f"that is already as {direction.removesuffix('er')} as those chords go.")
    return progression.model_copy(update={"chords": chords})


def with_chord(
    progression: EnrichedProgression, index: int, symbol: str, voicing_style: str = "close"
) -> EnrichedProgression:
    """The progression with one chord replaced by `symbol`, voice-led from its neighbour."""
    try:
        chord = parse_chord(symbol)
    except ChordSyntaxError as exc:
        raise EditError(f"cannot read the chord {symbol!r}: {exc}") from None
    key = song_key_of(progression)
    chords = list(progression.chords)
    chords[index] = _placed(chord, chords, index, key, chords[index], voicing_style)
    return progression.model_copy(update={"chords": chords})


def transposed(progression: EnrichedProgression, semitones: int, key: Key) -> EnrichedProgression:
    """The same progression in another key of the same mode, kept in its register."""
    shift = semitones % 12
    shift = shift - 12 if shift > 6 else shift
    chords = []
    for chord in progression.chords:
        try:
            parsed = parse_chord(chord.symbol)
        except ChordSyntaxError:
            chords.append(chord.model_copy(update={"voicing": [p + shift for p in chord.voicing]}))
            continue
        moved = parsed.transpose(shift)
        bass = key.spell(moved.bass_pc) if moved.bass_name else None
        moved = Chord(key.spell(moved.root_pc), moved.degrees, bass)
        voicing = [min(127, max(0, p + shift)) for p in chord.voicing]
        chords.append(
            chord.model_copy(
                update={
                    "symbol": moved.symbol,
                    "roman": to_roman(moved, key) or chord.roman,
                    "voicing": voicing,
                }
            )
        )
    return progression.model_copy(update={"key": key.tonic, "mode": key.mode, "chords": chords})


def reversed_motion(progression: EnrichedProgression, style: str = "close") -> EnrichedProgression:
    """The chords from the tonic with the rest played backwards: what descended now rises."""
    chords = [progression.chords[0], *reversed(progression.chords[1:])]
    low, high = REGISTERS.get(style, REGISTERS["close"])
    voiced = [chords[0]]
    for chord in chords[1:]:
        voicing = voice_lead(voiced[-1].voicing, parse_chord(chord.symbol), low, high)
        voiced.append(chord.model_copy(update={"voicing": list(voicing)}))
    return progression.model_copy(update={"chords": voiced})


def _darker(chord: Chord, key: Key) -> Chord | None:
    tones = set(chord.degrees)
    if (3, 0) in tones and (7, -1) in tones:  # a dominant: darken the ninth, keep the pull
        if (9, -1) in tones:
            return None
        tones.discard((9, 0))
        return Chord(chord.root_name, tones | {(9, -1)})
    if (3, 0) in tones:
        tones = (tones - {(3, 0), (7, 0), (5, 1)}) | {(3, -1)}
        tones |= {(7, -1)} if (7, 0) in chord.degrees else set()
        tones |= {(5, 0)} if (5, 1) in chord.degrees else set()
        return Chord(chord.root_name, tones)
    if (3, -1) in tones and (5, 0) in tones:  # minor: the major chord a major third below
        return _relative(chord, key, -4, third=(3, 0))
    return None


def _brighter(chord: Chord, key: Key) -> Chord | None:
    tones = set(chord.degrees)
    if (5, -1) in tones and (3, -1) in tones:  # half-diminished or diminished: open the fifth
        tones = (tones - {(5, -1), (7, -2)}) | {(5, 0)}
        return Chord(chord.root_name, tones)
    if (3, -1) in tones:
        tones = (tones - {(3, -1), (7, 0)}) | {(3, 0)}
        return Chord(chord.root_name, tones | ({(7, -1)} if (7, 0) in chord.degrees else set()))
    if (3, 0) in tones and (9, -1) in tones:
        return Chord(chord.root_name, (tones - {(9, -1)}) | {(9, 0)})
    if (3, 0) in tones:  # major: the minor chord a major third above
        return _relative(chord, key, 4, third=(3, -1))
    return None


def _relative(chord: Chord, key: Key, semitones: int, third: tuple[int, int]) -> Chord:
    """The chord sharing two notes a major third away; a seventh or ninth comes along."""
    tones = {(1, 0), third, (5, 0)}
    if any(d == 7 for d, _ in chord.degrees):
        tones.add((7, 0) if third == (3, 0) else (7, -1))
        if any(d == 9 for d, _ in chord.degrees):
            tones.add((9, 0))
    return Chord(key.spell((chord.root_pc + semitones) % 12), tones)


def _placed(
    chord: Chord,
    chords: list[ProgressionChord],
    index: int,
    key: Key,
    old: ProgressionChord,
    style: str,
) -> ProgressionChord:
    low, high = REGISTERS.get(style, REGISTERS["close"])
    before = chords[index - 1].voicing if len(chords) > 1 else None
    voicing = voice_lead(before, chord, low, high) if before else voice(chord, style, low, high)
    outside = len(chord.pitch_classes - set(key.pitch_classes))
    function: HarmonicFunction = old.function
    if outside:
        function = (
            "borrowed" if old.function not in ("dominant", "secondary_dominant") else function
        )
    elif chord.root_pc != parse_chord(old.symbol).root_pc:
        function = "predominant" if (chord.root_pc - key.tonic_pc) % 12 in (2, 5) else "tonic"
    extensions = max(0, len(chord.pitch_classes) - 3)
    tension = min(1.0, _BASE_TENSION[function] + 0.05 * extensions + 0.08 * outside)
    return old.model_copy(
        update={
            "symbol": chord.symbol,
            "roman": to_roman(chord, key) or "?",
            "voicing": list(voicing),
            "function": function,
            "tension": round(tension, 3),
        }
    )


# ── parts ───────────────────────────────────────────────────────────────────
def thinned(region: Region, steps: int, groove: Groove, role: str) -> Region:
    """Fewer notes: the weakest beats go first, the downbeats always stay; a bass holds over."""
    if steps <= 0 or not region.notes:
        return region
    notes = sorted(region.notes, key=lambda n: (n.start_beat, n.pitch))
    drums = role in ("drums", "percussion")
    units = [[n] for n in notes] if drums else _onsets(notes)
    ranked = sorted(
        (u for u in units if _weight(u[0].start_beat, groove) < 4),
        key=lambda u: (_priority(u, groove, drums), -u[0].start_beat),
    )
    share = 1 - (1 - THIN_SHARE) ** steps
    gone = {id(n) for u in ranked[: math.ceil(len(ranked) * share)] for n in u}
    kept = [n for n in notes if id(n) not in gone]
    if role in MONOPHONIC:
        kept = _held_over(kept, [n for n in notes if id(n) in gone], region.length_beats)
    return region.model_copy(update={"notes": kept})


def filled(region: Region, steps: int, groove: Groove, role: str) -> Region:
    """More notes: drums get hats on the 8ths (16ths at two steps), other parts repeat into gaps."""
    if steps <= 0 or not region.notes:
        return region
    if role in ("drums", "percussion"):
        return region.model_copy(update={"notes": _with_hats(region, steps, groove)})
    onsets = _onsets(sorted(region.notes, key=lambda n: (n.start_beat, n.pitch)))
    gap_needed = 1.0 if steps == 1 else 0.5
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
                        "start_beat": _tick(echo),
                        "duration_beats": _tick(length),
                        "velocity": max(1, round(note.velocity * 0.8)),
                    }
                )
            )
    return region.model_copy(update={"notes": sorted(notes, key=lambda n: (n.start_beat, n.pitch))})


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
                    start_beat=_tick(at),
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
        length = max(_TICK, min(end, region.length_beats) - start)
        notes.append(
            note.model_copy(update={"start_beat": _tick(start), "duration_beats": _tick(length)})
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
        result.append(note.model_copy(update={"duration_beats": _tick(end - note.start_beat)}))
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
                start_beat=_tick(at),
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
                    update={"start_beat": _tick(at), "duration_beats": 0.0625, "velocity": velocity}
                )
            )
    return sorted([*ordered, *added], key=lambda n: (n.start_beat, n.pitch))


def _cut(note: Note, at: float) -> Note:
    if note.end_beat <= at:
        return note
    return note.model_copy(update={"duration_beats": _tick(max(_TICK, at - note.start_beat))})


def _tick(beats: float) -> float:
    return round(beats * 960) / 960
