"""The jam's shared context from a prompt: key, tempo, the loop's chords, the band's tracks.

A jam stays in its key: the loop's progression is the genre's own (from its
library), taken only when every chord tone is in the key, so every member can
play it without leaving the scale; a key change moves the same changes to the
new tonic (or, for a new mode, takes the genre's loop in that mode).
"""

from __future__ import annotations

import math

from muse_tui.contracts import EnrichedProgression, PipelineIntent, Track
from muse_tui.contracts.jam import JamContext
from muse_tui.knowledge.jam import BandTable, Persona
from muse_tui.theory.chord import ChordSyntaxError, parse_chord
from muse_tui.theory.key import Key, key_of
from muse_tui.theory.pitch import pitch_class

from ..harmony import generate_progression, song_key
from ..parts import choose_tracks
from ..seeding import derive_rng
from ..transposition import transposed

#: How many of the genre's progressions are tried before settling for a plain diatonic loop.
_TRIES = 12
_LONGEST_LOOP_BARS = 8
_DEFAULT_TEMPO = 110.0


def band_intent(intent: PipelineIntent, band: BandTable) -> PipelineIntent:
    """The intent with one role per member: the prompt's own role for it where it named one."""
    asked = list(intent.roles or (intent.genre_dna.roles if intent.genre_dna else []))
    roles = [_role_for(member, asked) for member in band.members]
    return intent.model_copy(update={"roles": roles})


def _role_for(member: Persona, asked: list[str]) -> str:
    return next((r for r in asked if r in member.roles), member.roles[0])


def band_tracks(intent: PipelineIntent, band: BandTable, seed: int) -> dict[str, Track]:
    """Member id → the track they play (the song's own instruments for those roles)."""
    tracks = choose_tracks(intent, derive_rng(seed, "jam", "tracks"))
    by_role = {t.role: t for t in tracks}
    return {m.id: by_role[_role_for(m, list(by_role))] for m in band.members}


def start_context(
    intent: PipelineIntent, band: BandTable, seed: int, loop_bars: int | None = None
) -> JamContext:
    """Key, tempo and loop of a new jam (`loop_bars`: a loop of that length, else the band's)."""
    key = song_key(intent)
    tempo = intent.tempo_analysis.bpm if intent.tempo_analysis else intent.tempo
    progression = loop_progression(intent, key, seed)
    meter = intent.meter
    beats_per_bar = meter.beats_per_bar if meter is not None else 4.0
    bars = loop_bars or min(
        _LONGEST_LOOP_BARS,
        max(band.loop_bars, math.ceil(progression.total_beats / beats_per_bar - 1e-9)),
    )
    return JamContext(
        key=key.tonic,
        mode=key.mode,
        tempo=float(tempo or _DEFAULT_TEMPO),
        bars=bars,
        beats_per_bar=beats_per_bar,
        progression=_fitted(progression, bars * beats_per_bar),
        meter=meter,
    )


def loop_progression(intent: PipelineIntent, key: Key, seed: int) -> EnrichedProgression:
    """The genre's first loop in this key whose every chord tone is in the key."""
    keyed = intent.model_copy(
        update={"key": key.tonic, "mode": key.mode, "explicit_progression": []}
    )
    first: EnrichedProgression | None = None
    for variant in range(_TRIES):
        rng = derive_rng(seed, "jam", "progression", key.name, variant)
        progression = generate_progression(
            keyed,
            rng,
            variant=variant,
            beats_per_bar=intent.meter.beats_per_bar if intent.meter else 4.0,
        )
        first = first or progression
        if in_key(progression, key):
            return progression
    return _diatonic(first, key)  # type: ignore[arg-type]  # _TRIES > 0


def moved_to(context: JamContext, intent: PipelineIntent, key: Key, seed: int) -> JamContext:
    """The context in another key: the same changes moved, or the genre's loop in a new mode."""
    if key.mode == context.mode:
        shift = key.tonic_pc - key_of(context.key, context.mode).tonic_pc
        progression = transposed(context.progression, shift, key)
    else:
        progression = _fitted(loop_progression(intent, key, seed), context.loop_beats)
    return context.model_copy(
        update={"key": key.tonic, "mode": key.mode, "progression": progression}
    )


def in_key(progression: EnrichedProgression, key: Key) -> bool:
    """Every chord's tones (and voicing) are notes of the key."""
    for chord in progression.chords:
        if any(not key.contains(p % 12) for p in chord.voicing):
            return False
        try:
            parsed = parse_chord(chord.symbol)
        except ChordSyntaxError:
            return False
        if any(not key.contains(pc) for pc in _pitch_classes(parsed.tones())):
            return False
    return True


def _pitch_classes(names: tuple[str, ...]) -> set[int]:
    return {pitch_class(n) for n in names}


def _diatonic(progression: EnrichedProgression, key: Key) -> EnrichedProgression:
    """The progression with every voicing note moved into the key (the last resort)."""
    chords = []
    for chord in progression.chords:
        voicing = sorted({_into(p, key) for p in chord.voicing})
        chords.append(chord.model_copy(update={"voicing": voicing}))
    return progression.model_copy(update={"chords": chords})


def _into(pitch: int, key: Key) -> int:
    for distance in range(7):
        for candidate in (pitch - distance, pitch + distance):
            if key.contains(candidate % 12):
                return candidate
    return pitch


def _fitted(progression: EnrichedProgression, loop_beats: float) -> EnrichedProgression:
    """The progression repeated or cut to fill the loop exactly."""
    chords = []
    total = 0.0
    while total < loop_beats - 1e-9:
        for chord in progression.chords:
            if total >= loop_beats - 1e-9:
                break
            beats = min(chord.beats, loop_beats - total)
            chords.append(chord.model_copy(update={"beats": beats}))
            total += beats
    return progression.model_copy(update={"chords": chords})
