"""How good a take is and how different two takes are: the heuristic A/B scores and distances.

Scores: harmonic (share of notes or chords outside the key), rhythmic (density
against the genre's norm), consonance (tension against the genre's range).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence

from pydantic import JsonValue

from muse_tui.compose.arrangement import chords_in_song
from muse_tui.compose.critics.rhythm import density_norm
from muse_tui.compose.harmony import song_key
from muse_tui.contracts import (
    EnrichedProgression,
    GenreDNAVector,
    Note,
    PipelineIntent,
    ProgressionChord,
    SongState,
    Track,
)
from muse_tui.theory import ChordSyntaxError, parse_chord


def outside_share(progression: EnrichedProgression, key_pcs: frozenset[int]) -> float:
    """Share of chords with a note outside the key."""
    outside = 0
    for chord in progression.chords:
        try:
            pcs = parse_chord(chord.symbol).pitch_classes
        except ChordSyntaxError:
            pcs = frozenset(p % 12 for p in chord.voicing)
        outside += not pcs <= key_pcs
    return outside / len(progression.chords)


def harmonic_score(outside: float) -> float:
    """1 up to half the chords outside the key, falling to 0 when all are."""
    return round(max(0.0, 1.0 - max(0.0, outside - 0.5) * 2), 3)


def rhythmic_score(density: float, norm: float) -> float:
    """1 at the genre's density, 0.5 at double or half of it."""
    if density <= 0 or norm <= 0:
        return 0.0
    return round(0.5 ** abs(math.log2(density / norm)), 3)


def consonance_score(tension: float, low: float, high: float) -> float:
    """1 inside the genre's tension range, falling off twice as fast as it strays."""
    distance = max(low - tension, tension - high, 0.0)
    return round(max(0.0, 1.0 - 2 * distance), 3)


def tension_range(harmonic_complexity: float) -> tuple[float, float]:
    """Where a genre's average chord tension sits: plain pop low, jazz high."""
    centre = 0.2 + 0.3 * harmonic_complexity
    return round(centre - 0.12, 3), round(centre + 0.12, 3)


def composite(harmonic: float, rhythmic: float, consonance: float) -> float:
    return round(0.4 * harmonic + 0.3 * rhythmic + 0.3 * consonance, 3)


def part_score(song: SongState, intent: PipelineIntent | None, track: Track) -> float:
    """A part: notes in the key, busyness against the genre's, notes on the chord that sounds."""
    notes = track.notes
    if not notes:
        return 0.0
    bars = max(1, len({int(n.start_beat // song.beats_per_bar) for n in notes}))
    onsets = len({round(n.start_beat * 12) for n in notes}) / bars
    rhythmic = rhythmic_score(onsets, density_norm(song, intent))
    if track.is_drums or song.progression is None:
        return composite(1.0, rhythmic, 1.0)
    key_pcs = frozenset(song_key(song.progression).pitch_classes)
    outside = sum(n.pitch % 12 not in key_pcs for n in notes) / len(notes)
    off_chord = _off_chord_share(song, notes)
    return composite(harmonic_score(outside), rhythmic, consonance_score(off_chord, 0.0, 0.35))


def progression_score(progression: EnrichedProgression, dna: GenreDNAVector | None) -> float:
    """A progression: chords outside the key, its length, its tension against the genre's range."""
    key_pcs = frozenset(song_key(progression).pitch_classes)
    low, high = dna.progression_length if dna else (4, 4)
    rhythmic = 1.0 if low <= len(progression.chords) <= high else 0.75
    tension = sum(c.tension for c in progression.chords) / len(progression.chords)
    consonance = consonance_score(tension, *tension_range(dna.harmonic_complexity if dna else 0.3))
    return composite(harmonic_score(outside_share(progression, key_pcs)), rhythmic, consonance)


def _off_chord_share(song: SongState, notes: list[Note]) -> float:
    assert song.progression is not None
    placed = []
    for section in song.arrangement.sections if song.arrangement else []:
        placed += chords_in_song(song, section, song.progression)
    if not placed:
        return 0.0
    tones = [(p.start_beat, p.end_beat, _pitch_classes(p.chord)) for p in placed]
    off, i = 0, 0
    for note in sorted(notes, key=lambda n: n.start_beat):
        while i + 1 < len(tones) and tones[i][1] <= note.start_beat:
            i += 1
        off += note.pitch % 12 not in tones[i][2]
    return off / len(notes)


def _pitch_classes(chord: ProgressionChord) -> frozenset[int]:
    try:
        return parse_chord(chord.symbol).pitch_classes
    except ChordSyntaxError:
        return frozenset(p % 12 for p in chord.voicing)


def content_hash(value: JsonValue) -> str:
    """A short, stable hash of a take's content (identical takes hash alike)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def note_edit_distance(a: Sequence[Note], b: Sequence[Note]) -> int:
    """Notes to add or remove to turn one part into the other, on a 16th grid."""
    counts: dict[tuple[int, int], int] = {}
    for note in a:
        key = (note.pitch, round(note.start_beat * 4))
        counts[key] = counts.get(key, 0) + 1
    for note in b:
        key = (note.pitch, round(note.start_beat * 4))
        counts[key] = counts.get(key, 0) - 1
    return sum(abs(v) for v in counts.values())


def progression_distance(a: EnrichedProgression, b: EnrichedProgression) -> int:
    """Chords that differ by symbol (2 each) or only by voicing (1 each), plus any extra chords."""
    distance = 2 * abs(len(a.chords) - len(b.chords))
    for x, y in zip(a.chords, b.chords, strict=False):
        distance += 2 if x.symbol != y.symbol else int(sorted(x.voicing) != sorted(y.voicing))
    return distance
