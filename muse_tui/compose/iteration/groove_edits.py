"""Pure region operations a producer asks for by feel: harder hits, hat rolls, 808 slides,
half and double time, fills, snare builds, a part resting.

Like `note_edits`, every function takes a region (notes relative to its start,
which sits on a bar line) and returns a new one; none of them draws at random,
so the same request on the same song writes the same bytes.
"""

from __future__ import annotations

import itertools

from muse_tui.contracts import ControlChange, Note, PitchBend, Region
from muse_tui.theory.drums import (
    CLAP,
    KICK,
    KICK_ACOUSTIC,
    SNARE,
    TOM_FLOOR_HIGH,
    TOM_FLOOR_LOW,
    TOM_HIGH,
    TOM_LOW,
    TOM_LOW_MID,
)

from .note_edits import HATS, SNARES, TICK, Groove, on_tick

KICKS = (KICK, KICK_ACOUSTIC)
BACKBEAT = (*SNARES, CLAP)
ACCENT_STEP = 12  # velocity per "harder": about one dynamic marking (mf → f)
GHOST_CEILING = 45  # softer hits are ghosts; an accent leaves them, so the contrast grows
#: Trap hats roll into every second bar: the last beat as 32nds, rising (Zaytoven,
#: Metro Boomin and the Atlanta hat style of the 2010s).
ROLL_EVERY_BARS = 2
ROLL_RATE = 0.125
ROLL_VELOCITY = (58, 100)
#: A fill on the last beat of a section: snare, snare, high tom, low tom as 16ths, louder
#: into the next downbeat (the stock rock and pop turnaround); two steps fill two beats.
FILL_VOICES = (
    SNARE, SNARE, TOM_HIGH, TOM_LOW_MID, TOM_LOW, TOM_FLOOR_HIGH, TOM_FLOOR_LOW, TOM_FLOOR_LOW,
)  # fmt: skip
FILL_VELOCITY = (78, 112)
#: A snare build over the last two bars before a chorus or drop: 8ths, then 16ths,
#: crescendo (the EDM and pop riser on the snare).
BUILD_BARS = 2
BUILD_VELOCITY = (48, 118)
HUMAN_EARLY = 1 / 32  # a humanised hit this early still belongs to the beat after it
GLIDE_RANGE = 12  # semitones of pitch bend: the RPN the slide sets up
GLIDE_BEATS = 0.25  # the longest slide into the next note


def accented(region: Region, steps: float) -> Region:
    """Kick and backbeat hit harder (or softer) by `steps`; ghost notes and hats stay put."""
    shift = round(steps * ACCENT_STEP)
    if not shift:
        return region

    def hit(note: Note) -> Note:
        if note.pitch not in (*KICKS, *BACKBEAT) or note.velocity < GHOST_CEILING:
            return note
        return note.model_copy(
            update={"velocity": max(GHOST_CEILING, min(127, note.velocity + shift))}
        )

    return region.model_copy(update={"notes": [hit(n) for n in region.notes]})


def with_hat_rolls(region: Region, groove: Groove) -> Region:
    """The last beat of every second bar rolled as 32nd hats, rising into the next bar."""
    notes = list(region.notes)
    hats = [n for n in notes if n.pitch in HATS]
    if not hats:
        return region
    pitch = max({n.pitch for n in hats}, key=[n.pitch for n in hats].count)
    bar = groove.beats_per_bar
    bars = round(region.length_beats / bar)
    for index in range(ROLL_EVERY_BARS - 1, bars, ROLL_EVERY_BARS):
        start, end = (index + 1) * bar - 1, (index + 1) * bar
        notes = [n for n in notes if not (n.pitch in HATS and start - 1e-6 <= n.start_beat < end)]
        count = round(1 / ROLL_RATE)
        low, high = ROLL_VELOCITY
        for k in range(count):
            notes.append(
                Note(
                    pitch=pitch,
                    velocity=round(low + (high - low) * k / (count - 1)),
                    start_beat=on_tick(start + k * ROLL_RATE),
                    duration_beats=ROLL_RATE / 2,
                    channel=hats[0].channel,
                )
            )
    return region.model_copy(update={"notes": _ordered(notes)})


def with_slides(region: Region) -> Region:
    """Each change of note within an octave slides: legato into it, bent up or down on the way.

    An 808 slide is the old note held into the next with its pitch bent to the
    new one over the last 16th, then released to centre as the new note sounds.
    """
    notes = sorted(region.notes, key=lambda n: (n.start_beat, n.pitch))
    if len(notes) < 2:
        return region
    channel = notes[0].channel
    bent = [b.beat for b in region.pitch_bends]
    bends = list(region.pitch_bends)
    moved = list(notes)
    for i, (note, target) in enumerate(itertools.pairwise(notes)):
        gap = target.start_beat - note.start_beat
        interval = target.pitch - note.pitch
        if gap <= 0 or not 0 < abs(interval) <= GLIDE_RANGE:
            continue
        if any(note.start_beat <= b <= target.start_beat for b in bent):
            continue  # it slides already
        moved[i] = note.model_copy(update={"duration_beats": on_tick(gap)})
        glide = min(GLIDE_BEATS, gap * 0.4)
        full = max(-8192, min(8191, round(interval / GLIDE_RANGE * 8192)))
        for k in range(6):
            eased = (k / 6) ** 2 * (3 - 2 * k / 6)
            beat = on_tick(target.start_beat - glide + glide * k / 6)
            bends.append(PitchBend(beat=beat, value=round(full * eased), channel=channel))
        bends.append(PitchBend(beat=on_tick(target.start_beat - TICK), value=full, channel=channel))
        bends.append(PitchBend(beat=on_tick(target.start_beat), value=0, channel=channel))
    if len(bends) == len(region.pitch_bends):
        return region
    changes = list(region.control_changes)
    if not any(c.controller == 101 for c in changes):  # set the bend range to an octave
        moves = [(101, 0), (100, 0), (6, GLIDE_RANGE), (38, 0), (101, 127), (100, 127)]
        changes = [ControlChange(beat=0, controller=c, value=v, channel=channel) for c, v in moves]
        changes += list(region.control_changes)
    return region.model_copy(
        update={
            "notes": moved,
            "pitch_bends": sorted(bends, key=lambda b: b.beat),
            "control_changes": changes,
        }
    )


