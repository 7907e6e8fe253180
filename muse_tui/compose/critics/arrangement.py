"""Arrangement: do the sections differ in energy, and is the form balanced."""

from __future__ import annotations

from collections.abc import Sequence

from muse_tui.compose.critics.listening import Part, Verdict, clamp, percent, worst_cause
from muse_tui.contracts.song import SongState


def judge_arrangement(song: SongState, parts: Sequence[Part]) -> Verdict:
    """Energy contrast between sections (planned and heard) and the balance of the form."""
    if song.arrangement is None:
        return Verdict(0.5, "the song has no arrangement, so nothing changes between sections")
    sections = song.arrangement.sections
    heard = section_energy_heard(song, parts)
    energy = [0.5 * s.energy + 0.5 * h for s, h in zip(sections, heard, strict=True)]
    spread = max(energy) - min(energy)
    contrast = clamp((spread - 0.1) / 0.35)
    total = sum(s.bars for s in sections)
    biggest = max(sections, key=lambda s: s.bars)
    share = biggest.bars / total
    share_score = clamp((0.6 - share) / 0.3) if len(sections) > 1 else 0.0
    kinds = len({s.kind for s in sections})
    kind_score = min(1.0, (kinds - 1) / 2)
    peak_first = len(sections) > 1 and energy.index(max(energy)) == 0
    balance = (share_score + kind_score + (0.5 if peak_first else 1.0)) / 3
    causes = [
        (contrast, f"sections barely differ in energy (spread {spread:.2f})"),
        (share_score, f"the {biggest.name} section is {percent(share)}% of the song"),
        (kind_score, "the form repeats one kind of section"),
        (0.5 if peak_first else 1.0, "the song peaks in its first section"),
    ]
    return Verdict(0.6 * contrast + 0.4 * balance, worst_cause(causes))


def section_energy_heard(song: SongState, parts: Sequence[Part]) -> list[float]:
    """Each section's energy as played: who plays, how busy, how hard (0–1)."""
    assert song.arrangement is not None
    bpb = song.beats_per_bar
    stats = []
    for section in song.arrangement.sections:
        lo, hi = section.start_bar * bpb, section.end_bar * bpb
        inside = [[n for n in p.notes if lo <= n[0] < hi] for p in parts]
        notes = [n for ns in inside for n in ns]
        playing = sum(1 for ns in inside if ns) / len(parts) if parts else 0.0
        velocity = sum(n[3] for n in notes) / len(notes) / 127 if notes else 0.0
        stats.append((playing, len(notes) / section.bars, velocity))
    busiest = max((s[1] for s in stats), default=0.0) or 1.0
    return [0.5 * p + 0.3 * d / busiest + 0.2 * v for p, d, v in stats]
