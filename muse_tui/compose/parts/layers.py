"""Where each harmony track sits in the band, and the notes it voices there.

Chords, keys, organ, pad and arp share one progression; played alike they double
each other into a 14-note wall. Each harmony track takes a layer of
`skills/rhythm/comping.json` (the main comping part, a second keyboard answering
it, an organ or strings holding, a pad up high, an arp), with its own register,
number of notes and rhythm. Layers are voiced one after another (comping first,
pad last), each avoiding the exact pitches the layers before it took on the same
chord, so no two harmony tracks ever strike the same note together.

Every track works this out from the band alone (the parts are written
concurrently), so each part still depends only on the harmony and the band.
"""

from __future__ import annotations

from dataclasses import dataclass

from muse_tui.contracts import Track
from muse_tui.knowledge.rhythm import CompingRhythm, HarmonyLayer

from .context import PartContext
from .harmony import SoundingChord

HARMONY_ROLES = frozenset({"chords", "keys", "pad", "arp"})
#: The order layers choose their notes in: the comping keeps the progression's own voicing.
VOICING_ORDER = ("comp", "held", "answer", "pad", "arp")
#: Layers that keep their top voice under the lead's register, so the tune is never doubled.
UNDER_THE_LEAD = frozenset({"comp", "answer"})
#: The least room a layer keeps under the lead (an octave and a half).
MIN_SPAN = 18
#: Room enough for a pad's 2-3 notes: an octave.
PAD_ROOM = 12
#: Below this (E3) held chords muddy the bass: a pad goes above the lead instead.
MUD_FLOOR = 52
#: Intervals above the root that colour a chord (thirds, sevenths, ninth): a layer keeps one.
_COLOUR = frozenset({2, 3, 4, 10, 11})


@dataclass(frozen=True)
class Placement:
    """A harmony track's layer, the rhythm it plays, and whether other harmony tracks sound."""

    layer: str
    rhythm: str
    crowded: bool


def placements(ctx: PartContext) -> dict[str, Placement]:
    """Every harmony track of the song (by role) with its layer and rhythm.

    Organs and strings hold their chords, unless no other chords or keys track
    would play the genre's comping rhythm (then one of them plays it, an organ
    before strings or a choir), or the rhythm's answer is the organ's own idiom
    (its `held_players`: the reggae organ bubbles under the guitar's skank).
    Where the genre's rhythm is itself held chords and a pad holds them too,
    the keys pulse instead; a holder in the comping seat (an organ, strings, a
    choir, a synth pad named for the chords) holds on, never pulsing a held
    sound in 8ths.

    The band is the one S4 writes (`choose_tracks` of the intent), so the first
    compose and a later rewrite of one track agree; tracks added since come after it.
    """
    band = [t for t in ctx.band if t.role in HARMONY_ROLES]
    for track in [*ctx.song.tracks, ctx.track]:
        if track.role in HARMONY_ROLES and all(t.role != track.role for t in band):
            band.append(track)
    crowded = len(band) > 1
    held = [t for t in band if t.role in ("chords", "keys") and holds_chords(ctx, t)]
    comping = [t for t in band if t.role in ("chords", "keys") and t not in held]
    genre = ctx.style.chord_rhythm if ctx.style.chord_rhythm != "none" else "sustained"
    answer = _rhythm(ctx, genre).answer
    if held and not comping:  # someone plays the genre's comping: an organ alone skanks in reggae
        chopper = min(held, key=lambda t: t.program or 0)  # an organ chops before strings
        held.remove(chopper)
        comping.append(chopper)
    elif owners := [t for t in held if _plays(t, _rhythm(ctx, answer).held_players)]:
        held.remove(owners[0])  # the answer is this organ's own part: it bubbles, not holds
        comping.append(owners[0])
    keys_comp = bool(comping) and not holds_chords(ctx, comping[0])
    if genre == "sustained" and keys_comp and any(t.role == "pad" or t in held for t in band):
        genre, answer = answer, genre  # a pad already holds the chords: the keys pulse them
    found: dict[str, Placement] = {}
    for track in band:
        if track.role == "pad":
            found[track.role] = Placement("pad", "sustained", crowded)
        elif track.role == "arp":
            found[track.role] = Placement("arp", "arpeggiated", crowded)
        elif track in held:
            found[track.role] = Placement("held", "sustained", crowded)
        elif track is comping[0]:
            found[track.role] = Placement("comp", genre, crowded)
        else:
            found[track.role] = Placement("answer", answer, crowded)
    return found


