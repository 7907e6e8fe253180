"""Music theory for muse-studio: notes, keys, chords, numerals, voicings, key finding.

Pure functions and frozen values on the standard library alone, so every
layer above can lean on them and tests can check them against music21.
"""

from muse_tui.theory.chord import Chord, ChordSyntaxError, parse_chord
from muse_tui.theory.interval import IntervalSyntaxError, interval_name, interval_semitones
from muse_tui.theory.key import (
    Key,
    KeySyntaxError,
    key_of,
    mode_name,
    parse_key,
    spell,
    tonic_name,
)
from muse_tui.theory.key_detect import KeyEstimate, detect_key
from muse_tui.theory.pitch import (
    NoteName,
    NoteSyntaxError,
    fold_into,
    midi_to_name,
    name_to_midi,
    note_name,
    parse_note,
    pitch_class,
)
from muse_tui.theory.roman import RomanSyntaxError, parse_roman, to_roman
from muse_tui.theory.scale import SCALE_STEPS, Scale, scale_pitch_classes
from muse_tui.theory.voicing import (
    VOICING_STYLES,
    VoicingError,
    voice,
    voice_lead,
    voice_leading_motion,
    voicing_names,
)

__all__ = [
    "SCALE_STEPS",
    "VOICING_STYLES",
    "Chord",
    "ChordSyntaxError",
    "IntervalSyntaxError",
    "Key",
    "KeyEstimate",
    "KeySyntaxError",
    "NoteName",
    "NoteSyntaxError",
    "RomanSyntaxError",
    "Scale",
    "VoicingError",
    "detect_key",
    "fold_into",
    "interval_name",
    "interval_semitones",
    "key_of",
    "midi_to_name",
    "mode_name",
    "name_to_midi",
    "note_name",
    "parse_chord",
    "parse_key",
    "parse_note",
    "parse_roman",
    "pitch_class",
    "scale_pitch_classes",
    "spell",
    "to_roman",
    "tonic_name",
    "voice",
    "voice_lead",
    "voice_leading_motion",
    "voicing_names",
]
