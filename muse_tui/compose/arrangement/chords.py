"""Which chord of the progression sounds when, section by section.

`loop` cycles the whole progression from the section's first bar; `vary` does
the same but turns the last pass around on the progression's dominant (when it
has one and the section holds at least two passes); `subset` cycles the first
half of the progression, the sparser harmony of intros, builds and breaks (the
second half when only that one holds the tonic: a sparse section still says home);
`tail` cycles from where the progression's last bars begin, as many as the section has
(a blues intro "from the V", a jazz tag on the turnaround).
An outro, the end of the song, comes home: its last chord is the tonic. A section past a
key change (`key_shift`) plays its chords that many semitones up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from muse_tui.compose.transposition import shifted_key, transposed_chord
from muse_tui.contracts.song import (
    Arrangement,
    EnrichedProgression,
    ProgressionChord,
    Section,
    SongState,
)
from muse_tui.theory.key import key_of

_EPSILON = 1e-9
#: The kinds a song in choruses of a whole form ends on when it has no tag.
_CHORUS_KINDS = ("head", "solo")
#: A numeral on the first degree ("i9", "I65", "Imaj7"), not a secondary chord ("V7/ii").
_TONIC_NUMERAL = re.compile(r"^[iI](?![iIvV])[^/]*$")


@dataclass(frozen=True)
class PlacedChord:
    """A chord of the progression placed in song time (beats from the start of the song)."""

    start_beat: float
    beats: float
    index: int
    chord: ProgressionChord

    @property
    def end_beat(self) -> float:
        return self.start_beat + self.beats


def chords_for_section(
    section: Section,
    progression: EnrichedProgression,
    beats_per_bar: float = 4.0,
    *,
    start: float | None = None,
    stretch: float = 1.0,
) -> list[PlacedChord]:
    """The chords under `section`, in order; the last one is cut short at the section's end.

    A section with chords of its own (placed by the producer: "I vi IV in the bridge")
    plays those, looped bar by bar as they were placed, and nothing of the song's.
    A section in a meter of its own starts at `start` (the song's bar map) and plays
    every chord `stretch` times as long (its bar over the song's), so the harmony
    still changes on its bar lines: `chords_in_song` works both out.
    """
    own = section.progression or progression.sections.get(section.harmony_kind)
    if own is not None:
        progression = own
    cycle = (
        list(range(len(progression.chords)))
        if own is not None
        else _cycle(section, progression, section.bars * beats_per_bar)
    )
    if start is None:
        start = section.start_bar * beats_per_bar
    end = start + section.bars * beats_per_bar * stretch
    placed: list[PlacedChord] = []
    beat = start
    while beat < end - _EPSILON:
        for index in cycle:
            if beat >= end - _EPSILON:
                break
            chord = progression.chords[index]
            beats = chord.beats * stretch
            placed.append(PlacedChord(beat, min(beats, end - beat), index, chord))
            beat += beats
    if own is None and section.chord_plan == "vary":
        placed = _turned_around(placed, cycle, progression, (end - start) / stretch)
    if own is None and section.kind == "outro":
        placed = _resolved(placed, progression)
    if section.key_shift:
        key = shifted_key(key_of(progression.key, progression.mode), section.key_shift)
        placed = [
            replace(p, chord=transposed_chord(p.chord, section.key_shift, key)) for p in placed
        ]
    return placed


def chords_in_song(
    song: SongState, section: Section, progression: EnrichedProgression
) -> list[PlacedChord]:
    """`chords_for_section` where the song has the section: through its meter changes.

    A head or solo chorus that ends the song (no tag after it) comes home on the tonic, as
    an outro does, instead of on the form's turnaround."""
    if not song.has_meter_changes:
        placed = chords_for_section(section, progression, song.beats_per_bar)
    else:
        placed = chords_for_section(
            section,
            progression,
            song.beats_per_bar,
            start=song.bar_beat(section.start_bar),
            stretch=song.section_meter(section).beats_per_bar / song.beats_per_bar,
        )
    sections = song.arrangement.sections if song.arrangement else []
    ends_song = bool(sections) and section == sections[-1] and section.kind in _CHORUS_KINDS
    if ends_song and section.progression is None:
        own = progression.sections.get(section.harmony_kind, progression)
        placed = _resolved(placed, own)
    return placed


def chord_indices(
    section: Section, progression: EnrichedProgression, beats_per_bar: float = 4.0
) -> list[int]:
    """The progression indices `section` plays, in order (a 4-chord loop over 16 bars: 0123×4)."""
    return [placed.index for placed in chords_for_section(section, progression, beats_per_bar)]


def chord_map(
    arrangement: Arrangement, progression: EnrichedProgression, beats_per_bar: float = 4.0
) -> dict[str, list[int]]:
    """Section name → the progression indices it plays, for the X-ray view."""
    return {
        section.name: chord_indices(section, progression, beats_per_bar)
        for section in arrangement.sections
    }


def _cycle(section: Section, progression: EnrichedProgression, section_beats: float) -> list[int]:
    """The indices one pass of this section's plan walks through."""
    indices = list(range(len(progression.chords)))
    if section.chord_plan not in ("subset", "tail"):
        return indices
    offsets, beat = [], 0.0
    for chord in progression.chords:
        offsets.append(beat)
        beat += chord.beats
    if section.chord_plan == "tail":
        begin = progression.total_beats - min(section_beats, progression.total_beats)
        first = next(i for i in reversed(indices) if offsets[i] <= begin + _EPSILON)
        return indices[first:] + indices[:first]
    half = progression.total_beats / 2
    first = [i for i in indices if offsets[i] < half - _EPSILON] or [0]
    second = [i for i in indices if i not in first]
    if second and not _holds_tonic(progression, first) and _holds_tonic(progression, second):
        return second  # iv–v–i–i: an intro of iv–v alone never says where home is
    return first


def _holds_tonic(progression: EnrichedProgression, indices: list[int]) -> bool:
    return any(_TONIC_NUMERAL.match(progression.chords[i].roman) for i in indices)


def _turned_around(
    placed: list[PlacedChord],
    cycle: list[int],
    progression: EnrichedProgression,
    section_beats: float,
) -> list[PlacedChord]:
    """Swap the last chord of a section of whole passes for the dominant, to lead onward."""
    dominants = [i for i, c in enumerate(progression.chords) if c.function == "dominant"]
    passes = section_beats / progression.total_beats
    last = placed[-1]
    whole_pass_ends = last.index == cycle[-1] and abs(passes - round(passes)) < _EPSILON
    if not dominants or passes < 2 - _EPSILON or not whole_pass_ends or last.index in dominants:
        return placed
    dominant = dominants[-1]
    swapped = PlacedChord(last.start_beat, last.beats, dominant, progression.chords[dominant])
    return [*placed[:-1], swapped]


def _resolved(placed: list[PlacedChord], progression: EnrichedProgression) -> list[PlacedChord]:
    """End on the tonic chord of the progression (the song's last chord is home)."""
    tonic = next(
        (i for i, c in enumerate(progression.chords) if _TONIC_NUMERAL.match(c.roman)), None
    )
    last = placed[-1] if placed else None
    if tonic is None or last is None or last.index == tonic:
        return placed
    home = PlacedChord(last.start_beat, last.beats, tonic, progression.chords[tonic])
    return [*placed[:-1], home]