def layer_voicings(
    ctx: PartContext, placed: dict[str, Placement], rhythm: str | None = None
) -> list[tuple[int, ...]]:
    """This track's voicing of every chord of the section, clear of the layers voiced before it.

    `placed` is `placements(ctx)`; `rhythm` replaces this track's own rhythm.
    """
    placed = dict(placed)
    own = placed[ctx.track.role]
    if rhythm is not None:
        placed[ctx.track.role] = own = Placement(own.layer, rhythm, own.crowded)
    ordered = sorted(placed.items(), key=lambda item: VOICING_ORDER.index(item[1].layer))
    taken: list[set[int]] = [set() for _ in ctx.harmony.chords]
    for role, placement in ordered:
        voicings = _voice(ctx, placement, taken, len(placed))
        if role == ctx.track.role:
            return voicings
        for chord_taken, voicing in zip(taken, voicings, strict=True):
            chord_taken.update(voicing)
    raise AssertionError("the track is always among its own placements")  # pragma: no cover


def _lead_window(ctx: PartContext) -> tuple[int, int] | None:
    """The lowest and highest pitch the song's lead may play (None: the band has no lead)."""
    from .lead import lead_style, lead_window  # the lead's register is the lead's to say

    lead = next((t for t in ctx.band if t.role == "lead"), None)
    if lead is None:
        return None
    lead_ctx = PartContext(lead, ctx.song, ctx.intent, ctx.section, ctx.table, ctx.song_tracks)
    return lead_window(lead_ctx, lead_style(lead_ctx))


def _beside_the_lead(high: int, lead: tuple[int, int]) -> tuple[int, int]:
    """The pad's pitches clear of the melody's: under it (no higher than the pad layer's
    `high`), or above it when under would be mud.

    A pad held inside the lead's register smears every melody note it meets.
    """
    floor, top = lead
    if floor - 1 - MUD_FLOOR >= PAD_ROOM:  # all the room down to the mud: the comping took some
        return MUD_FLOOR, min(high, floor - 1)
    return top + 1, top + 1 + PAD_ROOM


def layer(ctx: PartContext, name: str) -> HarmonyLayer:
    return ctx.table.harmony_layers[name]


def holds_chords(ctx: PartContext, track: Track) -> bool:
    """Organs, string sections, choirs and synth pads hold their chords rather than comp."""
    return _plays(track, ctx.table.held_programs)


def _plays(track: Track, programs: list[tuple[int, int]]) -> bool:
    program = track.program
    return program is not None and any(lo <= program <= hi for lo, hi in programs)


def _rhythm(ctx: PartContext, name: str) -> CompingRhythm:
    return ctx.table.comping[name]  # type: ignore[index]


def _voice(
    ctx: PartContext, placement: Placement, taken: list[set[int]], band: int
) -> list[tuple[int, ...]]:
    where = layer(ctx, placement.layer)
    low, high = where.pitch_range
    window = _lead_window(ctx) if placement.layer in (*UNDER_THE_LEAD, "pad") else None
    if window is not None and placement.layer == "pad":
        low, high = _beside_the_lead(high, window)
    elif window is not None:  # the melody sits on top of the comping
        high = max(low + MIN_SPAN, min(high, window[0] - 1))
    count = where.voices[0] if ctx.density == "sparse" else where.voices[1]
    if placement.layer == "pad" and band > 2:
        count = where.voices[0]  # a full band leaves the pad two notes
    play = _rhythm(ctx, placement.rhythm).play
    if play == "power":
        return [
            _power(chord, low, high, busy)
            for chord, busy in zip(ctx.harmony.chords, taken, strict=True)
        ]
    if placement.layer == "comp":
        return _progression_voicings(ctx, low, high, count, placement.crowded)
    upper = placement.layer == "pad"
    target = low + (high - low) * (0.6 if upper else 0.45)
    tonic = ctx.harmony.key.tonic_pc
    voicings: list[tuple[int, ...]] = []
    for chord, busy in zip(ctx.harmony.chords, taken, strict=True):
        previous = next((v for v in reversed(voicings) if v), None)
        centre = target if previous is None else (sum(previous) / len(previous) + target) / 2
        home = chord.root_pc == tonic
        # alone, the bed holds the whole tonic triad even where it would play two notes
        notes = max(count, len(_triad(chord))) if home and band == 1 else count
        voicing = _closest(chord, busy, low, high, notes, centre, previous, upper, home)
        voicings.append(voicing)
    return voicings


