"""Bass lines by idiom: each style of `skills/rhythm/bass-patterns.json` is a grid and traits.

Kick-locked styles (boom bap, syncopated, 808) read the kick of the drum part of
the same section back onto the grid and play on it, adding a note where a chord
changes without a kick. Gliding styles (808s, the amapiano log drum, reese) bend
into the next note: pitch bends ramping into it, reset at it, with the bend range
set to an octave (RPN 0) at the start of every region. A wobble bass holds its
notes under a tempo-synced filter LFO (`wobble`). The last note of a
section lands on the tonic when the chord under it holds one, so the key is
heard where phrases end.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from muse_tui.contracts import ControlChange, Note, PitchBend, Region
from muse_tui.knowledge.meters import MeterGrids
from muse_tui.knowledge.rhythm import BassInMeter, BassRhythm, GridLevels, meter_key
from muse_tui.theory.drums import KICK, KICK_ACOUSTIC

from ..humanize import Draft, played_bends, played_note, unswing_position
from .context import PartContext, PartDraft
from .grid import STEP, at_half_speed, pick_per_phrase, read_hits
from .harmony import SoundingChord, nearest_pitch
from .wobble import wobble

GLIDE_RANGE = 12  # semitones of pitch bend the RPN sets up
_DEAD_NOTE = 0.12  # beats a muted (dead) note sounds


@dataclass(frozen=True)
class _Event:
    start: float
    length: float
    letter: str


def bass_style_for(ctx: PartContext) -> str:
    """The style this track plays: a sub-bass track plays the genre's 808, else the family's sub.

    A sub bass or an 808 named in a genre with a bassline of its own ("reggae, sub bass",
    "salsa with an 808") and no other bass track is that genre's bass player on another
    sound: it plays the one-drop or the tumbao, not a held root under a bass that is not there.
    """
    style = ctx.style.bass_style
    if ctx.track.role == "sub_bass":
        if style != "none" and ctx.table.bass[style].sub:  # type: ignore[index]
            return style
        if style != "none" and not any(t.role == "bass" for t in ctx.band):
            return style
        family = ctx.table.drums.families.get(ctx.style.family)  # type: ignore[call-overload]
        return family.sub_bass_style if family is not None else "sustained"
    return "sustained" if style == "none" else style


def write_bass(ctx: PartContext, rng: random.Random, kick_source: Region | None) -> PartDraft:
    """The bass part of one section (`kick_source`: the drums of the same section, if any)."""
    style = bass_style_for(ctx)
    rhythm = ctx.table.bass[style]  # type: ignore[index]
    onsets = kick_onsets(ctx, kick_source) if rhythm.kick_locked else []
    if onsets:
        events = _locked_events(ctx, style, onsets, rng)
    else:
        levels = _levels(ctx, rhythm)
        options = getattr(levels, ctx.density)
        if ctx.half_time:
            options = [at_half_speed(g) for g in options]
        grids = pick_per_phrase(options, ctx.bars, rng)
        hits = read_hits(grids, ctx.bar_steps, "R", ctx.fit_plan)
        events = [_Event(h.start, h.length, h.letter) for h in hits]
        if ctx.half_time:
            events = _restruck(ctx, events)
    if rhythm.walks:
        events = _walked(ctx, events)
    pitches = _pitches(ctx, events, rng, rhythm.chromatic)
    if rhythm.slides:
        pitches = _slid(ctx, pitches, rhythm.slides, rng)
    pitches = _pedal(ctx, events) if rhythm.pedal else _home(ctx, events, pitches)
    notes = [
        Draft(pitch, _velocity(ctx, e), e.start, _duration(ctx, style, e), "bass")
        for e, pitch in zip(events, pitches, strict=True)
    ]
    tight = 0.5 if rhythm.kick_locked else 0.8
    draft = PartDraft(notes=notes, feel=ctx.feel.scaled(timing=tight, velocity=0.6))
    if rhythm.glide:
        draft.control_changes = _bend_range(ctx.track.channel)
        glides = _glides(ctx, events, pitches, rhythm.glide, rng)
        draft.finish = lambda played: _glide_bends(played, glides, ctx.track.channel)
    if rhythm.wobble is not None:
        spans = [(e.start, e.start + e.length) for e in events]
        draft.control_changes = [*draft.control_changes, *wobble(ctx, rhythm.wobble, spans, rng)]
    return draft


def _levels(ctx: PartContext, rhythm: BassRhythm) -> GridLevels | BassInMeter | MeterGrids:
    """The grids the style plays in this meter: its own bar there (a tumbao in 7/8), else the
    meter's groove (an 808 keeps its own), else its 4/4 grids fitted to the meter."""
    if ctx.meter_groove is None:
        return rhythm
    own = rhythm.meters.get(meter_key(ctx.meter))
    if own is not None:
        return own
    return rhythm if rhythm.sub else ctx.meter_groove.bass


