"""S3 arrangement: song form, energy arc, who plays when, and which chord sounds where."""

from muse_tui.compose.arrangement.chords import (
    PlacedChord,
    chord_indices,
    chord_map,
    chords_for_section,
    chords_in_song,
)
from muse_tui.compose.arrangement.energy import MAX_STEP, energy_arc
from muse_tui.compose.arrangement.form import (
    MIN_SECTION_BARS,
    PEAK_KINDS,
    StructureHints,
    parse_structure_hints,
    scale_bars,
)
from muse_tui.compose.arrangement.generator import (
    arrange,
    arrange_for_intent,
    describe_arrangement,
    mood_energy_bias,
)

__all__ = [
    "MAX_STEP",
    "MIN_SECTION_BARS",
    "PEAK_KINDS",
    "PlacedChord",
    "StructureHints",
    "arrange",
    "arrange_for_intent",
    "chord_indices",
    "chord_map",
    "chords_for_section",
    "chords_in_song",
    "describe_arrangement",
    "energy_arc",
    "mood_energy_bias",
    "parse_structure_hints",
    "scale_bars",
]
