"""Harmony: notes in the key, chord tones on strong beats, smooth voice-leading."""

from __future__ import annotations

import contextlib
import math
from collections import defaultdict
from collections.abc import Sequence

from muse_tui.contracts.song import SongState
from muse_tui.theory import (
    SCALE_STEPS,
    ChordSyntaxError,
    key_of,
    parse_chord,
    voice_leading_motion,
)

from .listening import NEUTRAL, Part, Verdict, clamp, is_drums, percent, worst_cause

HARMONY_ROLES = frozenset({"chords", "keys", "pad"})
#: Roles whose strong-beat notes should land on chord tones.
LINE_ROLES = frozenset({"bass", "sub_bass", "lead", "arp"})
ON_BEAT = 0.08  # beats of humanised slack around a strong beat


def judge_harmony(song: SongState, parts: Sequence[Part]) -> Verdict:
    """In-key rate (worst part counts double), chord tones on strong beats, voice-leading."""
    pitched = [p for p in parts if p.notes and not is_drums(p.track)]
    if not pitched:
        return Verdict(0.0, "there are no pitched notes to judge")
    allowed = key_pitch_classes(song) | _progression_pitch_classes(song)
    rates = [sum(n[2] % 12 in allowed for n in p.notes) / len(p.notes) for p in pitched]
    worst = min(range(len(pitched)), key=lambda i: (rates[i], pitched[i].label))
    in_key = 0.5 * sum(rates) / len(rates) + 0.5 * rates[worst]
    in_key_score = clamp((in_key - 0.6) / 0.35)
    coverage = chord_tone_coverage(song, pitched)
    coverage_score = NEUTRAL if coverage is None else clamp((coverage - 0.3) / 0.5)
    motion = chord_motion(song)
    motion_score = NEUTRAL if motion is None else clamp(1 - (motion - 2) / 6)
    causes = [
        (
            in_key_score,
            f"the {pitched[worst].label} leaves the key on {percent(1 - rates[worst])}% of notes",
        ),
        (coverage_score, f"only {percent(coverage or 0)}% of strong-beat notes are chord tones"),
        (motion_score, f"the chords jump {motion or 0:.1f} semitones per voice between changes"),
    ]
    return Verdict(
        0.5 * in_key_score + 0.3 * coverage_score + 0.2 * motion_score, worst_cause(causes)
    )


def song_scale(song: SongState) -> tuple[int, str]:
    """The tonic pitch class and scale kind: a mode in the key text ("Am") wins over `mode`."""
    key = key_of(song.key, song.mode)
    return key.tonic_pc, key.mode


def key_name(song: SongState) -> str:
    """The key as a musician says it: "A minor", "D dorian"."""
    return key_of(song.key, song.mode).name


def key_pitch_classes(song: SongState) -> frozenset[int]:
    """The song's scale; minor keys also allow their raised sixth and seventh."""
    tonic, kind = song_scale(song)
    pcs = {(tonic + step) % 12 for step in SCALE_STEPS[kind]}
    if kind in ("minor", "aeolian", "harmonic minor", "melodic minor"):
        pcs |= {(tonic + 9) % 12, (tonic + 11) % 12}
    return frozenset(pcs)


def chord_tone_coverage(song: SongState, parts: Sequence[Part]) -> float | None:
    """Share of bass, lead and arp notes on strong beats that belong to the sounding chord."""
    sounding = _harmony_timeline(parts)
    bar = song.beats_per_bar
    strong = (0.0, bar / 2) if bar % 2 == 0 else (0.0,)
    hits = total = 0
    for part in parts:
        if part.track.role not in LINE_ROLES:
            continue
        for start, _, pitch, _ in part.notes:
            # Distance to the nearest strong beat, so a note pushed just ahead of the bar counts.
            if min(abs((start - b + bar / 2) % bar - bar / 2) for b in strong) > ON_BEAT:
                continue
            chord = _chord_at(start, sounding, song)
            if chord:
                total += 1
                hits += pitch % 12 in chord
    return hits / total if total else None


def chord_motion(song: SongState) -> float | None:
    """Mean semitones each voice moves between consecutive progression voicings (looping)."""
    if song.progression is None or len(song.progression.chords) < 2:
        return None
    voicings = [c.voicing for c in song.progression.chords]
    moves = [_motion(a, b) for a, b in zip(voicings, [*voicings[1:], voicings[0]], strict=True)]
    return sum(moves) / len(moves)


def _motion(a: Sequence[int], b: Sequence[int]) -> float:
    if len(a) == len(b):
        return voice_leading_motion(a, b) / len(a)
    # Voices appear or vanish: each note moves to the nearest note of the other chord.
    forward = sum(min(abs(x - y) for y in a) for x in b) / len(b)
    backward = sum(min(abs(x - y) for y in b) for x in a) / len(a)
    return (forward + backward) / 2


def _harmony_timeline(parts: Sequence[Part]) -> dict[int, list[tuple[float, float, int]]]:
    by_beat: dict[int, list[tuple[float, float, int]]] = defaultdict(list)
    for part in parts:
        if part.track.role in HARMONY_ROLES:
            for start, end, pitch, _ in part.notes:
                for beat in range(int(start), math.ceil(end)):
                    by_beat[beat].append((start, end, pitch % 12))
    return by_beat


def _chord_at(
    beat: float, sounding: dict[int, list[tuple[float, float, int]]], song: SongState
) -> set[int] | None:
    """The pitch classes sounding in the harmony parts at `beat`, else the progression's chord."""
    pcs = {pc for s, e, pc in sounding.get(int(beat), ()) if s <= beat + 0.125 and e > beat}
    if len(pcs) >= 2:
        return pcs
    if song.progression is None:
        return None
    at = beat % song.progression.total_beats
    for chord in song.progression.chords:
        if at < chord.beats:
            return _chord_pitch_classes(chord.symbol, chord.voicing)
        at -= chord.beats
    return None


def _chord_pitch_classes(symbol: str, voicing: Sequence[int]) -> set[int]:
    pcs = {n % 12 for n in voicing}
    with contextlib.suppress(ChordSyntaxError, ValueError):
        pcs |= set(parse_chord(symbol).pitch_classes)
    return pcs


def _progression_pitch_classes(song: SongState) -> frozenset[int]:
    if song.progression is None:
        return frozenset()
    return frozenset().union(
        *(_chord_pitch_classes(c.symbol, c.voicing) for c in song.progression.chords)
    )
