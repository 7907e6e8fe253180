"""Chords, keys, pads, arps and textures: S2's voicings played in the genre's comping rhythm.

Each harmony track plays in its own layer (`layers`): its register, its number
of notes and its rhythm, so two never double each other. A hit that is
still held when the chord changes is struck again on the new chord; a push
(`P`) plays the next chord an 8th early and holds it across the bar line. A
muted scratch (`m`) is a click of a few damped strings between the chords (the
16th motor of a disco guitar); a montuno plays one chord tone a hit in octaves.
"""

from __future__ import annotations

import random

from muse_tui.contracts import ControlChange
from muse_tui.theory.spacing import low_interval_faults

from ..humanize import Draft
from ..transitions import expression_fade
from .context import PartContext, PartDraft
from .grid import Hit, pick_per_phrase, read_hits
from .harmony import nearest_pitch
from .layers import holds_chords, layer, layer_voicings, placements, strums
from .voicing import low_limit

_VELOCITY = {"X": 100, "x": 86, "o": 66, "P": 96, "p": 80, "m": 34}
_SCRATCH = 0.07  # beats a muted scratch sounds
_SCRATCH_STRINGS = 3  # the strings a muted stroke is heard on (the top of the grip)
_RESTRIKE = 0.85  # velocity of a held chord struck again on a chord change
_STRUM_GAP = 0.02  # beats between strings
_EXPRESSION = 11


def write_comping(ctx: PartContext, rng: random.Random, rhythm: str | None = None) -> PartDraft:
    """Chord hits for one section, in the track's layer (see `layers`): by default the
    genre's chord rhythm for the main comping part, its answer for a second keyboard,
    held chords for an organ or strings; `rhythm` overrides the layer's rhythm."""
    placed = placements(ctx)
    placement = placed[ctx.track.role]
    name = rhythm or placement.rhythm
    comp = ctx.table.comping["sustained" if name == "none" else name]  # type: ignore[index]
    # In a meter other than 4/4 the genre's comping part plays the meter's chord rhythm.
    main = ctx.meter_groove is not None and name == ctx.style.chord_rhythm and name != "sustained"
    levels = ctx.meter_groove.comping if main else comp  # type: ignore[union-attr]
    grids = pick_per_phrase(getattr(levels, ctx.density), ctx.bars, rng)
    voicings = layer_voicings(ctx, placed, name if rhythm else None)
    # a chord struck again and again moves its voicing bar by bar; an organ's, a pad's
    # or strings' held chords stay put
    moves = placement.layer not in ("held", "pad") and not holds_chords(ctx, ctx.track)
    register = layer(ctx, placement.layer).pitch_range
    since = _same_since(ctx, voicings)
    notes: list[Draft] = []
    arp_up_down = rng.random() < 0.5
    arp_count, arp_chord = 0, -1
    motor = any("m" in grid for grid in grids)  # a 16th strumming motor: up on the e and a
    for hit in read_hits(grids, ctx.bar_steps, "x", ctx.fit_plan):
        for index, start, end, restruck in _segments(ctx, hit, comp.anticipates):
            velocity = _VELOCITY[hit.letter] * ctx.loud * (_RESTRIKE if restruck else 1.0)
            length = (end - start) * comp.gate
            voicing = voicings[index]
            if not voicing:
                continue
            if moves and comp.play in ("chord", "strum"):
                voicing = _moved(ctx, voicing, start - since[index], register)
            if hit.letter == "m":
                notes += _scratch(ctx, voicing, velocity, start, end - start)
            elif comp.play in ("arp", "montuno"):
                arp_count = 0 if index != arp_chord else arp_count + 1
                arp_chord = index
                if comp.play == "montuno":
                    octave = _montuno(voicing, arp_count, hit.letter in "XP", register)
                    notes += [Draft(p, velocity, start, length, ctx.track.role) for p in octave]
                    continue
                pitch = _arp_note(voicing, arp_count, arp_up_down)
                notes.append(Draft(pitch, velocity, start, length, ctx.track.role))
            elif comp.play == "strum" and _strummed(ctx):
                notes += _strum(ctx, voicing, velocity, start, length, motor)
            else:
                notes += _chord(ctx, voicing, velocity, start, length)
    draft = PartDraft(notes=notes, feel=ctx.feel.scaled(timing=1.1, velocity=0.7))
    # A held layer swells; so does a holder in the comping seat holding the genre's held chords.
    holding = placement.layer == "held" or (name == "sustained" and holds_chords(ctx, ctx.track))
    if holding and rhythm is None:
        draft.control_changes = _swells(ctx)
    return draft