def _closest(
    chord: SoundingChord,
    busy: set[int],
    low: int,
    high: int,
    count: int,
    centre: float,
    previous: tuple[int, ...] | None,
    upper: bool,
    home: bool = False,
) -> tuple[int, ...]:
    """`count` neighbouring chord tones within low..high, none of them `busy`, near `centre`.

    The chord's pitch classes come from S2's voicing (its colour: rootless, shell…);
    a voicing keeps a third or seventh, and the upper layers leave the root to the others,
    except on the `home` (tonic) chord: a pad of colour tones alone (Am9 as C–E–G–B)
    sounds like the relative major, so there the bed holds the plain triad, root and
    third first, and leaves the colour to the comping.
    """
    classes = {p % 12 for p in chord.voicing} or set(chord.tones)
    if home:
        classes = _triad(chord) or classes
    pool: list[int] = []
    # the layers before took S2's tones here: any chord tone will do, then an octave further
    for extra, wider in ((set(), 0), (chord.tones, 0), (chord.tones, 12)):
        allowed = classes | extra
        pool = [
            p
            for p in range(max(low - wider, 0), min(high + wider, 127) + 1)
            if p % 12 in allowed and p not in busy
        ]
        if len(pool) >= count:
            break
    if not pool:
        return ()
    count = min(count, len(pool))
    best: tuple[float, tuple[int, ...]] | None = None
    for first in range(len(pool) - count + 1):
        notes = tuple(pool[first : first + count])
        cost = abs(sum(notes) / count - centre)
        cost += max(0, notes[-1] - notes[0] - 12)  # a hand spans about an octave
        cost += 3 * (count - len({p % 12 for p in notes}))  # a doubled class wastes a finger
        if not any((p - chord.root_pc) % 12 in _COLOUR for p in notes):
            cost += 6
        if home:
            cost += _home_cost(chord, notes)
        elif upper and notes[0] % 12 == chord.root_pc:
            cost += 2
        if previous is not None and len(previous) == count:
            cost += 0.5 * sum(abs(a - b) for a, b in zip(previous, notes, strict=True))
        if best is None or cost < best[0]:
            best = (cost, notes)
    assert best is not None
    return best[1]


def _home_cost(chord: SoundingChord, notes: tuple[int, ...]) -> float:
    """What a tonic voicing loses without its root or third (a lot) or its fifth (some).

    The third names the mode and the root the tonic; without them a key-finder,
    and an ear, drift to the key a fourth up (its fifth is our tonic) or the relative.
    """
    held = {p % 12 for p in notes}
    return sum(
        weight
        for interval, weight in ((0, 6.0), (_third(chord), 6.0), (7, 2.0))
        if interval is not None
        and (chord.root_pc + interval) % 12 in chord.tones
        and (chord.root_pc + interval) % 12 not in held
    )


def _triad(chord: SoundingChord) -> set[int]:
    """Root, third and fifth of the chord, as far as it holds them (pitch classes)."""
    third = _third(chord)
    intervals = (0, 7) if third is None else (0, third, 7)
    return {(chord.root_pc + i) % 12 for i in intervals} & chord.tones


def _third(chord: SoundingChord) -> int | None:
    """The chord's third as an interval above its root (3 or 4), or None (a power chord, sus)."""
    return next((i for i in (3, 4) if (chord.root_pc + i) % 12 in chord.tones), None)


def _power(chord: SoundingChord, low: int, high: int, busy: set[int]) -> tuple[int, ...]:
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


