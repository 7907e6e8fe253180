"""A progression, or one chord, moved to another key of the same mode."""

from __future__ import annotations

from muse_tui.contracts import EnrichedProgression, ProgressionChord
from muse_tui.theory import Chord, ChordSyntaxError, Key, parse_chord, to_roman
from muse_tui.theory.key import key_of, tonic_name


def transposed(progression: EnrichedProgression, semitones: int, key: Key) -> EnrichedProgression:
    """The same progression in another key of the same mode, kept in its register."""
    shift = semitones % 12
    shift = shift - 12 if shift > 6 else shift
    chords = [transposed_chord(chord, shift, key) for chord in progression.chords]
    sections = {k: transposed(p, semitones, key) for k, p in progression.sections.items()}
    return progression.model_copy(
        update={"key": key.tonic, "mode": key.mode, "chords": chords, "sections": sections}
    )


def transposed_chord(chord: ProgressionChord, semitones: int, key: Key) -> ProgressionChord:
    """One chord moved `semitones` (its voicing by exactly that), spelled and named in `key`."""
    voicing = [min(127, max(0, p + semitones)) for p in chord.voicing]
    try:
        parsed = parse_chord(chord.symbol)
    except ChordSyntaxError:
        return chord.model_copy(update={"voicing": voicing})
    moved = parsed.transpose(semitones % 12)
    bass = key.spell(moved.bass_pc) if moved.bass_name else None
    moved = Chord(key.spell(moved.root_pc), moved.degrees, bass)
    roman = to_roman(moved, key) or chord.roman
    return chord.model_copy(update={"symbol": moved.symbol, "roman": roman, "voicing": voicing})


def shifted_key(key: Key, semitones: int) -> Key:
    """The key `semitones` above `key`, in the same mode, spelled as usual (Bb up a step: C)."""
    if not semitones:
        return key
    return key_of(tonic_name(key.tonic_pc + semitones, key.mode), key.mode)