def _restruck(ctx: PartContext, events: list[_Event]) -> list[_Event]:
    """A note held at half speed over a chord change is struck again there, on the new root."""
    changes = sorted(c.start for c in ctx.harmony.chords if 0 < c.start < ctx.length)
    out: list[_Event] = []
    for event in events:
        start, letter = event.start, event.letter
        end = event.start + event.length
        for change in changes:
            if start < change < end:
                out.append(_Event(start, change - start, letter))
                start, letter = change, "R"
        out.append(_Event(start, end - start, letter))
    return out


def kick_onsets(ctx: PartContext, kick_source: Region | None) -> list[float]:
    """The kicks of the drum region, read back onto the 16th grid (swing and push undone)."""
    if kick_source is None:
        return []
    feel = ctx.feel
    onsets = {
        round(unswing_position(n.start_beat, feel.swing, feel.swing_unit, ctx.beats_per_bar) / STEP)
        * STEP
        for n in kick_source.notes
        if n.pitch in (KICK, KICK_ACOUSTIC)
    }
    return sorted(o for o in onsets if 0 <= o < ctx.length)


def _locked_events(
    ctx: PartContext, style: str, onsets: list[float], rng: random.Random
) -> list[_Event]:
    """Notes on the kicks, plus one wherever a chord changes on a beat with no kick near it.

    Quiet sections keep only the kicks on beats 1 and 3: four-on-the-floor kicks
    would otherwise make an intro bass as busy as the chorus.
    """
    if ctx.density == "sparse":
        half = ctx.beats_per_bar / 2
        onsets = [o for o in onsets if abs(o / half - round(o / half)) < 1e-6] or onsets[:1]
    times = set(onsets)
    for chord in ctx.harmony.chords:
        on_beat = abs(chord.start - round(chord.start)) < 1e-6
        if (
            on_beat
            and 0 <= chord.start < ctx.length
            and all(abs(chord.start - o) > STEP for o in onsets)
        ):
            times.add(chord.start)
    if style == "syncopated" and ctx.density == "busy":
        for onset in onsets[1:]:
            room = onset - 1.0 >= max(t for t in times if t < onset)
            if onset - STEP not in times and room and rng.random() < 0.2:
                times.add(onset - STEP)  # a 16th pickup into the kick
    ordered = sorted(times)
    if ctx.table.bass[style].sub:  # type: ignore[index]
        ordered = _ringing(ctx, ordered)
    events = []
    for index, start in enumerate(ordered):
        end = ordered[index + 1] if index + 1 < len(ordered) else ctx.length
        chord = ctx.harmony.at(start)
        downbeat = abs(start - chord.start) < 1e-6 or start % ctx.beats_per_bar == 0
        letter = "R" if downbeat else rng.choices("R85", weights=(6, 2, 2))[0]
        if start + STEP in times and start not in onsets:
            letter = "8"  # the pickup leaps from the octave
        events.append(_Event(start, end - start, letter))
    return events


def _walked(ctx: PartContext, events: list[_Event]) -> list[_Event]:
    """A walking line through changes wherever they fall: the note on a change plays the
    new chord's bass, the note a beat or less before it approaches it.

    The grid walks a bar of one chord (root, chord tones, an approach on 4); a ii-V
    with two chords a bar changes on beat 3, where the grid has a chord tone.
    """
    changes = {round(c.start, 6) for c in ctx.harmony.chords if 0 < c.start < ctx.length}
    walked = list(events)
    for index, event in enumerate(events):
        if round(event.start, 6) not in changes:
            continue
        walked[index] = _Event(event.start, event.length, "R")
        before = walked[index - 1] if index else None
        if before is not None and before.letter != "R" and event.start - before.start <= 1.0:
            walked[index - 1] = _Event(before.start, before.length, "a")
    return walked


