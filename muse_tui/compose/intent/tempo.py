"""Choosing the BPM: as asked, where influences meet (maybe at half time), or the genre's own."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from muse_tui.contracts.intent import Ambiguity, GenreDNAVector, TempoAnalysis


@dataclass(frozen=True)
class TempoSource:
    """A tempo range something in the prompt brings: a named genre or a known artist."""

    name: str
    low: float
    high: float
    is_artist: bool

    def label(self) -> str:
        return f"{self.name} ({self.low:g}–{self.high:g} BPM)"


@dataclass(frozen=True)
class Meeting:
    """How several tempo ranges relate: they overlap, or one is the other at double speed."""

    low: float
    high: float
    half_time: bool
    slow: tuple[TempoSource, ...] = ()
    fast: tuple[TempoSource, ...] = ()


@dataclass(frozen=True)
class TempoChoice:
    """The resolved tempo, plus anything the producer might want to reconsider."""

    analysis: TempoAnalysis
    ambiguities: list[Ambiguity]
    meeting: Meeting | None


def where_tempos_meet(sources: Sequence[TempoSource]) -> Meeting | None:
    """The shared range of `sources`, or a half-time meeting, or None when they clash.

    Half-time: split the ranges into a slow and a fast group; if halving the fast
    group's shared range overlaps the slow group's, the song runs at the fast
    tempo and feels like the slow one (Frank Ocean 60–75 × Burial 130–140).
    """
    if not sources:
        return None
    shared = _overlap(sources)
    if shared is not None:
        return Meeting(*shared, half_time=False)
    ordered = sorted(sources, key=lambda s: (s.low + s.high) / 2)
    for split in range(1, len(ordered)):
        slow, fast = ordered[:split], ordered[split:]
        slow_range, fast_range = _overlap(slow), _overlap(fast)
        if slow_range is None or fast_range is None:
            continue
        halved = (fast_range[0] / 2, fast_range[1] / 2)
        if halved[0] <= slow_range[1] and slow_range[0] <= halved[1]:
            return Meeting(*fast_range, half_time=True, slow=tuple(slow), fast=tuple(fast))
    return None


def choose_tempo(
    dna: GenreDNAVector,
    components: Sequence[GenreDNAVector],
    asked: Sequence[float],
    sources: Sequence[TempoSource],
    shift: float,
    half_time_hint: bool | None,
    usual: float | None = None,
    shifted_by: str = "the mood",
) -> TempoChoice:
    """The song's BPM: as asked, else where the sources meet, else the genre's `usual` tempo.

    `shift` (-1…+1, from moods, words like "slow" and sub-genres like "jazz
    ballad") moves an unasked tempo toward the edge of its range; `shifted_by`
    says what moved it, for the reasoning.
    """
    meeting = where_tempos_meet(sources) if len(sources) > 1 else None
    usual = dna.tempo_default if usual is None else usual
    if asked:
        return TempoChoice(
            _asked_tempo(asked[0], dna, meeting, half_time_hint),
            _asked_notes(asked, dna, components),
            meeting,
        )
    if meeting is not None and meeting.half_time:
        bpm = _round((meeting.low + meeting.high) / 2)
        half = half_time_hint is not False
        slow = " and ".join(s.label() for s in meeting.slow)
        fast = " and ".join(s.label() for s in meeting.fast)
        analysis = _analysis(
            bpm,
            "influence_intersection" if _any_artist(sources) else "genre_default",
            half,
            0.8,
            f"{slow} meets {fast} once the faster range is halved, so {bpm:g} BPM "
            f"felt at half time ({bpm / 2:g}).",
        )
        return TempoChoice(analysis, [], meeting)
    if len(sources) > 1 and meeting is None:
        bpm = _round(usual)
        names = " and ".join(s.label() for s in sources)
        reason = f"{names} rarely share a tempo, so I went between them at {bpm:g} BPM."
        note = Ambiguity(
            field="tempo",
            reason=reason,
            options=[f"{_round((s.low + s.high) / 2):g}" for s in sources],
            default_value=f"{bpm:g}",
            severity="optional",
        )
        analysis = _analysis(bpm, "genre_default", bool(half_time_hint), 0.4, reason)
        return TempoChoice(analysis, [note], None)

    low, high = (meeting.low, meeting.high) if meeting else _range_of(sources, dna)
    default = usual if low <= usual <= high else (low + high) / 2
    reach = (high - default) if shift > 0 else (default - low)
    bpm = _round(default + shift * reach)
    lean = f", {'faster' if shift > 0 else 'slower'} for {shifted_by}" if shift else ""
    name = genre_words(dna)
    if sources and _any_artist(sources):
        names = ", ".join(s.name for s in sources)
        reasoning = f"{bpm:g} BPM sits where {names} usually play ({low:g}–{high:g}){lean}."
        source, confidence = "influence_intersection", 0.75
    elif shift:
        reasoning = f"{bpm:g} BPM: {name} usually sits at {default:g}{lean}."
        source, confidence = "mood_inferred", 0.6
    else:
        reasoning = (
            f"{name[:1].upper()}{name[1:]} usually sits around {bpm:g} BPM ({low:g}–{high:g})."
        )
        source, confidence = "genre_default", 0.6
    half = _felt_half(bpm, dna) if half_time_hint is None else half_time_hint
    return TempoChoice(_analysis(bpm, source, half, confidence, reasoning), [], meeting)


def _asked_tempo(
    bpm: float, dna: GenreDNAVector, meeting: Meeting | None, hint: bool | None
) -> TempoAnalysis:
    if hint is not None:
        half = hint
    elif meeting is not None and meeting.half_time:
        half = meeting.low * 0.95 <= bpm <= meeting.high * 1.05
    else:
        half = _felt_half(bpm, dna)
    reasoning = f"You asked for {bpm:g} BPM."
    if half:
        reasoning += f" It grooves at half time, so it feels like {bpm / 2:g}."
    return _analysis(bpm, "explicit", half, 1.0, reasoning)


def _asked_notes(
    asked: Sequence[float], dna: GenreDNAVector, components: Sequence[GenreDNAVector]
) -> list[Ambiguity]:
    notes = []
    outside = _outside_norm(asked[0], dna, components)
    if outside is not None:
        notes.append(outside)
    if len(set(asked)) > 1:
        notes.append(
            Ambiguity(
                field="tempo",
                reason=f"The prompt names {len(set(asked))} tempos, so I used the first, "
                f"{asked[0]:g} BPM.",
                options=[f"{bpm:g}" for bpm in dict.fromkeys(asked)],
                default_value=f"{asked[0]:g}",
                severity="optional",
            )
        )
    return notes


def _felt_half(bpm: float, dna: GenreDNAVector) -> bool:
    """Genres written fast and felt slow (trap, dubstep) at a tempo in their own range."""
    return dna.half_time and bpm >= max(100.0, dna.tempo_range[0] * 0.9)


def _analysis(
    bpm: float, source: str, half: bool, confidence: float, reasoning: str
) -> TempoAnalysis:
    return TempoAnalysis(
        bpm=bpm,
        source=source,  # type: ignore[arg-type]
        half_time=half,
        perceived_bpm=bpm / 2 if half else bpm,
        confidence=confidence,
        reasoning=reasoning,
    )


def _outside_norm(
    bpm: float, dna: GenreDNAVector, components: Sequence[GenreDNAVector]
) -> Ambiguity | None:
    """An optional note when the asked tempo is outside every blended genre's range."""
    genres = list(components) or [dna]
    if any(g.tempo_range[0] <= bpm <= g.tempo_range[1] for g in genres):
        return None
    main = genres[0]
    low, high = main.tempo_range
    name = genre_words(main)
    reason = f"tempo {bpm:g} BPM is outside typical {name} range ({low:g}–{high:g} BPM)"
    options = [f"{bpm:g}"]
    for other in (bpm * 2, bpm / 2):
        if low <= other <= high:
            reason += f"; I kept {bpm:g} as asked, and {other:g} would feel the same in {name}."
            options.append(f"{other:g}")
            break
    else:
        options.append(f"{main.tempo_default:g}")
        reason += f"; I kept {bpm:g} as asked."
    return Ambiguity(
        field="tempo",
        reason=reason,
        options=options,
        default_value=f"{bpm:g}",
        severity="optional",
    )


def genre_words(dna: GenreDNAVector) -> str:
    """A genre's name as written mid-sentence: "trap", "lo-fi hip-hop", but "UK Garage", "R&B"."""
    words = dna.display_name.split()
    return " ".join(w if re.search(r"[A-Z][A-Z&]", w) else w.lower() for w in words)


def _range_of(sources: Sequence[TempoSource], dna: GenreDNAVector) -> tuple[float, float]:
    if len(sources) == 1:
        return sources[0].low, sources[0].high
    return dna.tempo_range


def _any_artist(sources: Sequence[TempoSource]) -> bool:
    return any(s.is_artist for s in sources)


def _overlap(sources: Sequence[TempoSource]) -> tuple[float, float] | None:
    low = max(s.low for s in sources)
    high = min(s.high for s in sources)
    return (low, high) if low <= high else None


def _round(bpm: float) -> float:
    """Whole BPM, halves rounded up (not to even), so 132.5 is always 133."""
    return float(math.floor(bpm + 0.5))
