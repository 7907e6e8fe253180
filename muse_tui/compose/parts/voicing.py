"""One harmony layer's notes for one chord: in its register, led from the chord before,
clear of the low-interval limit, and never the same chord another layer already plays.

Two keyboards striking nested pitch-class sets (a pad's E–G inside the piano's
C–E–G) are heard as one chord doubled, however far apart their registers. A
later layer therefore takes a set of its own: a chord tone the earlier layers
leave out, or a colour tone of the key (a 7th, 9th, 11th or 13th) that sits a
semitone above no chord tone; arrangers split a chord between sections this way
(see `skills/harmony/voicings.json`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import pairwise

from muse_tui.knowledge.voicings import voicing_table
from muse_tui.theory.spacing import LowLimit, clear_low_intervals, low_interval_faults, nested

from .harmony import SoundingChord

#: Intervals above the root that colour a chord (thirds, sevenths, ninth): a layer keeps one.
COLOUR = frozenset({2, 3, 4, 10, 11})
#: Semitones a hand spans without cost.
HAND = 12
#: Cost of a voicing nested inside (or around) a set another layer plays at the same chord.
STACKED = 40.0


def low_limit() -> LowLimit:
    """The low-interval limit of `skills/harmony/voicings.json`."""
    limits = voicing_table().low_interval_limits
    return LowLimit(limits.second_floor, limits.third_floor)


#: The 13th (6th) above the tonic is the relative minor's root: held over I it names vi.
RELATIVE = 9


def colours(chord: SoundingChord, scale: Collection[int], home: bool = False) -> set[int]:
    """Tensions of the key the chord takes (voicings.json's `layerSplit`): in the scale, not a
    chord tone, and not a semitone above one (a minor 9th against a chord tone: C's F, Em's F).
    The `home` (tonic) chord takes no 6th: held over I it is heard as vi's root."""
    found = set()
    for interval in voicing_table().layer_split.tensions:
        if home and interval == RELATIVE:
            continue
        pc = (chord.root_pc + interval) % 12
        if pc in scale and pc not in chord.tones and (pc - 1) % 12 not in chord.tones:
            found.add(pc)
    return found


def layer_chord(
    chord: SoundingChord,
    busy: set[int],
    register: tuple[int, int],
    count: int,
    centre: float,
    previous: tuple[int, ...] | None,
    upper: bool,
    home: bool = False,
    apart: Sequence[frozenset[int]] = (),
    tensions: Collection[int] = (),
) -> tuple[int, ...]:
    """`count` chord tones within the register, none of them `busy`, near `centre`.

    The chord's pitch classes come from S2's voicing (its colour: rootless, shell…);
    a voicing keeps a third or seventh, and the upper layers leave the root to the others,
    except on the `home` (tonic) chord: a pad of colour tones alone (Am9 as C–E–G–B)
    sounds like the relative major, so there the bed holds the plain triad, root and
    third first, and leaves the colour to the comping. `apart` are the pitch-class sets
    the layers before play at this chord; a set nested with one of them is avoided, with
    one of `tensions` if the chord tones alone cannot do it.
    """
    low, high = register
    classes = {p % 12 for p in chord.voicing} or set(chord.tones)
    if home:
        classes = triad(chord) or classes
    pool: list[int] = []
    # the layers before took S2's tones here: any chord tone will do, then an octave higher;
    # the tonic's triad is first looked for an octave higher before its 7th is taken
    tones = set(chord.tones)
    passes = ((set(), 0), (tones, 0), (tones, 12))
    if home:
        passes = ((set(), 0), (set(), 12), (tones, 0), (tones, 12))
    hands: list[tuple[int, ...]] = []
    for extra, wider in passes:
        allowed = classes | extra | (set(tensions) if apart else set())
        pool = [
            p
            for p in range(max(low, 0), min(high + wider, 127) + 1)
            if p % 12 in allowed and p not in busy
        ]
        hands = _hands(pool, min(count, len(pool)))
        if len({p % 12 for p in pool}) >= count and hands:
            break  # enough classes, and one hand reaches `count` of them
    if not pool or not hands:
        return ()
    limit = low_limit()
    best = min(
        (_cost(chord, notes, centre, previous, upper, home, apart, tensions, limit), notes)
        for notes in hands
    )
    return clear_low_intervals(best[1], high + 12, limit)


def _hands(pool: list[int], count: int) -> list[tuple[int, ...]]:
    """Every choice of `count` notes of the pool that one hand reaches (a 10th at most)."""
    found: list[tuple[int, ...]] = []

    def extend(chosen: tuple[int, ...], start: int) -> None:
        if len(chosen) == count:
            found.append(chosen)
            return
        for index in range(start, len(pool)):
            if chosen and pool[index] - chosen[0] > HAND + 4:
                break
            extend((*chosen, pool[index]), index + 1)

    extend((), 0)
    return found


def _cost(
    chord: SoundingChord,
    notes: tuple[int, ...],
    centre: float,
    previous: tuple[int, ...] | None,
    upper: bool,
    home: bool,
    apart: Sequence[frozenset[int]],
    tensions: Collection[int],
    limit: LowLimit,
) -> float:
    count = len(notes)
    classes = {p % 12 for p in notes}
    cost = abs(sum(notes) / count - centre)
    cost += max(0, notes[-1] - notes[0] - HAND)  # a hand spans about an octave
    cost += 3 * (count - len(classes))  # a doubled class wastes a finger
    cost += 6 * len(classes & set(tensions))  # colour the harmony lacks, only where needed
    cost += 4 * sum(1 for a, b in pairwise(notes) if b - a == 1)
    cost += 20 * len(low_interval_faults(notes, limit))
    if not any((p - chord.root_pc) % 12 in COLOUR for p in notes):
        cost += 6
    if home:
        cost += home_cost(chord, notes)
    elif upper and notes[0] % 12 == chord.root_pc:
        cost += 2
    if previous is not None and len(previous) == count:
        cost += 0.5 * sum(abs(a - b) for a, b in zip(previous, notes, strict=True))
    if count >= 2:
        cost += STACKED * sum(1 for other in apart if len(other) >= 2 and nested(classes, other))
    if not apart and chord.root_pc not in classes:
        cost += 5  # the only chord in the band names its root (Ebmaj7 without Eb is Gm)
    return cost


def home_cost(chord: SoundingChord, notes: tuple[int, ...]) -> float:
    """What a tonic voicing loses without its root or third (a lot) or its fifth (some).

    The third names the mode and the root the tonic; without them a key-finder,
    and an ear, drift to the key a fourth up (its fifth is our tonic) or the relative.
    """
    held = {p % 12 for p in notes}
    return sum(
        weight
        for interval, weight in ((0, 6.0), (third(chord), 6.0), (7, 2.0))
        if interval is not None
        and (chord.root_pc + interval) % 12 in chord.tones
        and (chord.root_pc + interval) % 12 not in held
    )


def triad(chord: SoundingChord) -> set[int]:
    """Root, third and fifth of the chord, as far as it holds them (pitch classes)."""
    found = third(chord)
    intervals = (0, 7) if found is None else (0, found, 7)
    return {(chord.root_pc + i) % 12 for i in intervals} & chord.tones


def third(chord: SoundingChord) -> int | None:
    """The chord's third as an interval above its root (3 or 4), or None (a power chord, sus)."""
    return next((i for i in (3, 4) if (chord.root_pc + i) % 12 in chord.tones), None)


def power_chord(chord: SoundingChord, low: int, high: int, busy: set[int]) -> tuple[int, ...]:
    """Root, fifth and octave from the lowest free root of the register.

    Under a lead the register may be narrower than some roots' octave: then the
    shape drops below it (a guitarist plays A on the A string, under the comping
    register) rather than leaving a silent bar on that chord.
    """
    inside = [r for r in range(low, high - 11) if r % 12 == chord.root_pc]
    under = [r for r in range(high - 12, low - 13, -1) if r % 12 == chord.root_pc]
    for root in inside + under:
        notes = tuple(p for p in (root, root + 7, root + 12) if p not in busy)
        if len(notes) >= 2:
            return notes
    return ()


def voice_led(voicings: list[tuple[int, ...]], low: int, high: int) -> list[tuple[int, ...]]:
    """Every chord's voicing in low..high, moving as little as it can from the one before."""
    centre = (low + high) / 2
    every = [p for v in voicings for p in v]
    shift = 12 * round((centre - sum(every) / len(every)) / 12) if every else 0
    placed: list[tuple[int, ...]] = []
    for voicing in voicings:
        base = _fold([p + shift for p in voicing], low, high)
        if not placed:
            placed.append(base)
            continue
        before = placed[-1]
        candidates = _candidates(base, low, high)
        placed.append(min(candidates, key=lambda cc: (_motion(before, cc[0]) + cc[1], cc[0]))[0])
    return placed


def _candidates(base: tuple[int, ...], low: int, high: int) -> list[tuple[tuple[int, ...], int]]:
    """The voicing by octaves and its inversions, with a cost for leaving S2's shape
    and a larger one for a muddy low interval."""
    found = []
    muddy = low_limit().muddy
    for rotation in range(-2, 3):
        notes = list(base)
        for _ in range(abs(rotation)):
            if rotation > 0:
                notes = sorted([*notes[1:], notes[0] + 12])
            else:
                notes = sorted([notes[-1] - 12, *notes[:-1]])
        for octave in (-12, 0, 12):
            moved = tuple(n + octave for n in notes)
            if moved and moved[0] >= low and moved[-1] <= high:
                mud = sum(1 for a, b in pairwise(moved) if muddy(a, b))
                found.append((moved, 2 * abs(rotation) + (3 if octave else 0) + 12 * mud))
    return found or [(base, 0)]


def _fold(notes: list[int], low: int, high: int) -> tuple[int, ...]:
    folded = set()
    for note in notes:
        while note < low:
            note += 12
        while note > high:
            note -= 12
        folded.add(note)
    return tuple(sorted(folded))


def _motion(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    if not a or not b:
        return 0.0
    if len(a) == len(b):
        return sum(abs(x - y) for x, y in zip(a, b, strict=True))
    return abs(sum(a) / len(a) - sum(b) / len(b)) * len(b) + abs(a[-1] - b[-1])