def _ringing(ctx: PartContext, times: list[float]) -> list[float]:
    """An 808 lets a note ring rather than retrigger within half a beat (chord changes excepted)."""
    changes = {c.start for c in ctx.harmony.chords}
    kept: list[float] = []
    for time in times:
        if not kept or time - kept[-1] >= 0.5 or time in changes:
            kept.append(time)
    return kept


def _pitches(
    ctx: PartContext, events: list[_Event], rng: random.Random, chromatic: bool = False
) -> list[int]:
    low, high = ctx.pitch_range
    home = low + (high - low) * 0.4
    previous: int | None = None
    pitches = []
    led = False  # the note before stepped or approached: land where it leads
    for event in events:
        chord = ctx.harmony.at(_sounding_for(event))
        following = ctx.harmony.at(event.start + event.length)
        pull = home if previous is None else previous if led else (previous + home) / 2
        pitch = _pitch(ctx, event.letter, chord, following, previous, pull, rng, chromatic, led)
        pitches.append(pitch)
        previous, led = pitch, event.letter in "sa"
    return pitches


def _sounding_for(event: _Event) -> float:
    """Where the chord a note plays is read: an anticipation (`n`) belongs to the chord of
    the next beat, which it arrives early for (the bossa's '&' of 4, the tumbao's 4)."""
    if event.letter != "n":
        return event.start
    return math.floor(event.start + 1e-6) + 1.0


def _pitch(
    ctx: PartContext,
    letter: str,
    chord: SoundingChord,
    following: SoundingChord,
    previous: int | None,
    near: float,
    rng: random.Random,
    chromatic: bool = False,
    led: bool = False,
) -> int:
    low, high = ctx.pitch_range
    roots_top = max(low + 11, high - 12)  # roots stay low enough to leap an octave up
    # a chromatic line lands where its walk-up leads, up to a fourth under the top
    reach = high - 5 if chromatic else roots_top
    root = nearest_pitch(near, {chord.bass_pc}, low, reach if led else roots_top)
    if letter == "5":
        return _tone_above(root, chord, (7, 6, 8), high)
    if letter == "3":
        return _tone_above(root, chord, (4, 3, 2, 5), high)
    if letter == "8":
        return root + 12 if root + 12 <= high else root
    if letter == "c" and previous is not None:
        options = [
            p
            for p in range(previous - 7, previous + 8)
            if low <= p <= high and p % 12 in chord.tones and p != previous
        ]
        if options:
            # a walking line colours beat 3 with the third or fifth before the root again
            options.sort(key=lambda p: (p % 12 == chord.root_pc, abs(p - previous)))
            return rng.choice(options[:2])
    if letter == "s" and previous is not None:
        target = nearest_pitch(previous, {following.bass_pc}, low, reach if chromatic else high)
        direction = 1 if target > previous else -1 if target < previous else rng.choice((-1, 1))
        stepped = ctx.harmony.step(previous, direction)
        return stepped if low <= stepped <= high else root
    if letter == "a" and previous is not None:
        target = nearest_pitch(previous, {following.bass_pc}, low + 1, reach)
        side = -1 if previous < target else 1
        if chromatic or (ctx.style.harmonic > 0.25 and rng.random() < ctx.style.harmonic):
            return target + side  # chromatic approach
        approach = ctx.harmony.step(target, side)
        return approach if approach != previous else ctx.harmony.step(target, -side)
    return root


def _tone_above(root: int, chord: SoundingChord, intervals: tuple[int, ...], high: int) -> int:
    for interval in intervals:
        if (root + interval) % 12 in chord.tones:
            pitch = root + interval
            return pitch if pitch <= high else pitch - 12
    return root


def _slid(ctx: PartContext, pitches: list[int], chance: float, rng: random.Random) -> list[int]:
    """Drill 808s: a repeated note jumps an octave or a fifth, so the 808 slides there."""
    low, high = ctx.pitch_range
    slid = list(pitches)
    for index in range(1, len(slid)):
        if slid[index] == slid[index - 1] and rng.random() < chance:
            moves = [m for m in (12, 7, -12, -5) if low <= slid[index] + m <= high]
            if moves:
                slid[index] += rng.choice(moves)
    return slid