def write_pad(ctx: PartContext, rng: random.Random) -> PartDraft:
    """Held chords, soft, with an expression swell in and a fade where the section fades."""
    draft = write_comping(ctx, rng, "sustained")
    for note in draft.notes:
        note.velocity *= 0.78
    before = ctx.neighbours[0]
    swells = ctx.section.kind == "intro" or (before is not None and before.energy < 0.35)
    start = 50 if swells else 100
    draft.control_changes = _ramp(ctx, 0.0, min(ctx.length, ctx.beats_per_bar * 2), start, 100)
    fade = expression_fade(ctx.section.transition, ctx.length, ctx.beats_per_bar)
    if fade is not None:
        draft.control_changes += _ramp(ctx, *fade, 100, 40)[1:]
    return draft


def write_texture(ctx: PartContext, rng: random.Random) -> PartDraft:
    """Long, high chord tones drifting over the changes: one every bar or two."""
    low, high = ctx.pitch_range
    every = ctx.beats_per_bar * (1 if ctx.density == "busy" else 2)
    target = low + (high - low) * 0.4
    notes: list[Draft] = []
    start = 0.0
    while start < ctx.length - 1e-6:
        chord = ctx.harmony.at(start)
        target += rng.choice((-3, -2, 0, 2, 3))
        target = min(max(target, low + 4), high - 4)
        pitch = nearest_pitch(target, chord.tones, low, high)
        length = min(every * 0.95, ctx.length - start)
        velocity = rng.uniform(52, 68) * ctx.loud
        notes.append(Draft(pitch, velocity, start, length, "texture"))
        others = chord.tones - {pitch % 12}
        if ctx.density == "busy" and others and pitch + 2 <= high:
            second = nearest_pitch(pitch + 4, others, pitch + 2, high)
            notes.append(Draft(second, velocity * 0.85, start + 0.5, length - 0.5, "texture"))
        start += every
    return PartDraft(notes=notes, feel=ctx.feel.scaled(timing=1.5))


def _segments(
    ctx: PartContext, hit: Hit, anticipates: bool = False
) -> list[tuple[int, float, float, bool]]:
    """(chord index, start, end, struck again?) for a hit, split where the chord changes.

    In a rhythm that `anticipates`, a hit that a chord change falls inside (within
    its first beat) plays the coming chord from the hit on, as a bossa guitarist
    does, rather than striking again where the pattern has no hit.
    """
    chords = ctx.harmony.chords
    pushed = hit.letter in "Pp"
    index = ctx.harmony.index(hit.start + (0.5 if pushed else 0.0))
    end = min(hit.start + hit.length, ctx.length)
    change = chords[index].end
    if anticipates and index + 1 < len(chords) and hit.start < change < min(end, hit.start + 1):
        index += 1
    segments = [(index, hit.start, min(end, chords[index].end), False)]
    while chords[index].end < end - 1e-6 and index + 1 < len(chords):
        index += 1
        segments.append((index, chords[index].start, min(end, chords[index].end), True))
    return [s for s in segments if s[2] - s[1] > 1e-6]


def _chord(
    ctx: PartContext, voicing: tuple[int, ...], velocity: float, start: float, length: float
) -> list[Draft]:
    top = len(voicing) - 1
    return [
        Draft(
            pitch,
            velocity * (1.06 if i == top else 0.94 if i == 0 else 1.0),
            start,
            length,
            ctx.track.role,
        )
        for i, pitch in enumerate(voicing)
    ]


def _strum(
    ctx: PartContext,
    voicing: tuple[int, ...],
    velocity: float,
    start: float,
    length: float,
    motor: bool = False,
) -> list[Draft]:
    """Strings struck one after another: down on the beat-side 8ths, up on the off-8ths;
    with a 16th `motor`, down on every 8th and up on the 16ths between."""
    upstroke = round(start * 4) % 2 == 1 if motor else round(start * 2) % 2 == 1
    order = list(reversed(voicing)) if upstroke else list(voicing)
    return [
        Draft(
            pitch,
            velocity * (0.85 if upstroke else 1.0),
            start + k * _STRUM_GAP,
            max(length - k * _STRUM_GAP, 0.05),
            ctx.track.role,
        )
        for k, pitch in enumerate(order)
    ]


