"""Rhythm: the groove holds, fits the genre and is as busy as it; the lead breathes."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence

from muse_tui.contracts.intent import PipelineIntent
from muse_tui.contracts.song import SongState
from muse_tui.knowledge.critics import RhythmCritic, critic_table

from .groove import GrooveFit, genre_fit
from .listening import (
    NEUTRAL,
    Part,
    Verdict,
    clamp,
    is_drums,
    percent,
    sections_of,
    weigh,
    worst_cause,
)
from .melody import lead_notes, rest_share


def judge_rhythm(
    song: SongState,
    intent: PipelineIntent | None,
    parts: Sequence[Part],
    *,
    critic: RhythmCritic | None = None,
    slack: float | None = None,
) -> Verdict:
    """Groove consistency within sections, density against the genre's norm, whether the
    drums play the genre's groove at all, and whether the lead leaves room to breathe.
    """
    table = critic_table()
    critic = critic or table.rhythm
    slack = table.fault_slack if slack is None else slack
    groove = groove_consistency(song, parts)
    density = onsets_per_bar(song, parts)
    norm = density_norm(song, intent)
    if density is None:
        density_score, ratio = 0.0, 0.0
    else:
        ratio = density / norm
        density_score = clamp(1.25 - 0.6 * abs(math.log2(max(ratio, 1e-3))))
    fit = genre_fit(song, intent, [p for p in parts if is_drums(p.track)], critic.genre_fit_voices)
    rests = rest_share(lead_notes(parts), sections_of(song, parts), song.bar_beat)
    scores = {
        "groove": NEUTRAL if groove is None else critic.groove.score(groove),
        "density": density_score,
        "genreFit": 1.0
        if fit is None
        else critic.genre_fit.score(fit.score(critic.signature_weight)),
        "leadRests": 1.0 if rests is None else critic.lead_rests.score(rests),
    }
    pace = "busier" if ratio > 1 else "sparser"
    causes = [
        (
            scores["groove"],
            f"the drums change pattern bar to bar within sections ({percent(groove or 0)}% alike)",
        ),
        (
            density_score,
            f"parts play {density or 0:.1f} onsets a bar, {pace} than the genre's {norm:.1f}",
        ),
        (scores["genreFit"], None if fit is None else _groove_note(fit)),
        (
            scores["leadRests"],
            f"the lead never breathes: it rests {percent(rests or 0)}% of the time",
        ),
    ]
    return Verdict(weigh(scores, critic, slack), worst_cause(causes))


def _groove_note(fit: GrooveFit) -> str:
    if fit.missing and fit.likeness >= 0.75:
        sounds = " and ".join(v.replace("_", " ") for v in fit.missing)
        return f"the drums never play the {sounds} a {fit.family} groove is built on"
    return (
        f"the drums do not play a {fit.family} groove "
        f"(the main bar is {percent(fit.likeness)}% like the style's)"
    )


def groove_consistency(song: SongState, parts: Sequence[Part]) -> float | None:
    """How alike a section's bars are: each bar's drum hits against the section's usual bar.

    None for a song without drums: its other parts are free to vary.
    """
    rhythm = [p for p in parts if is_drums(p.track)]
    bpb = song.beats_per_bar
    bars: dict[int, set[tuple[int, int]]] = defaultdict(set)
    for part in rhythm:
        for start, _, pitch, _ in part.notes:
            bar = int(start // bpb)
            bars[bar].add((round((start - bar * bpb) * 4), pitch))
    weighted = weight = 0.0
    for section in sections_of(song, parts):
        patterns = [
            frozenset(bars[b]) for b in range(section.start_bar, section.end_bar) if bars.get(b)
        ]
        if len(patterns) < 2:
            continue
        usual = Counter(patterns).most_common(1)[0][0]
        alike = sum(len(p & usual) / len(p | usual) for p in patterns) / len(patterns)
        weighted += alike * len(patterns)
        weight += len(patterns)
    return weighted / weight if weight else None


def onsets_per_bar(song: SongState, parts: Sequence[Part]) -> float | None:
    """Distinct onsets per bar a part plays, over the bars it plays in, averaged over parts."""
    bpb = song.beats_per_bar
    rates = []
    for part in parts:
        if part.notes:
            onsets = {round(n[0] * 12) for n in part.notes}
            bars = {int(n[0] // bpb) for n in part.notes}
            rates.append(len(onsets) / len(bars))
    return sum(rates) / len(rates) if rates else None


def density_norm(song: SongState, intent: PipelineIntent | None) -> float:
    """Onsets a bar a part of this genre plays: more with energy, fewer at fast tempos."""
    dna = intent.genre_dna if intent else None
    if dna is not None:
        energy, tempo = dna.energy, song.tempo / (2 if dna.half_time else 1)
    else:
        sections = song.arrangement.sections if song.arrangement else []
        energy = sum(s.energy for s in sections) / len(sections) if sections else 0.5
        tempo = song.tempo
    return (0.5 + 7 * energy) * min(1.3, max(0.7, math.sqrt(100 / tempo)))