def half_timed(region: Region, groove: Groove) -> Region:
    """Half time: one backbeat on 3, the kicks of the first half bar spread over the whole bar.

    The hats keep their pace, so the groove feels half as fast over the same tempo.
    """
    bar = groove.beats_per_bar
    middle = bar / 2
    kept: list[Note] = []
    for start in _bar_starts(region, bar):
        inside = _in_bar(region, start, bar)
        snares = [n for n in inside if n.pitch in BACKBEAT and n.velocity >= GHOST_CEILING]
        if not snares:
            kept += inside
            continue
        loudest = max(snares, key=lambda n: n.velocity)
        kept.append(loudest.model_copy(update={"start_beat": on_tick(start + middle)}))
        for note in inside:
            at = max(0.0, note.start_beat - start)
            if note.pitch in BACKBEAT:
                continue  # the ghosts go too: half time breathes
            if note.pitch in KICKS:
                spread = at * 2
                if spread < bar - 0.05 and abs(spread - middle) > 0.25:
                    kept.append(note.model_copy(update={"start_beat": on_tick(start + spread)}))
                continue
            kept.append(note)
    return region.model_copy(update={"notes": _ordered(_unique(kept))})


def double_timed(region: Region, groove: Groove) -> Region:
    """Double time: the kick-and-snare figure played twice as fast, twice per bar; hats stay."""
    bar = groove.beats_per_bar
    kept: list[Note] = []
    for start in _bar_starts(region, bar):
        for note in _in_bar(region, start, bar):
            if note.pitch not in (*KICKS, *BACKBEAT) or note.velocity < GHOST_CEILING:
                kept.append(note)
                continue
            at = max(0.0, note.start_beat - start) / 2
            for half in (0.0, bar / 2):
                kept.append(note.model_copy(update={"start_beat": on_tick(start + at + half)}))
    return region.model_copy(update={"notes": _ordered(_unique(kept))})


def with_fill(region: Region, groove: Groove, beats: int = 1) -> Region:
    """The section's last `beats` beats played as a snare-and-tom fill of 16ths."""
    if not region.notes:
        return region
    channel = region.notes[0].channel
    end = region.length_beats
    start = end - beats
    notes = [
        n
        for n in region.notes
        if not (n.start_beat >= start - 1e-6 and n.pitch in (*KICKS, *BACKBEAT, *HATS))
    ]
    count = beats * 4
    low, high = FILL_VELOCITY
    for k in range(count):
        voice = FILL_VOICES[round(k * (len(FILL_VOICES) - 1) / max(1, count - 1))]
        velocity = round(low + (high - low) * k / max(1, count - 1))
        notes.append(
            Note(
                pitch=voice,
                velocity=velocity,
                start_beat=on_tick(start + k * 0.25),
                duration_beats=0.2,
                channel=channel,
            )
        )
    return region.model_copy(update={"notes": _ordered(notes)})


def with_build(region: Region, groove: Groove) -> Region:
    """A snare roll over the section's last two bars: 8ths then 16ths, swelling to the drop."""
    if not region.notes:
        return region
    channel = region.notes[0].channel
    bar = groove.beats_per_bar
    start = max(0.0, region.length_beats - BUILD_BARS * bar)
    hits = [start + k * 0.5 for k in range(round(bar * 2))]
    hits += [start + bar + k * 0.25 for k in range(round(bar * 4))]
    hits = [h for h in hits if h < region.length_beats - 1e-6]
    kept = [n for n in region.notes if not (n.start_beat >= start - 1e-6 and n.pitch in BACKBEAT)]
    low, high = BUILD_VELOCITY
    for k, at in enumerate(hits):
        velocity = round(low + (high - low) * k / max(1, len(hits) - 1))
        kept.append(
            Note(
                pitch=SNARE,
                velocity=velocity,
                start_beat=on_tick(at),
                duration_beats=0.1,
                channel=channel,
            )
        )
    return region.model_copy(update={"notes": _ordered(kept)})


def silenced(region: Region) -> Region:
    """The region with the part resting: no notes, no controller moves, no bends."""
    return region.model_copy(update={"notes": [], "control_changes": [], "pitch_bends": []})


def _in_bar(region: Region, start: float, bar: float) -> list[Note]:
    """The notes of one bar, counting a hit played a hair early as the next bar's downbeat."""
    early = HUMAN_EARLY
    last = start + bar >= region.length_beats - early
    end = float("inf") if last else start + bar - early
    return [n for n in region.notes if start - early <= n.start_beat < end]


def _bar_starts(region: Region, bar: float) -> list[float]:
    return [k * bar for k in range(max(1, round(region.length_beats / bar)))]


def _unique(notes: list[Note]) -> list[Note]:
    """One note per pitch and tick (the louder one), as a drum machine plays it."""
    best: dict[tuple[int, float], Note] = {}
    for note in notes:
        key = (note.pitch, round(note.start_beat, 3))
        if key not in best or note.velocity > best[key].velocity:
            best[key] = note
    return list(best.values())


def _ordered(notes: list[Note]) -> list[Note]:
    return sorted(notes, key=lambda n: (n.start_beat, n.pitch))