def _scratch(
    ctx: PartContext, voicing: tuple[int, ...], velocity: float, start: float, room: float
) -> list[Draft]:
    """A muted stroke: the top strings of the grip damped by the fretting hand, a click
    too short and soft to sound the chord."""
    length = min(_SCRATCH, room)
    strings = voicing[-_SCRATCH_STRINGS:]
    return [
        Draft(pitch, velocity * (0.9 if k else 1.0), start, length, ctx.track.role)
        for k, pitch in enumerate(strings)
    ]


def _montuno(
    voicing: tuple[int, ...], count: int, accent: bool, register: tuple[int, int]
) -> list[int]:
    """One chord tone in octaves (a tone an octave above the register's floor, played with
    the octave under it), the hits climbing and falling through the chord; an accent
    fills the octave with a chord tone, as a montuno's strong hits do."""
    low, _ = register
    tones = sorted({p for p in voicing if p - 12 >= low}) or sorted({p + 12 for p in voicing})
    line = tones + tones[-2:0:-1]
    top = line[count % len(line)]
    inside = [p for p in voicing if top - 12 < p < top and p % 12 != top % 12]
    inside += [p + 12 for p in voicing if top - 12 < p + 12 < top and p % 12 != top % 12]
    if accent and inside:
        middle = min(inside, key=lambda p: abs(p - (top - 6)))
        return [top - 12, middle, top]
    return [top - 12, top]


def _same_since(ctx: PartContext, voicings: list[tuple[int, ...]]) -> list[float]:
    """For each chord, where the run of chords voiced just like it began (i - i is one run)."""
    chords = ctx.harmony.chords
    since = [chords[0].start] if chords else []
    for index in range(1, len(chords)):
        same = voicings[index] == voicings[index - 1]
        since.append(since[-1] if same else chords[index].start)
    return since


def _moved(
    ctx: PartContext, voicing: tuple[int, ...], into_chord: float, register: tuple[int, int]
) -> tuple[int, ...]:
    """The voicing for a hit `into_chord` beats after its chord began: as voiced in the
    chord's first bar and every other bar after, inverted in the bars between.

    A keyboard player restriking one chord for bars moves the top voice, not the
    same grip over and over: the odd bars take the next inversion down (the top
    note an octave lower), or up where down would leave the register or turn muddy.
    """
    if len(voicing) < 2 or int(into_chord / ctx.beats_per_bar + 1e-6) % 2 == 0:
        return voicing
    low, high = register
    down = tuple(sorted((voicing[-1] - 12, *voicing[:-1])))
    if down[0] >= low and down[0] != down[1] and not low_interval_faults(down, low_limit()):
        return down
    up = tuple(sorted((*voicing[1:], voicing[0] + 12)))
    return up if up[-1] <= high + 5 and up[-1] != up[-2] else voicing


def _strummed(ctx: PartContext) -> bool:
    return strums(ctx, ctx.track)


def _arp_note(voicing: tuple[int, ...], count: int, up_down: bool) -> int:
    notes = list(voicing)
    if up_down and len(notes) > 2:
        notes = notes + notes[-2:0:-1]
    return notes[count % len(notes)]


def _swells(ctx: PartContext) -> list[ControlChange]:
    """A swell pedal (an organ's, a pad's expression): each chord opens up from a little under
    full over its first bar."""
    swells: list[ControlChange] = []
    for chord in ctx.harmony.chords:
        start, end = max(chord.start, 0.0), min(chord.end, ctx.length)
        if end - start > 1:
            rise = min(end - start, ctx.beats_per_bar)
            swells += _ramp(ctx, start, start + rise, 78, 104)
    # A swell that fills its chord ends where the next begins: the new swell's start wins,
    # so the pedal is set once at each instant.
    at_once = {round(c.beat, 6): c for c in swells}
    return sorted(at_once.values(), key=lambda c: c.beat)


def _ramp(
    ctx: PartContext, start: float, end: float, begin: int, finish: int
) -> list[ControlChange]:
    points = max(1, round((end - start) * 2))
    return [
        ControlChange(
            beat=start + (end - start) * k / points,
            controller=_EXPRESSION,
            value=round(begin + (finish - begin) * k / points),
            channel=ctx.track.channel,
        )
        for k in range(points + 1)
    ]
