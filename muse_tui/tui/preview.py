"""What the approval gate plays when the producer auditions a progression.

The chords are played exactly as S2 voiced them, one after another for their
beats: a transcription of the contract, no musical choice made here.
"""

from __future__ import annotations

import random

from muse_tui.contracts import EnrichedProgression, Note, Region, SongState, Track, new_id

PREVIEW_VELOCITY = 84
PIANO = 0  # GM Acoustic Grand: the neutral stand-in for hearing chords


def progression_preview(song: SongState, progression: EnrichedProgression) -> SongState:
    """The song so far with one chord track that plays the progression once."""
    rng = random.Random(f"preview:{progression.variant}")
    notes: list[Note] = []
    beat = 0.0
    for chord in progression.chords:
        notes.extend(
            Note(
                pitch=pitch,
                velocity=PREVIEW_VELOCITY,
                start_beat=beat,
                duration_beats=chord.beats,
            )
            for pitch in chord.voicing
        )
        beat += chord.beats
    region = Region(
        id=new_id(rng), name="progression", start_beat=0, length_beats=beat, notes=notes
    )
    track = Track(
        id=new_id(rng), name="Chords", role="chords", channel=0, program=PIANO, regions=[region]
    )
    return song.model_copy(update={"tracks": [track], "arrangement": None})
