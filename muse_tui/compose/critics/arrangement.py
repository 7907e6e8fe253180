"""Arrangement: sections differ and are not copies, everyone asked for plays, a hook returns."""

from __future__ import annotations

from collections.abc import Sequence

from muse_tui.compose.critics.form import copied_sections, repeated_sections
from muse_tui.compose.critics.listening import Part, Verdict, clamp, percent, weigh, worst_cause
from muse_tui.compose.critics.melody import lead_notes, motif_recurrence
from muse_tui.compose.critics.orchestra import silent_requests
from muse_tui.contracts.intent import PipelineIntent
from muse_tui.contracts.song import SongState
from muse_tui.knowledge.critics import ArrangementCritic, critic_table


def judge_arrangement(
    song: SongState,
    parts: Sequence[Part],
    *,
    intent: PipelineIntent | None = None,
    critic: ArrangementCritic | None = None,
    slack: float | None = None,
) -> Verdict:
    """Energy contrast and balance of the form, copy-paste repeats, whether everyone asked
    for plays, and whether the lead has an idea that comes back.
    """
    table = critic_table()
    critic = critic or table.arrangement
    slack = table.fault_slack if slack is None else slack
    if song.arrangement is None:
        return Verdict(0.5, "the song has no arrangement, so nothing changes between sections")
    sections = song.arrangement.sections
    bpb = song.beats_per_bar
    heard = section_energy_heard(song, parts)
    energy = [0.5 * s.energy + 0.5 * h for s, h in zip(sections, heard, strict=True)]
    spread = max(energy) - min(energy)
    total = sum(s.bars for s in sections)
    biggest = max(sections, key=lambda s: s.bars)
    share = biggest.bars / total
    share_score = clamp((0.6 - share) / 0.3) if len(sections) > 1 else 0.0
    kinds = len({s.kind for s in sections})
    kind_score = min(1.0, (kinds - 1) / 2)
    peak_first = len(sections) > 1 and energy.index(max(energy)) == 0
    copies = copied_sections(parts, sections, song.bar_beat)
    repeats = repeated_sections(sections)
    asked, planned = silent_requests(intent, parts)
    recurrence = motif_recurrence(lead_notes(parts), sections, bpb, critic.motif_unit_bars)
    lost = critic.missing_request * len(asked) + critic.missing_role * len(planned)
    scores = {
        "contrast": critic.contrast.score(spread),
        "balance": (share_score + kind_score + (0.5 if peak_first else 1.0)) / 3,
        "copies": critic.copies.score(len(copies) / repeats) if repeats else 1.0,
        "instruments": clamp(1 - lost),
        "motif": 1.0 if recurrence is None else critic.motif.score(recurrence),
    }
    causes = [
        (scores["contrast"], f"sections barely differ in energy (spread {spread:.2f})"),
        (share_score, f"the {biggest.name} section is {percent(share)}% of the song"),
        (kind_score, "the form repeats one kind of section"),
        (0.5 if peak_first else 1.0, "the song peaks in its first section"),
        (scores["copies"], _copies_note(copies)),
        (scores["instruments"], _missing_note(asked, planned)),
        (
            scores["motif"],
            f"the lead never repeats a {critic.motif_unit_bars}-bar idea, "
            "so there is no hook to remember",
        ),
    ]
    return Verdict(weigh(scores, critic, slack), worst_cause(causes))


def _copies_note(copies: Sequence[str]) -> str | None:
    if not copies:
        return None
    which = ", ".join(copies[:3]) + ("…" if len(copies) > 3 else "")
    return f"{which} {'is a' if len(copies) == 1 else 'are'} note-for-note copy of the first"


def _missing_note(asked: Sequence[str], planned: Sequence[str]) -> str | None:
    if asked:
        return f"the {' and '.join(asked)} you asked for never plays"
    if planned:
        roles = " and ".join(r.replace("_", " ") for r in planned)
        return f"the {roles} planned for this song never plays"
    return None


def section_energy_heard(song: SongState, parts: Sequence[Part]) -> list[float]:
    """Each section's energy as played: who plays, how busy, how hard (0–1)."""
    assert song.arrangement is not None
    stats = []
    for section in song.arrangement.sections:
        lo, hi = song.section_span(section)
        inside = [p.between(lo, hi) for p in parts]
        notes = [n for ns in inside for n in ns]
        playing = sum(1 for ns in inside if ns) / len(parts) if parts else 0.0
        velocity = sum(n[3] for n in notes) / len(notes) / 127 if notes else 0.0
        stats.append((playing, len(notes) / section.bars, velocity))
    busiest = max((s[1] for s in stats), default=0.0) or 1.0
    return [0.5 * p + 0.3 * d / busiest + 0.2 * v for p, d, v in stats]
