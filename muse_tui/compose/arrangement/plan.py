"""A section while the form is being shaped: the template's, before it has a start bar."""

from __future__ import annotations

import random
from dataclasses import dataclass

from muse_tui.contracts.song import ChordPlan, SectionKind, Transition
from muse_tui.knowledge.arrangement import SectionTemplate


@dataclass(frozen=True)
class SectionPlan:
    """A section while the form is being shaped (no start bar yet)."""

    kind: SectionKind
    name: str
    bars: int
    energy: float | None
    play: tuple[str, ...]
    transition: Transition | None
    chord_plan: ChordPlan | None
    trim: int | None
    harmony_of: SectionKind | None = None
    whole_form: bool = False

    @classmethod
    def from_template(cls, section: SectionTemplate, rng: random.Random) -> SectionPlan:
        bars = section.bars
        if section.alt_bars:
            bars = rng.choice(sorted({section.bars, *section.alt_bars}))
        return cls(
            kind=section.kind,
            name=section.name,
            bars=bars,
            energy=section.energy,
            play=tuple(section.play),
            transition=section.transition,
            chord_plan=section.chord_plan,
            trim=section.trim,
            harmony_of=section.harmony_of,
            whole_form=section.whole_form,
        )
