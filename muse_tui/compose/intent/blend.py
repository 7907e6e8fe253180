"""Genre blends: one DNA for "jazz house" or "Frank Ocean meets Burial"."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from muse_tui.contracts.intent import CreativityDials, GenreDNAVector
from muse_tui.knowledge.genres import genre_table


def blend_genres(
    ids: Sequence[str], weights: Sequence[float] | None = None, *, root: Path | None = None
) -> GenreDNAVector:
    """The DNA of several genres mixed by `weights` (default: equal).

    Numbers (tempo, swing, complexity, energy, dials) are weighted means; modes
    and keys are ranked by weighted preference; vocabularies, roles and
    instruments are pooled; the pattern choices (drums, bass, chord rhythm,
    voicing, arrangement) come from the strongest genre, the first named on a tie; the
    drums, and the form that gives them room, from the strongest genre that has any,
    since the pooled roles keep the drums ("Aphex Twin meets Metro Boomin": ambient has
    no kit, and its form plays drums in one section of five; trap's kit and form play).
    """
    table = genre_table(root)
    if not ids:
        raise ValueError("a blend needs at least one genre")
    weights = [1.0] * len(ids) if weights is None else list(weights)
    if len(weights) != len(ids):
        raise ValueError(f"{len(ids)} genres but {len(weights)} weights")
    if any(w < 0 for w in weights) or sum(weights) <= 0:
        raise ValueError("blend weights must be non-negative and not all zero")
    merged: dict[str, float] = {}
    for genre_id, weight in zip(ids, weights, strict=True):
        merged[genre_id] = merged.get(genre_id, 0.0) + weight
    total = sum(merged.values())
    parts = [(table.get(g), w / total) for g, w in merged.items() if w > 0]
    if len(parts) == 1:
        return parts[0][0]

    strongest = max(parts, key=lambda part: part[1])[0]
    drummers = [part for part in parts if part[0].drum_family != "none"]
    drums = max(drummers, key=lambda part: part[1])[0] if drummers else strongest

    def mean(value: Callable[[GenreDNAVector], float]) -> float:
        return round(sum(value(dna) * w for dna, w in parts), 3)

    low, high = mean(lambda d: d.tempo_range[0]), mean(lambda d: d.tempo_range[1])
    half_weight = sum(w for dna, w in parts if dna.half_time)
    return GenreDNAVector(
        genre="+".join(merged),
        display_name=" × ".join(dna.display_name for dna, _ in parts),
        blend={dna.genre: round(w, 4) for dna, w in parts},
        tempo_range=(low, high),
        tempo_default=min(max(mean(lambda d: d.tempo_default), low), high),
        swing=mean(lambda d: d.swing),
        half_time=half_weight > 0.5 or (half_weight == 0.5 and strongest.half_time),
        preferred_modes=_ranked((dna.preferred_modes, w) for dna, w in parts),
        preferred_keys=_ranked((dna.preferred_keys, w) for dna, w in parts),
        harmonic_vocabulary=_pooled(dna.harmonic_vocabulary for dna, _ in _by_weight(parts)),
        harmonic_complexity=mean(lambda d: d.harmonic_complexity),
        progression_length=strongest.progression_length,
        drum_family=drums.drum_family,
        bass_style=strongest.bass_style,
        chord_rhythm=strongest.chord_rhythm,
        voicing_style=strongest.voicing_style,
        roles=_pooled(dna.roles for dna, _ in _by_weight(parts)),
        instruments=_pooled(dna.instruments for dna, _ in _by_weight(parts)),
        core=_pooled(dna.core for dna, _ in _by_weight(parts)),
        arrangement_template=drums.arrangement_template,
        creativity=CreativityDials(
            harmonic=mean(lambda d: d.creativity.harmonic),
            rhythmic=mean(lambda d: d.creativity.rhythmic),
        ),
        energy=mean(lambda d: d.energy),
    )


def _by_weight(parts: list[tuple[GenreDNAVector, float]]) -> list[tuple[GenreDNAVector, float]]:
    return sorted(parts, key=lambda part: -part[1])  # stable: first named wins a tie


def _ranked(preferences: Iterable[tuple[list[str], float]]) -> list[str]:
    """Items ordered by weighted preference: earlier in a stronger genre's list scores more."""
    scores: dict[str, float] = {}
    for items, weight in preferences:
        for rank, item in enumerate(items):
            scores[item] = scores.get(item, 0.0) + weight * (1 - rank / (len(items) + 1))
    return sorted(scores, key=lambda item: -scores[item])


def _pooled(lists: Iterable[list[str]]) -> list[str]:
    pooled: list[str] = []
    for items in lists:
        pooled.extend(item for item in items if item not in pooled)
    return pooled
