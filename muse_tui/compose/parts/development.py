"""A repeated section's pitched parts, developed through its last phrase instead of pasted.

A part is seeded by its section kind, so the second verse's bass is written
note for note as the first one's; `develop_part` then works the repeat's last
four-bar phrase with the devices `skills/melody/development.json` lists for the
part's family and the repeat's place (second, third, the song's last peak, a
solo chorus). The opening stays as first stated, so the part is recognisable
(the lead's writer varies a repeat's every phrase itself, on the motif's rhythm);
every device (`parts.devices`) moves notes along the chords already sounding,
so it stays on the changes. Deterministic: the same repeat develops the same way.
"""

from __future__ import annotations

from dataclasses import replace

from muse_tui.knowledge.development import SOLO_KINDS, development_table

from ..arrangement.form import PEAK_KINDS
from ..arrangement.repeats import Repeat
from ..humanize import Draft
from .context import PartContext
from .devices import DEVICES, Phrase

Notes = list[Draft]


def develop_part(notes: Notes, ctx: PartContext, repeat: Repeat) -> Notes:
    """`notes` of one section as its repeat plays them; a first statement comes back as it is.

    Each statement must differ from the first and from every repeat before it (by
    `DISTINCT` at least): where the listed devices would give an earlier
    statement's notes again (a fifth verse after three repeats, a part a device
    cannot reach), the next turn's devices are added, on the last phrase and then
    on the whole section, until they do not.
    """
    family = development_table().for_role(ctx.track.role)
    if family is None or not repeat.is_repeat or not notes:
        return notes
    solo = ctx.section.kind in SOLO_KINDS
    last_peak = ctx.section.kind in PEAK_KINDS and repeat.ordinal == repeat.count
    phrases = (Phrase(ctx), Phrase(ctx, whole=True))
    heard = [_heard(notes)]
    developed = notes
    for ordinal in range(2, repeat.ordinal + 1):
        peak = last_peak and ordinal == repeat.ordinal
        own = family.devices(ordinal, last_peak=peak, solo=solo)
        turns = [*(family.solo if solo and family.solo else family.repeats), family.last_peak]
        more = [[*own, *t] for t in turns if t != own] + [[*own, "fallback"]]
        candidates = [(phrases[0], own)] + [(p, d) for p in phrases for d in more]
        versions = [_developed(phrase, notes, devices) for phrase, devices in candidates]
        alike = [max(_jaccard(_heard(v), h) for h in heard) for v in versions]
        fresh = [i for i, a in enumerate(alike) if a < DISTINCT]
        developed = versions[fresh[0] if fresh else alike.index(min(alike))]
        heard.append(_heard(developed))
    return developed  # in the written order, added notes last: the opening humanises alike


#: Two statements of a part this alike, by (16th, pitch), would be heard as one pasted twice.
DISTINCT = 0.9


def _developed(phrase: Phrase, notes: Notes, devices: list[str]) -> Notes:
    developed = [replace(n) for n in notes]
    for device in dict.fromkeys(devices):
        if device == "fallback":  # what reaches any part: a line's ending re-pitched, or octaves
            lead = phrase.ctx.track.role == "lead"
            developed = phrase.third_up(developed) if lead else phrase.octave(developed, every=1)
        else:
            developed = DEVICES[device](phrase, developed)  # type: ignore[index]
    return developed


def _heard(notes: Notes) -> set[tuple[int, int]]:
    return {(round(n.start * 4), n.pitch) for n in notes}


def _jaccard(a: set[tuple[int, int]], b: set[tuple[int, int]]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0
