"""Theory answers that need no song: a chord's notes, numerals in a key, a scale.

Each takes the producer's own spelling of the symbol (case matters: CM7 is a
major seventh, Cm7 a minor one) and answers from `muse_tui.theory`.
"""

from __future__ import annotations

import re
from typing import Any

from muse_tui.theory import (
    ChordSyntaxError,
    KeySyntaxError,
    RomanSyntaxError,
    parse_chord,
    parse_key,
    parse_roman,
)

from .shape import Answer

#: A degree and its alteration as a chord chart names it: (3, -1) is "b3".
_ALTERATION = {-2: "bb", -1: "b", 0: "", 1: "#", 2: "##"}
_NUMERAL_SPLIT = re.compile(r"\s*(?:[-–—,]|\s)\s*")


def chord_notes(symbol: str) -> Answer:
    """ "notes in Cmaj9" → C E G B D, with each note's degree."""
    symbol = _capital_root(symbol.strip())
    try:
        chord = parse_chord(symbol)
    except ChordSyntaxError as exc:
        return Answer("chord_notes", f"I could not read {symbol!r} as a chord: {exc}.", {})
    tones = chord.tones()
    degrees = [f"{_ALTERATION.get(alt, '')}{degree}" for degree, alt in sorted(chord.degrees)]
    degrees[0] = "root"
    text = f"{chord.symbol}: {' '.join(tones)}"
    if not chord.bass_name:
        text += f" ({', '.join(degrees)})"
    facts: dict[str, Any] = {"chord": chord.symbol, "notes": list(tones), "degrees": degrees}
    return Answer("chord_notes", text + ".", facts)


def numerals_in_key(numerals: str, key_text: str) -> Answer:
    """ "what is a ii-V in Eb" → ii = Fm (F Ab C); V = Bb (Bb D F): each numeral's chord."""
    try:
        key = parse_key(_capital_root(key_text.strip()))
    except KeySyntaxError as exc:
        return Answer("numerals_in_key", f"I could not read {key_text!r} as a key: {exc}.", {})
    chords = []
    for numeral in (n for n in _NUMERAL_SPLIT.split(numerals.strip()) if n):
        try:
            chord = parse_roman(numeral, key)
        except RomanSyntaxError as exc:
            return Answer("numerals_in_key", f"I could not read {numeral!r}: {exc}.", {})
        chords.append({"numeral": numeral, "chord": chord.symbol, "notes": list(chord.tones(key))})
    lines = [f"{c['numeral']} = {c['chord']} ({' '.join(c['notes'])})" for c in chords]
    text = f"In {key.name}: " + "; ".join(lines) + "."
    return Answer("numerals_in_key", text, {"key": key.name, "chords": chords})


def scale_notes(key_text: str) -> Answer:
    """ "notes in D dorian" → D E F G A B C."""
    try:
        key = parse_key(_capital_root(key_text.strip()))
    except KeySyntaxError as exc:
        return Answer("scale_notes", f"I could not read {key_text!r} as a key: {exc}.", {})
    notes = list(key.note_names)
    return Answer(
        "scale_notes", f"{key.name}: {' '.join(notes)}.", {"key": key.name, "notes": notes}
    )


def _capital_root(text: str) -> str:
    """The root letter as charts write it ("eb" → "Eb"); the rest as the producer wrote it."""
    return text[:1].upper() + text[1:]
