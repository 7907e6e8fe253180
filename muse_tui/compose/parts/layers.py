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
from muse_tui.theory.spacing import clear_low_intervals

from .context import PartContext
from .harmony import SoundingChord
from .voicing import colours, layer_chord, low_limit, power_chord, triad, voice_led

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
    A guitar's idiom (a rhythm with an `unstrummed` version: the disco scratch)
    seats a guitar first, and a band with none plays the keyboard version.
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
    if (unstrummed := _rhythm(ctx, genre).unstrummed) is not None and comping:
        # a guitar's idiom (the disco scratch): a guitar takes the seat, else a keyboard
        # plays the rhythm's keyboard version
        strummers = [t for t in comping if strums(ctx, t)]
        if strummers:
            comping.remove(strummers[0])
            comping.insert(0, strummers[0])
        else:
            genre = unstrummed
            answer = _rhythm(ctx, genre).answer
    keys_comp = bool(comping) and not holds_chords(ctx, comping[0])
    if genre == "sustained" and keys_comp and any(t.role == "pad" or t in held for t in band):
        genre, answer = answer, genre  # a pad already holds the chords: the keys pulse them
    found: dict[str, Placement] = {}
    for track in band:
        if track.role == "pad":
            found[track.role] = Placement("pad", "sustained", crowded)
        elif track.role == "arp":
            found[track.role] = Placement("arp", _rhythm(ctx, genre).arp, crowded)
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
    sets: list[list[frozenset[int]]] = [[] for _ in ctx.harmony.chords]
    for role, placement in ordered:
        voicings = _voice(ctx, placement, taken, len(placed), sets)
        if role == ctx.track.role:
            return voicings
        for chord_taken, chord_sets, voicing in zip(taken, sets, voicings, strict=True):
            chord_taken.update(voicing)
            if placement.layer != "arp":  # one note at a time never stacks a chord
                chord_sets.append(frozenset(p % 12 for p in voicing))
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


def strums(ctx: PartContext, track: Track) -> bool:
    """Whether the track's instrument strums (a guitar, a banjo), not strikes, its chords."""
    program = track.program
    return program is None or _plays(track, ctx.table.strum_programs)


def _plays(track: Track, programs: list[tuple[int, int]]) -> bool:
    program = track.program
    return program is not None and any(lo <= program <= hi for lo, hi in programs)


def _rhythm(ctx: PartContext, name: str) -> CompingRhythm:
    return ctx.table.comping[name]  # type: ignore[index]


def _voice(
    ctx: PartContext,
    placement: Placement,
    taken: list[set[int]],
    band: int,
    sets: list[list[frozenset[int]]],
) -> list[tuple[int, ...]]:
    """The layer's voicing of every chord: clear of the `taken` pitches and, where it can,
    of the pitch-class `sets` the layers before it play on the same chord."""
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
            power_chord(chord, low, high, busy)
            for chord, busy in zip(ctx.harmony.chords, taken, strict=True)
        ]
    if placement.layer == "comp":
        return _progression_voicings(ctx, low, high, count, placement.crowded)
    upper = placement.layer == "pad"
    target = low + (high - low) * (0.6 if upper else 0.45)
    tonic = ctx.harmony.key.tonic_pc
    voicings: list[tuple[int, ...]] = []
    scale = ctx.harmony.scale
    for chord, busy, apart in zip(ctx.harmony.chords, taken, sets, strict=True):
        previous = next((v for v in reversed(voicings) if v), None)
        centre = target if previous is None else (sum(previous) / len(previous) + target) / 2
        home = chord.root_pc == tonic
        # alone, the bed holds the whole tonic triad even where it would play two notes
        notes = max(count, len(triad(chord))) if home and band == 1 else count
        voicing = layer_chord(
            chord,
            busy,
            (low, high),
            notes,
            centre,
            previous,
            upper,
            home,
            apart,
            colours(chord, scale, home),
        )
        voicings.append(voicing)
    return voicings


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
            keep = triad(chord)
            voicing = _root_position(voicing, chord.root_pc, low, high)
        notes = _trimmed(_single_colour(voicing, chord), count, keep)
        if crowded:
            notes = _fifth_left_out(notes, chord)
        elif ctx.density == "busy" and len(notes) > 1:
            notes = _octave_doubled(notes, triad(chord), low, high)
        sized.append(clear_low_intervals(notes, high + 12, low_limit()))
    return sized


def _fifth_left_out(notes: list[int], chord: SoundingChord) -> list[int]:
    """The comping's notes without the chord's 5th, when a third and another tone remain.

    Beside a pad, an organ or strings the piano leaves the 5th to them (the first
    tone a player drops): the other layer then holds a chord tone of its own, so the
    two split the chord without either adding colour the harmony never had.
    """
    fifth = (chord.root_pc + 7) % 12
    third = next((t for t in (3, 4) if (chord.root_pc + t) % 12 in chord.tones), None)
    kept = [p for p in notes if p % 12 != fifth]
    if third is None or len({p % 12 for p in kept}) < 2:
        return notes
    return kept


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
