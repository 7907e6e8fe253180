"""`progression/main.progression`: the chords in MPC Beats' progression JSON, and back.

MPC reads `{"progression": {"name", "rootNote", "scale", "recordingOctave",
"chords": [{"name", "role", "notes"}]}}`; the first chord is the "Root", the
rest "Normal". The first hyphen of `name` splits MPC's menu category from the
item, so the name is "Muse-<title>" with any other hyphen made a space.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from muse_tui.contracts import EnrichedProgression, ManifestFile, ProgressionChord
from muse_tui.store.atomic import write_atomic
from muse_tui.store.sessions import inside_session, sanitise_name
from muse_tui.theory import (
    ChordSyntaxError,
    KeySyntaxError,
    RomanSyntaxError,
    note_name,
    parse_chord,
    parse_key,
    to_roman,
)
from muse_tui.theory.pitch import FLAT_NAMES, SHARP_NAMES

PROGRESSION_FILE = "progression/main.progression"
MENU_CATEGORY = "Muse"
DEFAULT_CHORD_BEATS = 4.0
_SCALES = {
    "major": "Major",
    "minor": "Minor",
    "dorian": "Dorian",
    "phrygian": "Phrygian",
    "lydian": "Lydian",
    "mixolydian": "Mixolydian",
    "locrian": "Locrian",
    "harmonic minor": "Harmonic Minor",
    "melodic minor": "Melodic Minor",
}
_MODES = {scale.lower(): mode for mode, scale in _SCALES.items()} | {
    "natural minor": "minor",
    "ionian": "major",
    "aeolian": "minor",
}
_ASCII_SYMBOLS = {"♭": "b", "♯": "#", "Δ": "maj", "∆": "maj", "ø": "m7b5", "°": "dim"}


class ProgressionFileError(ValueError):
    """A `.progression` file that cannot be read; the message names the file and the problem."""


def progression_to_mpc(
    progression: EnrichedProgression, title: str | None = None
) -> dict[str, Any]:
    """The progression in MPC's JSON shape (a dict ready for `json.dumps`)."""
    chords = [
        {
            "name": _ascii_symbol(chord.symbol),
            "role": "Root" if i == 0 else "Normal",
            "notes": list(chord.voicing),
        }
        for i, chord in enumerate(progression.chords)
    ]
    return {
        "progression": {
            "name": f"{MENU_CATEGORY}-{_menu_item(title or progression.name)}",
            "rootNote": _root_note(progression.key),
            "scale": _SCALES.get(progression.mode.lower(), progression.mode.title()),
            "recordingOctave": recording_octave(progression),
            "chords": chords,
        }
    }


def write_progression(
    session_dir: Path,
    progression: EnrichedProgression,
    title: str | None = None,
    *,
    durable: bool = True,
    path: str = PROGRESSION_FILE,
) -> ManifestFile:
    """Write `progression/main.progression`, or `path`, atomically (`durable=False`: no fsyncs)."""
    text = json.dumps(progression_to_mpc(progression, title), indent=4) + "\n"
    size = write_atomic(inside_session(session_dir, path), text, durable=durable)
    description = "The chord progression for MPC Beats Pad Perform (Progressions)"
    return ManifestFile(path=path, type="progression", description=description, size_bytes=size)


def section_progression_file(section_name: str) -> str:
    """Where a section's own chords go: `progression/section-bridge.progression`."""
    return f"progression/section-{sanitise_name(section_name, 'section')}.progression"


def read_progression(path: Path, chord_beats: float = DEFAULT_CHORD_BEATS) -> EnrichedProgression:
    """Read a `.progression` file (ours or MPC's); each chord lasts `chord_beats`.

    Symbols and voicings come back exactly; numerals are worked out from the key.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ProgressionFileError(f"{path} cannot be read ({exc}).") from None
    except json.JSONDecodeError as exc:
        raise ProgressionFileError(f"{path} is not JSON (line {exc.lineno}).") from None
    try:
        return mpc_to_progression(data, chord_beats)
    except (KeyError, TypeError, ValueError) as exc:
        raise ProgressionFileError(f"{path} is not an MPC progression ({exc}).") from None


def mpc_to_progression(
    data: dict[str, Any], chord_beats: float = DEFAULT_CHORD_BEATS
) -> EnrichedProgression:
    """The progression an MPC JSON dict describes."""
    body = data["progression"]
    key = str(body.get("rootNote", "C"))
    scale = str(body.get("scale", "Major")).strip().lower()
    mode = _MODES.get(scale, "minor" if "minor" in scale else "major")
    name = str(body.get("name", "main"))
    prefix = f"{MENU_CATEGORY}-"
    chords = [
        ProgressionChord(
            symbol=str(chord["name"]),
            roman=_roman(str(chord["name"]), key, mode),
            voicing=[int(n) for n in chord["notes"]],
            beats=chord_beats,
        )
        for chord in body["chords"]
    ]
    try:
        return EnrichedProgression(
            name=name.removeprefix(prefix) or "main",
            key=key,
            mode=mode,
            chords=chords,
            source="explicit",
        )
    except ValidationError as exc:
        raise ValueError(exc.errors(include_url=False)[0]["msg"]) from None


def recording_octave(progression: EnrichedProgression) -> int:
    """The octave (MPC counting, middle C = C3) of the first chord's lowest note."""
    lowest = min(progression.chords[0].voicing)
    return max(0, min(8, lowest // 12 - 2))


def _root_note(key: str) -> str:
    """The tonic as MPC lists roots: one sharp or flat at most (Cb becomes B)."""
    try:
        parsed = parse_key(key)
    except KeySyntaxError:
        return "C"
    plain = {*SHARP_NAMES, *FLAT_NAMES}
    return parsed.tonic if parsed.tonic in plain else note_name(parsed.tonic_pc)


def _roman(symbol: str, key: str, mode: str) -> str:
    try:
        return to_roman(parse_chord(symbol), parse_key(f"{key} {mode}"))
    except (ChordSyntaxError, KeySyntaxError, RomanSyntaxError, ValueError):
        return "?"


def _ascii_symbol(symbol: str) -> str:
    """MPC shows chord names in ASCII: "Cø7" is written "Cm7b5"; ASCII symbols stay as they are."""
    if symbol.isascii():
        return symbol
    try:
        return parse_chord(symbol).symbol
    except ChordSyntaxError:
        for fancy, plain in _ASCII_SYMBOLS.items():
            symbol = symbol.replace(fancy, plain)
        return symbol


def _menu_item(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    cleaned = "".join(c if c.isprintable() else " " for c in folded.replace("-", " "))
    return " ".join(cleaned.split())[:48] or "main"
