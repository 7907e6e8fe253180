"""Humanising: swing, groove templates, timing and velocity spread, baked into the notes.

Parts are written on a straight 16th grid as `Draft`s; `humanize` turns them
into contract `Note`s the way an MPC would play them back: swing moves the
off-beat 8ths or 16ths, the groove template nudges each 16th step and scales
its velocity, some voices sit behind or ahead of the beat, and a little random
spread does the rest. `tidy` then guarantees what a MIDI file needs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from operator import attrgetter

from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

from muse_tui.contracts import HumanizationConfig, Note, PitchBend
from muse_tui.knowledge.rhythm import Groove, SwingUnit

TICKS_PER_BEAT = 960
_SHORTEST = 1 / 64  # beats; anything shorter is dropped rather than written


@dataclass
class Draft:
    """A note before humanising: straight-grid timing, velocity as a float before accents.

    `locked` notes were placed off the grid on purpose (hat rolls, strums): no
    swing, groove or random timing moves them.
    """

    pitch: int
    velocity: float
    start: float
    duration: float
    voice: str = ""
    locked: bool = False

    @property
    def end(self) -> float:
        return self.start + self.duration


@dataclass(frozen=True)
class Feel:
    """How one part is humanised: the groove template, swing and random spreads."""

    groove_name: str
    groove: Groove
    swing: float
    swing_unit: SwingUnit
    tempo: float
    timing_ms: float
    velocity_range: int

    def scaled(self, timing: float = 1.0, velocity: float = 1.0) -> Feel:
        """The same feel with its random spreads scaled (a tight bass, a loose shaker)."""
        return Feel(
            self.groove_name,
            self.groove,
            self.swing,
            self.swing_unit,
            self.tempo,
            self.timing_ms * timing,
            round(self.velocity_range * velocity),
        )

    @property
    def config(self) -> HumanizationConfig:
        return HumanizationConfig(
            timing_ms=self.timing_ms, velocity_range=self.velocity_range, swing=self.swing
        )

    def ms_to_beats(self, ms: float) -> float:
        return ms / 1000 * self.tempo / 60


def _pair(unit: SwingUnit) -> float:
    return 1.0 if unit == "8th" else 0.5


def _pair_start(beat: float, pair: float, bar: float | None) -> float:
    """Where the swing pair holding `beat` starts. Pairs are counted from each bar line
    when the bar is not whole pairs long (7/8 swung in 8ths): every downbeat stays put."""
    if bar is None or not bar % pair:
        return (beat // pair) * pair
    bar_start = (beat // bar) * bar
    return bar_start + ((beat - bar_start) // pair) * pair


def _in_pair(
    beat: float, swing: float, unit: SwingUnit, bar: float | None = None
) -> tuple[float, ...]:
    """The swing pair `beat` falls in: length, start, how far in, the swung split, and half."""
    pair = _pair(unit)
    origin = _pair_start(beat, pair, bar)
    return pair, origin, beat - origin, pair * swing / 100, pair / 2


def swing_position(beat: float, swing: float, unit: SwingUnit) -> float:
    """Where a straight-grid position lands under MPC swing (50 straight, 66 triplet).

    The second 8th (or 16th) of each pair moves to `swing`% of the pair; the
    positions between stretch with it, so note ends move consistently too.
    """
    return _swinger(swing, unit)(beat)


def unswing_position(beat: float, swing: float, unit: SwingUnit, bar: float | None = None) -> float:
    """The straight-grid position a swung position came from (reading a kick back onto the grid).

    `bar`: the bar's length in beats, where pairs count from each bar line (see `_pair_start`).
    """
    pair, origin, inside, split, half = _in_pair(beat, swing, unit, bar)
    if inside <= split:
        return origin + inside * half / split
    return origin + half + (inside - split) * half / (pair - split)


def _swinger(swing: float, unit: SwingUnit, bar: float | None = None) -> Callable[[float], float]:
    """`swing_position` of one feel as a function of the beat, the pair's sizes worked out
    once: `humanize` places every note of a part with one. `bar` as in `unswing_position`."""
    pair = _pair(unit)
    split, half = pair * swing / 100, pair / 2
    rest = pair - split
    if bar is not None and bar % pair:
        return lambda beat: _swung_in_bar(beat, pair, bar, split, half, rest)

    def position(beat: float) -> float:
        origin = (beat // pair) * pair
        inside = beat - origin
        if inside <= half:
            return origin + inside * split / half
        return origin + split + (inside - half) * rest / half

    return position


def _swung_in_bar(
    beat: float, pair: float, bar: float, split: float, half: float, rest: float
) -> float:
    origin = _pair_start(beat, pair, bar)
    inside = beat - origin
    if inside <= half:
        return origin + inside * split / half
    return origin + split + (inside - half) * rest / half


def humanize(drafts: Iterable[Draft], feel: Feel, rng: random.Random, channel: int) -> list[Note]:
    """Notes as played with `feel`, one per draft, in the drafts' order (none dropped yet).

    Every note of a song passes through here, so the loop reads the feel once,
    finds the 16th step and rounds to ticks in line, and builds each note without
    validating it: the velocity, start and length it computes are always in
    range, so only the pitch, which comes from the part, is checked (`played_note`).
    """
    sigma = feel.ms_to_beats(feel.timing_ms) / 2
    low, high = -2 * sigma, 2 * sigma
    groove = feel.groove
    timing, accents = groove.timing, groove.accents
    bar = len(timing)  # 16 steps in 4/4; a template fitted to another meter has its bar's
    offsets = {voice: feel.ms_to_beats(ms) for voice, ms in groove.voice_offsets_ms.items()}
    swung = _swinger(feel.swing, feel.swing_unit, len(timing) * 0.25)
    spread = feel.velocity_range
    width = spread - -spread  # `rng.uniform(-spread, spread)` in line: a + (b - a) * random()
    gauss, random_ = rng.gauss, rng.random
    tpb, shortest = TICKS_PER_BEAT, 1 / TICKS_PER_BEAT
    trusted = _TRUSTED and type(channel) is int and 0 <= channel <= 15
    # Clamps are comparisons, not min()/max() calls, and a trusted note is built in line
    # (`_note`): the loop runs for every note of a song.
    new, set_dict = _new, _set
    set_fields, set_extra, set_private = _set_fields, _set_extra, _set_private
    note_fields = _NOTE_FIELDS
    notes: list[Note] = []
    add = notes.append
    hands: dict[tuple[str, int], float] = {}
    for draft in drafts:
        start = draft.start
        end = start + draft.duration
        accent = 1.0
        if not draft.locked:
            shift = offsets.get(draft.voice, 0.0)
            steps = start * 4
            step = round(steps)
            if abs(steps - step) < 1e-6:  # on the 16th grid: the groove template's step
                shift += timing[step % bar] * 0.25
                accent = accents[step % bar]
            if sigma > 0:
                # the notes of one chord (one voice, one 16th: a block or a strum) are struck
                # by one hand: they move together, or a chord falls apart into fragments; a
                # note a repeat added later (a doubled top) joins its chord's hand
                hand = (draft.voice, int(steps + 1e-6))
                wobble = hands.get(hand)
                if wobble is None:
                    wobble = hands[hand] = gauss(0, sigma)
                shift += high if wobble > high else low if wobble < low else wobble
            start = swung(start) + shift
            end = swung(end) + shift
        velocity = round(draft.velocity * accent + (-spread + width * random_() if spread else 0.0))
        velocity = 1 if velocity < 1 else 127 if velocity > 127 else velocity
        if start < 0.0:
            start = 0.0
        onset = round(start * tpb) / tpb
        length = round((end - start) * tpb) / tpb
        if length < shortest:
            length = shortest
        pitch = draft.pitch
        if trusted and type(pitch) is int and 0 <= pitch <= 127:
            note = new(Note)
            set_dict(
                note,
                "__dict__",
                {
                    "pitch": pitch,
                    "velocity": velocity,
                    "start_beat": onset,
                    "duration_beats": length,
                    "channel": channel,
                },
            )
            set_fields(note, set(note_fields))
            set_extra(note, None)
            set_private(note, None)
            add(note)
        else:
            add(played_note(pitch, velocity, onset, length, channel))
    return notes


def played_note(pitch: int, velocity: int, start: float, duration: float, channel: int) -> Note:
    """`Note(...)`, without pydantic's validation when the values are plainly valid.

    Validating ~2,000 notes a song costs more than writing them. Values that the
    model would accept unchanged (ints in range, a start >= 0, a duration > 0)
    are stored as given; anything else (a float pitch, NaN, out of range) goes
    through `Note(...)`, which converts or refuses it exactly as before. If `Note`
    changes shape (a field, a bound, a validator), every note is validated again
    (`_TRUSTED` is then False), so the checks below cannot fall behind the model.
    """
    if (
        _TRUSTED
        and type(pitch) is int
        and type(velocity) is int
        and type(channel) is int
        and type(start) is float
        and type(duration) is float
        and 0 <= pitch <= 127
        and 1 <= velocity <= 127
        and 0 <= channel <= 15
        and start >= 0
        and duration > 0
    ):
        return _note(pitch, velocity, start, duration, channel)
    return Note(
        pitch=pitch, velocity=velocity, start_beat=start, duration_beats=duration, channel=channel
    )


def _note(pitch: int, velocity: int, start: float, duration: float, channel: int) -> Note:
    """A `Note` of values already known valid, stored as `model_construct` would store them."""
    note = _new(Note)
    _set(
        note,
        "__dict__",
        {
            "pitch": pitch,
            "velocity": velocity,
            "start_beat": start,
            "duration_beats": duration,
            "channel": channel,
        },
    )
    _set_fields(note, set(_NOTE_FIELDS))  # its own: copies add to it
    _set_extra(note, None)
    _set_private(note, None)
    return note


def retimed(note: Note, duration: float, channel: int) -> Note:
    """`note` lasting `duration` on `channel`: `played_note` of a note already valid, whose
    pitch, velocity and start need no second look."""
    if (
        _TRUSTED
        and type(duration) is float
        and duration > 0
        and type(channel) is int
        and 0 <= channel <= 15
    ):
        return _note(note.pitch, note.velocity, note.start_beat, duration, channel)
    return played_note(note.pitch, note.velocity, note.start_beat, duration, channel)


def played_bends(points: Iterable[tuple[float, int]], channel: int) -> list[PitchBend]:
    """`PitchBend(...)` of each (beat, value), unvalidated when plainly valid, as
    `played_note` does for notes; anything doubtful goes through validation.

    A glide writes eight bends into every note it slides to: the most numerous
    events of a song after its notes.
    """
    trusted = _TRUSTED_BEND and type(channel) is int and 0 <= channel <= 15
    new, set_dict = _new, _set
    set_fields, set_extra, set_private = _set_fields, _set_extra, _set_private
    bends: list[PitchBend] = []
    for beat, value in points:
        if (
            trusted
            and type(beat) is float
            and type(value) is int
            and beat >= 0
            and (-8192 <= value <= 8191)
        ):
            bend = new(PitchBend)
            set_dict(bend, "__dict__", {"beat": beat, "value": value, "channel": channel})
            set_fields(bend, set(_BEND_FIELDS))
            set_extra(bend, None)
            set_private(bend, None)
            bends.append(bend)
        else:
            bends.append(PitchBend(beat=beat, value=value, channel=channel))
    return bends


def _shape(*declared: tuple[str, type, FieldInfo]) -> dict[str, tuple[type, tuple[object, ...]]]:
    return {name: (kind, tuple(bounds.metadata)) for name, kind, bounds in declared}


#: The shapes `played_note` and `played_bends` check by hand: each field's type and bounds,
#: as `Note` and `PitchBend` declare them.
NOTE_SHAPE = _shape(
    ("pitch", int, Field(ge=0, le=127)),
    ("velocity", int, Field(ge=1, le=127)),
    ("start_beat", float, Field(ge=0)),
    ("duration_beats", float, Field(gt=0)),
    ("channel", int, Field(ge=0, le=15)),
)
BEND_SHAPE = _shape(
    ("beat", float, Field(ge=0)),
    ("value", int, Field(ge=-8192, le=8191)),
    ("channel", int, Field(ge=0, le=15)),
)
_NOTE_FIELDS = frozenset(NOTE_SHAPE)
_BEND_FIELDS = frozenset(BEND_SHAPE)


def shaped_as(model: type[BaseModel], shape: dict[str, tuple[type, tuple[object, ...]]]) -> bool:
    """Whether `model` has exactly `shape`: the same fields, types and bounds, and nothing
    that runs on validation (validators, serializers, a post-init) or lives beside the
    fields (private attributes)."""
    declared = {
        name: (field.annotation, tuple(field.metadata))
        for name, field in model.model_fields.items()
    }
    hooks = model.__pydantic_decorators__
    return (
        declared == shape
        and not model.__pydantic_post_init__
        and not model.__private_attributes__
        and not any(getattr(hooks, f.name) for f in fields(hooks))
    )


#: What `BaseModel.model_construct` stores, minus its loop, is only safe for the shape known.
_TRUSTED = shaped_as(Note, NOTE_SHAPE)
_TRUSTED_BEND = shaped_as(PitchBend, BEND_SHAPE)
_new = object.__new__
_set = object.__setattr__
#: A model's slots, set through their descriptors: a third quicker than `object.__setattr__`.
_set_fields = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def tidy(notes: Iterable[Note], length: float) -> list[Note]:
    """Notes fit for a MIDI file: inside the region, no same-pitch overlaps, none too short.

    Two notes of one pitch starting together become the louder one; a note is
    cut where the next note of its pitch starts.
    """
    by_pitch: dict[int, list[Note]] = {}
    last_start, tpb = length - _SHORTEST, TICKS_PER_BEAT
    for note in notes:  # every note of a song: `end_beat` and `_tick` in line
        start, duration = note.start_beat, note.duration_beats
        if start < last_start:
            end = start + duration
            fitted = round(((end if end <= length else length) - start) * tpb) / tpb
            if fitted != duration:  # most notes are on ticks already: no copy
                note = _lasting(note, fitted)
            same = by_pitch.get(note.pitch)
            if same is None:
                by_pitch[note.pitch] = [note]
            else:
                same.append(note)
    kept: list[Note] = []
    for same in by_pitch.values():
        same.sort(key=_earliest_loudest)
        previous: Note | None = None
        for note in same:
            if previous is not None:
                if note.start_beat - previous.start_beat < _SHORTEST:
                    continue  # a double hit: the louder (sorted first) stays
                if previous.start_beat + previous.duration_beats > note.start_beat:
                    kept[-1] = _lasting(previous, _tick(note.start_beat - previous.start_beat))
            kept.append(note)
            previous = note
    final = [n for n in kept if n.duration_beats >= _SHORTEST]
    final.sort(key=_START_AND_PITCH)
    return final


def _earliest_loudest(note: Note) -> tuple[float, int]:
    return note.start_beat, -note.velocity


_START_AND_PITCH = attrgetter("start_beat", "pitch")


def one_at_a_time(notes: Iterable[Note]) -> list[Note]:
    """The notes of a one-voice player (a sax, a flute): of notes starting together the
    highest stays, and each note stops a tick before the next one starts, whatever
    humanising did to their timing."""
    line: list[Note] = []
    for note in sorted(notes, key=lambda n: (n.start_beat, -n.pitch)):
        if line and note.start_beat - line[-1].start_beat < _SHORTEST:
            continue  # struck with the one before, which is higher
        if line and line[-1].start_beat + line[-1].duration_beats > note.start_beat:
            line[-1] = _lasting(line[-1], _tick(note.start_beat - line[-1].start_beat) - _ONE_TICK)
        line.append(note)
    return [n for n in line if n.duration_beats >= _SHORTEST]


def _lasting(note: Note, duration: float) -> Note:
    """`note` lasting `duration`; like `model_copy`, a length of 0 passes (tidy drops it next)."""
    if duration > 0:
        return played_note(note.pitch, note.velocity, note.start_beat, duration, note.channel)
    return note.model_copy(update={"duration_beats": duration})


def _tick(beats: float) -> float:
    return round(beats * TICKS_PER_BEAT) / TICKS_PER_BEAT


_ONE_TICK = 1 / TICKS_PER_BEAT