def _home(ctx: PartContext, events: list[_Event], pitches: list[int]) -> list[int]:
    """The section's last note on the tonic, where the chord under it holds the tonic."""
    if not events:
        return pitches
    last = events[-1]
    chord = ctx.harmony.at(_sounding_for(last))
    tonic = ctx.harmony.key.tonic_pc
    if tonic not in chord.tones or pitches[-1] % 12 == tonic:
        return pitches
    low, high = ctx.pitch_range
    home = nearest_pitch(pitches[-1], {tonic}, low, max(low + 11, high - 12))
    return [*pitches[:-1], home]


def _pedal(ctx: PartContext, events: list[_Event]) -> list[int]:
    """The key's tonic for every note, up an octave on the grid's 8s: a pedal under the chords."""
    low, high = ctx.pitch_range
    tonic = nearest_pitch(low + (high - low) * 0.3, {ctx.harmony.key.tonic_pc}, low, high - 12)
    return [tonic + 12 if e.letter == "8" else tonic for e in events]


def _velocity(ctx: PartContext, event: _Event) -> float:
    downbeat = event.start % ctx.beats_per_bar == 0
    if event.letter == "x":
        return 58 * ctx.loud  # a dead note is felt more than heard
    return (104 if downbeat else 92) * ctx.loud


def _duration(ctx: PartContext, style: str, event: _Event) -> float:
    if event.letter == "x":
        return min(event.length, _DEAD_NOTE)
    if style == "syncopated":
        gate = {"sparse": 0.9, "base": 0.75, "busy": 0.62}[ctx.density]
        return min(event.length * gate, 2.0)
    return event.length * ctx.table.bass[style].gate  # type: ignore[index]


def _bend_range(channel: int) -> list[ControlChange]:
    """RPN 0 (pitch-bend sensitivity) = an octave, then the RPN closed again."""
    moves = [(101, 0), (100, 0), (6, GLIDE_RANGE), (38, 0), (101, 127), (100, 127)]
    return [ControlChange(beat=0, controller=c, value=v, channel=channel) for c, v in moves]


def _glides(
    ctx: PartContext, events: list[_Event], pitches: list[int], glide: float, rng: random.Random
) -> set[int]:
    """Indices of the notes that glide into the next one (more of them in hot sections)."""
    chance = glide * {"sparse": 0.7, "base": 1.0, "busy": 1.3}[ctx.density]
    return {
        i
        for i in range(len(events) - 1)
        if pitches[i] != pitches[i + 1]
        and abs(pitches[i + 1] - pitches[i]) <= GLIDE_RANGE
        and events[i].length >= 0.5
        and rng.random() < chance
    }


def _glide_bends(
    notes: list[Note], glides: set[int], channel: int
) -> tuple[list[Note], list[PitchBend]]:
    """Bend each gliding note into the next over its last 16th or so, back to 0 at the next note."""
    notes = list(notes)
    points: list[tuple[float, int]] = []
    for index in sorted(glides):
        if index + 1 >= len(notes):
            continue
        note, target = notes[index], notes[index + 1]
        gap = target.start_beat - note.start_beat
        if gap <= 0:
            continue
        # legato into the target (gap > 0, so the note is built without validating it again)
        notes[index] = played_note(note.pitch, note.velocity, note.start_beat, gap, note.channel)
        glide = min(0.25, gap * 0.4)
        full = max(-8192, min(8191, round((target.pitch - note.pitch) / GLIDE_RANGE * 8192)))
        begin = target.start_beat - glide
        points += [(begin + glide * fraction, round(full * eased)) for fraction, eased in _EASED]
        points.append((target.start_beat - 1 / 960, full))
        points.append((target.start_beat, 0))
    return notes, played_bends(points, channel)


#: A glide's six steps: how far through it (0, 1/6 … 5/6) and how far bent, smoothstep-eased.
_EASED = [(k / 6, (k / 6) * (k / 6) * (3 - 2 * (k / 6))) for k in range(6)]
