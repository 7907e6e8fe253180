"""Copy-paste sections: a repeat whose every note is the first one's, note for note."""

from __future__ import annotations

from collections.abc import Sequence

from muse_tui.contracts.song import Section

from .listening import Part, base_name, step


def section_notes(parts: Sequence[Part], section: Section, bpb: float) -> set[tuple[str, int, int]]:
    """Every (track, 16th step from the section's start, pitch) the section plays."""
    lo, hi = section.start_bar * bpb, section.end_bar * bpb
    return {(p.track.id, step(n[0] - lo), n[2]) for p in parts for n in p.between(lo, hi)}


def copied_sections(parts: Sequence[Part], sections: Sequence[Section], bpb: float) -> list[str]:
    """The names of repeats ("Chorus 2") that play exactly what their first ("Chorus 1") did."""
    firsts: dict[str, Section] = {}
    copies = []
    for section in sections:
        first = firsts.setdefault(base_name(section), section)
        if first is section or first.bars != section.bars:
            continue
        heard = section_notes(parts, section, bpb)
        if heard and heard == section_notes(parts, first, bpb):
            copies.append(section.name)
    return copies


def repeated_sections(sections: Sequence[Section]) -> int:
    """How many sections repeat an earlier one of the same name and length."""
    firsts: dict[str, Section] = {}
    repeats = 0
    for section in sections:
        first = firsts.setdefault(base_name(section), section)
        repeats += first is not section and first.bars == section.bars
    return repeats
