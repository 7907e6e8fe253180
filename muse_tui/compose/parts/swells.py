"""The pedal steel's player (`swell` idioms of `sound/articulations.json`).

A steel player does not pick 8ths or hold block chords: each phrase note swells
in on the volume pedal and is bent up into pitch with a pedal or knee lever; the
line moves in double stops (a third or a sixth under the top note, the E9
tuning's grips); a step to the next note is a bar slide; and where the singer
breathes the steel answers with a short fill falling through the chord (Lloyd
Green, Buddy Emmons; Jeff Newman's pedal steel courses teach these moves).
"""

from __future__ import annotations

from muse_tui.contracts import ControlChange, PitchBend
from muse_tui.knowledge.articulations import Idiom
from muse_tui.theory import fold_into

from ..humanize import Draft
from .context import PartContext, PartDraft
from .harmony import SoundingChord

#: Intervals under the top note a steel grip adds: thirds, then sixths.
_GRIPS = (3, 4, 8, 9)
#: Pitch-bend units per semitone (the GM default range of two semitones).
_PER_SEMITONE = 4096
#: A rest this long (beats) between phrases gets a fill.
_FILL_GAP = 2.0
#: A fill's notes: how many, how long each (beats).
_FILL_NOTES, _FILL_STEP = 3, 0.5
_GAP = 0.05
#: A lead note this long (beats) is held long enough to take a grip under it.
_HELD = 3.0


def swell(ctx: PartContext, draft: PartDraft, idiom: Idiom) -> PartDraft:
    """Notes joined into swells of at least `longest` beats that keep the phrase's rests,
    each rising on CC `controller` and bent up into pitch from `bend` below; with
    `doubleStops`, a third or sixth under each note (under a lead's held and
    phrase-ending notes only: the tune stays one line); with `fills`, a falling fill
    in every rest of two beats or more; a step of one or two semitones slides."""
    onsets = sorted({n.start for n in draft.notes})
    kept: list[float] = []
    for start in onsets:
        if not kept or start - kept[-1] >= idiom.longest:
            kept.append(start)
    nexts = [*kept[1:], ctx.length]
    notes: list[Draft] = []
    controls = list(draft.control_changes)
    bends = list(draft.pitch_bends)
    channel = ctx.track.channel
    previous_top: int | None = None
    for start, after in zip(kept, nexts, strict=True):
        absorbed = [n for n in draft.notes if start - 1e-6 <= n.start < after - 1e-6]
        drafted_end = max(n.end for n in absorbed)
        room = after - start - _GAP
        length = min(max(drafted_end - start, idiom.longest), max(room, idiom.longest / 2))
        if idiom.fills and _turnaround(ctx, start, after):
            length = min(length, after - start - _FILL_GAP - _GAP)  # room to fill into it
        struck = [n for n in absorbed if abs(n.start - start) < 1e-6]
        top = max(struck, key=lambda n: n.pitch)
        pitch = _into(top.pitch, idiom.pitch_range)
        chord = ctx.harmony.at(start)
        rest_starts = start + length + _GAP
        phrase_end = after - rest_starts >= _FILL_GAP and after < ctx.length
        grip = [pitch]
        held = phrase_end or length >= _HELD
        gripped = idiom.double_stops and (ctx.track.role != "lead" or held)
        if gripped and (under := _under(pitch, struck, chord)) is not None:
            grip.append(under)
        notes += [Draft(p, top.velocity, start, length, top.voice) for p in grip]
        controls += _pedal(start, length, idiom.controller, channel)
        if previous_top is not None and 0 < abs(pitch - previous_top) <= 2 and notes:
            bends += _slide(start, pitch - previous_top, channel)  # the bar slides over
        elif idiom.bend:
            bends += _bend_in(start, idiom.bend, channel)
        previous_top = pitch
        if idiom.fills and phrase_end:
            rest = (start + length + _GAP, after)
            notes += _fill(ctx, pitch, top.velocity * 0.8, rest, idiom.pitch_range)
            previous_top = None
    return PartDraft(notes, controls, bends, draft.feel)


def _turnaround(ctx: PartContext, start: float, after: float) -> bool:
    """Under someone else's tune, a grip held over the bar line into every second bar
    leaves its last two beats to a fill into the next chord (the steel's turnaround)."""
    if ctx.track.role == "lead" or after - start < 2 * _FILL_GAP or after >= ctx.length:
        return False
    bar = after / ctx.beats_per_bar
    return abs(bar - round(bar)) < 1e-6 and round(bar) % 2 == 0


def _under(top: int, struck: list[Draft], chord: SoundingChord) -> int | None:
    """A third or sixth under the top note: a struck one if the draft has it, else a chord
    tone (the steel's grip), else none."""
    for interval in _GRIPS:
        if any(top - n.pitch == interval for n in struck):
            return top - interval
    for interval in _GRIPS:
        if (top - interval) % 12 in chord.tones:
            return top - interval
    return None


def _pedal(start: float, length: float, controller: int, channel: int) -> list[ControlChange]:
    """The volume pedal pressed from 40 to 120 over the first half of the note (a beat at most)."""
    rise = min(length / 2, 1.0)
    return [
        ControlChange(
            beat=start + rise * k / 4,
            controller=controller,
            value=round(40 + 80 * k / 4),
            channel=channel,
        )
        for k in range(5)
    ]


def _bend_in(start: float, bend: int, channel: int) -> list[PitchBend]:
    """Struck `bend` below and pedalled up into pitch over a 16th."""
    return [
        PitchBend(beat=start + 0.25 * k / 2, value=round(-bend * (1 - k / 2)), channel=channel)
        for k in range(3)
    ]


def _slide(start: float, semitones: int, channel: int) -> list[PitchBend]:
    """Struck at the last note's pitch and slid to this one over an 8th (the bar)."""
    bend = -semitones * _PER_SEMITONE
    value = max(-8192, min(8191, bend))
    return [
        PitchBend(beat=start + 0.5 * k / 4, value=round(value * (1 - k / 4)), channel=channel)
        for k in range(5)
    ]


def _fill(
    ctx: PartContext,
    top: int,
    velocity: float,
    rest: tuple[float, float],
    pitch_range: tuple[int, int] | None,
) -> list[Draft]:
    """A fill falling through the chord tones under the last note, inside the `rest`
    (start, end) and landing half a beat before the next phrase: 8ths, each softer."""
    begins, before = rest
    start = max(begins, before - 0.5 - _FILL_NOTES * _FILL_STEP)
    step = min(_FILL_STEP, (before - 0.5 - start) / _FILL_NOTES)
    chord = ctx.harmony.at(start)
    low, high = pitch_range or (top - 12, top + 4)
    first = min(top + 4, high)
    tones = [p for p in range(first, low - 1, -1) if p % 12 in chord.tones][:_FILL_NOTES]
    return [
        Draft(pitch, velocity * (1 - 0.08 * k), start + k * step, step - _GAP, "fill")
        for k, pitch in enumerate(tones)
    ]


def _into(pitch: int, pitch_range: tuple[int, int] | None) -> int:
    return pitch if pitch_range is None else fold_into(pitch, *pitch_range)
