"""Copy-paste sections: a repeat whose every note is the first one's, note for note."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from muse_tui.contracts.song import Section

from .listening import Part, base_name, step

#: Where bar N starts, in beats: `SongState.bar_beat`, so meter changes are followed.
BarBeat = Callable[[int], float]


def section_notes(
    parts: Sequence[Part], section: Section, bar_beat: BarBeat
) -> set[tuple[str, int, int]]:
    """Every (track, 16th step from the section's start, pitch) the section plays."""
    lo, hi = bar_beat(section.start_bar), bar_beat(section.end_bar)
    return {(p.track.id, step(n[0] - lo), n[2]) for p in parts for n in p.between(lo, hi)}


def copied_sections(
    parts: Sequence[Part], sections: Sequence[Section], bar_beat: BarBeat
) -> list[str]:
    """The names of repeats ("Chorus 2") that play exactly what their first ("Chorus 1") did."""
    firsts: dict[str, Section] = {}
    copies = []
    for section in sections:
        first = firsts.setdefault(base_name(section), section)
        if first is section or first.bars != section.bars:
            continue
        heard = section_notes(parts, section, bar_beat)
        if heard and heard == section_notes(parts, first, bar_beat):
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