def _progression_voicings(
    ctx: PartContext, low: int, high: int, count: int, crowded: bool
) -> list[tuple[int, ...]]:
    """S2's voicings, led through the register, trimmed from the bottom to `count` notes.

    Alone in a hot section, the comping doubles its top note an octave up instead.
    """
    sized = []
    tonic = ctx.harmony.key.tonic_pc
    led = voice_led([c.voicing for c in ctx.harmony.chords], low, high)
    for chord, voicing in zip(ctx.harmony.chords, led, strict=True):
        keep: set[int] = set()
        if chord.root_pc == tonic:
            keep = _triad(chord)
            voicing = _root_position(voicing, chord.root_pc, low, high)
        notes = _trimmed(_single_colour(voicing, chord), count, keep)
        if not crowded and ctx.density == "busy" and len(notes) > 1:
            notes = _octave_doubled(notes, _triad(chord), low, high)
        sized.append(tuple(notes))
    return sized


def _octave_doubled(notes: list[int], triad: set[int], low: int, high: int) -> list[int]:
    """The top note doubled an octave up, else the bottom one down: only a root, third or fifth.

    A doubled seventh or ninth (Fmaj7's E an octave up, over and over) outweighs
    the chord it colours: a key-finder, and an ear, hear the leading tone as a third.
    """
    if notes[-1] % 12 in triad and notes[-1] + 12 <= high and notes[-1] + 12 - notes[-2] > 2:
        return [*notes, notes[-1] + 12]
    if notes[0] % 12 in triad and notes[0] - 12 >= low:
        return [notes[0] - 12, *notes]
    return notes


def _root_position(voicing: tuple[int, ...], root_pc: int, low: int, high: int) -> tuple[int, ...]:
    """The voicing with its root at the bottom (put back under a rootless one).

    Rootless and spread voicings leave the root to the bass and may put a seventh
    lowest (Fmaj7 as E–A–C–F); on the tonic chord over a sparse bass that names
    another key (the relative, or the dominant), so home is voiced from its root up.
    """
    if not voicing:
        return voicing
    root = voicing[0] - (voicing[0] - root_pc) % 12
    root = root if root >= low else root + 12
    raised = set()
    for pitch in voicing:
        while pitch < root:
            pitch += 12
        raised.add(pitch)
    return tuple(sorted({root} | {p for p in raised if p <= high}))


def _single_colour(voicing: tuple[int, ...], chord: SoundingChord) -> tuple[int, ...]:
    """The voicing with a doubled third, seventh or colour tone played once (the upper copy).

    Root and fifth double well; a doubled third of a dominant (C–E–G with two Es in F)
    is the leading tone twice over, and outweighs the key it should lead home to.
    """
    frame = {chord.root_pc, (chord.root_pc + 7) % 12}
    classes = [p % 12 for p in voicing]
    once = [pc in frame or pc not in classes[i + 1 :] for i, pc in enumerate(classes)]
    return tuple(p for p, keep in zip(voicing, once, strict=True) if keep)


def _trimmed(voicing: tuple[int, ...], count: int, keep: set[int]) -> list[int]:
    """The top `count` notes of a voicing; on the tonic chord its triad (`keep`) stays.

    Cutting from the bottom drops the root first, which a bass usually covers; on
    the tonic chord that leaves the relative major sounding (Am9 cut to C–E–G–B is
    Cmaj7), so there the lowest colour note (a seventh, a ninth) goes instead.
    An octave doubling goes before any chord tone: four fingers play four notes.
    """
    notes = list(voicing)
    while len(notes) > count:
        classes = [p % 12 for p in notes]
        # of a doubled class, the upper copy goes if it is one to keep (the root stays low)
        doubled = [
            i
            for i, pc in enumerate(classes)
            if (pc in classes[:i] if pc in keep else pc in classes[i + 1 :])
        ]
        spare = [i for i, pc in enumerate(classes) if pc not in keep]
        del notes[(doubled or spare or [0])[0]]
    return notes


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
    """The voicing by octaves and its inversions, with a cost for leaving S2's shape."""
    found = []
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
                found.append((moved, 2 * abs(rotation) + (3 if octave else 0)))
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
