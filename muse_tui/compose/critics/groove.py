"""Does the groove fit the genre: the song's main drum bar against its drum family's bars.

Only the three voices that define a groove are compared — kick, backbeat (snare,
clap, rim) and the time-keeping cymbal (hats, ride) — as 16th steps, each voice on
its own and then weighted: eight hats on the 8ths are in half the styles there are,
so the kick and the backbeat, where genres differ, weigh most. A trap bar in a bossa
nova is far from every jazz-ride bar however it is humanised.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from muse_tui.contracts.intent import PipelineIntent
from muse_tui.contracts.song import SongState
from muse_tui.knowledge.critics import GrooveVoice
from muse_tui.knowledge.rhythm import DrumPattern, FamilyRhythm, rhythm_table
from muse_tui.theory.drums import VOICE_PITCHES

from .listening import STEPS_PER_BEAT, Part, jaccard, step

KICKS = frozenset({35, 36})
BACKBEATS = frozenset({37, 38, 39, 40})  # side stick, snare, clap, electric snare
TIME_CYMBALS = frozenset({42, 44, 46, 51, 59})  # hats, and the ride that stands in for them

DrumBar = frozenset[tuple[str, int]]


def drum_voice(pitch: int) -> str | None:
    """ "kick", "snare" or "hat" for the voices a groove is made of; None for the rest."""
    if pitch in KICKS:
        return "kick"
    if pitch in BACKBEATS:
        return "snare"
    if pitch in TIME_CYMBALS:
        return "hat"
    return None


def main_drum_bar(song: SongState, drums: Sequence[Part]) -> DrumBar:
    """The song's most frequent non-empty drum bar (the earliest wins a tie); empty if none."""
    bar_steps = round(song.beats_per_bar * STEPS_PER_BEAT)
    bars: dict[int, set[tuple[str, int]]] = {}
    for part in drums:
        for start, _, pitch, _ in part.notes:
            voice = drum_voice(pitch)
            if voice is not None:
                at = step(start)
                bars.setdefault(at // bar_steps, set()).add((voice, at % bar_steps))
    ordered = [frozenset(bars[b]) for b in sorted(bars)]
    if not ordered:
        return frozenset()
    counts = Counter(ordered)
    best = max(counts.values())
    return next(b for b in ordered if counts[b] == best)


def family_bars(family: FamilyRhythm, bar_steps: int) -> list[DrumBar]:
    """Every bar the family's sparse, base and busy patterns play, as (voice, step) pairs."""
    patterns = [*family.patterns.sparse, *family.patterns.base, *family.patterns.busy]
    return [bar for pattern in patterns for bar in _pattern_bars(pattern, bar_steps)]


def _pattern_bars(pattern: DrumPattern, bar_steps: int) -> list[DrumBar]:
    bars: list[set[tuple[str, int]]] = [set() for _ in range(-(-pattern.steps // bar_steps))]
    for voice, grid in pattern.voices.items():
        kind = drum_voice(VOICE_PITCHES.get(voice, -1))
        for at, hit in enumerate(grid):
            if kind is not None and hit != ".":
                bars[at // bar_steps].add((kind, at % bar_steps))
    return [frozenset(b) for b in bars if b]


def song_family(intent: PipelineIntent | None) -> FamilyRhythm | None:
    """The drum family the genre asks for, if it has one (ambient asks for none)."""
    dna = intent.genre_dna if intent else None
    return None if dna is None else rhythm_table().drums.families.get(dna.drum_family)


@dataclass(frozen=True)
class GrooveFit:
    """How close the drums are to the genre's family, and its signature sounds never hit."""

    family: str
    likeness: float
    signature: tuple[str, ...]
    missing: tuple[str, ...]

    def score(self, signature_weight: float) -> float:
        """The likeness, cut by `signature_weight` when every signature sound is missing."""
        share = len(self.missing) / len(self.signature) if self.signature else 0.0
        return self.likeness * (1 - signature_weight * share)


def genre_fit(
    song: SongState,
    intent: PipelineIntent | None,
    drums: Sequence[Part],
    weights: Mapping[GrooveVoice, float],
) -> GrooveFit | None:
    """The main drum bar against the nearest bar of the genre's family, and the family's
    signature sounds the drums never play.

    None when there is nothing to compare: no drums heard, or a genre without a family.
    """
    family = song_family(intent)
    main = main_drum_bar(song, drums)
    if family is None or not main:
        return None
    bar_steps = round(song.beats_per_bar * STEPS_PER_BEAT)
    bars = family_bars(family, bar_steps)
    likeness = max((voice_jaccard(main, bar, weights) for bar in bars), default=1.0)
    hit = {n[2] for p in drums for n in p.notes}
    signature = tuple(signature_voices(family))
    missing = tuple(v for v in signature if VOICE_PITCHES[v] not in hit)
    return GrooveFit(family.display_name.lower(), likeness, signature, missing)


def signature_voices(family: FamilyRhythm) -> list[str]:
    """Sounds beyond kick, backbeat and cymbal that every base pattern of the family plays:
    phonk's cowbell, afrobeats' shaker and claves. A groove without them is another style's.
    """
    played = [{v for v, grid in p.voices.items() if grid.strip(".")} for p in family.patterns.base]
    every = set.intersection(*played) if played else set()
    return sorted(v for v in every if v in VOICE_PITCHES and drum_voice(VOICE_PITCHES[v]) is None)


def voice_jaccard(a: DrumBar, b: DrumBar, weights: Mapping[GrooveVoice, float]) -> float:
    """Each voice's Jaccard of steps, weighted, over the voices either bar plays."""
    total = weight = 0.0
    for voice, w in weights.items():
        steps_a = {at for v, at in a if v == voice}
        steps_b = {at for v, at in b if v == voice}
        if steps_a or steps_b:
            total += w * jaccard(steps_a, steps_b)
            weight += w
    return total / weight if weight else 1.0
