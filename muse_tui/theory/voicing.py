"""Voicings (which octave each chord tone goes in) and voice leading between chords."""

from __future__ import annotations

from collections.abc import Sequence

from muse_tui.theory.chord import Chord
from muse_tui.theory.key import Key, parse_key
from muse_tui.theory.pitch import midi_to_name, parse_note

VOICING_STYLES = ("close", "open", "drop2", "spread", "shell", "rootless")


class VoicingError(ValueError):
    """A voicing that cannot fit the requested register."""


def voice(chord: Chord, style: str = "close", low: int = 48, high: int = 84) -> tuple[int, ...]:
    """MIDI notes for a chord, lowest first, all within low..high (inclusive).

    close: every chord tone inside an octave above the bass. open: close with
    the second voice raised an octave. drop2: close position with the
    second-highest voice dropped an octave. spread: bass and fifth low, the
    other tones from an octave above. shell: bass, 3rd, 7th. rootless: 3-5-7-9
    (a 13 replaces the 5; the natural 9 is added when the chord has none).
    The notes sit as low as the range allows; a slash bass is always lowest.
    """
    _check_range(low, high)
    if style not in VOICING_STYLES:
        raise ValueError(f"unknown voicing style {style!r}; use one of {', '.join(VOICING_STYLES)}")
    shape = {
        "close": _close,
        "open": _open,
        "drop2": _drop2,
        "spread": _spread,
        "shell": _shell,
        "rootless": _rootless,
    }[style](chord)
    return _place(shape, chord, style, low, high)


def voicing_names(chord: Chord, pitches: Sequence[int], key: Key | str | None = None) -> list[str]:
    """The voicing's notes with octaves, each spelled as the chord spells it (E: G#3 E4 B4).

    Spelled note by note from its pitch class alone, E's third read Ab3 and Ebm9's
    Gb and Db read F# and C#. A pitch outside the chord (a passing colour) takes the
    key's spelling, or the common one without a key.
    """
    by_pc = {parse_note(name).pitch_class: name for name in chord.tones(key)}
    the_key = parse_key(key) if key is not None else None
    names = []
    for pitch in pitches:
        name = by_pc.get(pitch % 12) or (the_key.spell(pitch % 12) if the_key else None)
        names.append(midi_to_name(pitch, name))
    return names


def voice_leading_motion(a: Sequence[int], b: Sequence[int]) -> int:
    """Total semitones moved, pairing the voices of two voicings from the bottom up."""
    if len(a) != len(b):
        raise ValueError(f"voicings have {len(a)} and {len(b)} voices; they must match")
    return sum(abs(x - y) for x, y in zip(sorted(a), sorted(b), strict=True))


def voice_lead(
    previous: Sequence[int], chord: Chord, low: int = 36, high: int = 96
) -> tuple[int, ...]:
    """The voicing of `chord` with as many voices as `previous` that moves least.

    Voices keep their order (no crossing, no unisons), stay within low..high,
    and a slash bass stays in the lowest voice. With fewer voices than chord
    tones, the least telling tones are left out first (the 5th, then the
    root). Ties go to the lower voicing, so the answer is always the same.
    """
    _check_range(low, high)
    before = sorted(previous)
    if not before:
        return voice(chord, "close", low, high)
    required = _essential_pcs(chord, len(before))
    for window in (12, 24, 128):
        found = _least_motion(before, chord, required, low, high, window)
        if found is not None:
            return found
    raise VoicingError(
        f"{chord.symbol} cannot be voiced in {len(before)} voices between {low} and {high}"
    )


def _check_range(low: int, high: int) -> None:
    if not 0 <= low <= high <= 127:
        raise ValueError(f"register {low}–{high} must lie within MIDI 0–127, low ≤ high")


def _root_relative(chord: Chord) -> list[int]:
    """Distinct chord tones as semitones above the root, in stacking order (3rd before 9th)."""
    seen: set[int] = set()
    tones = []
    for interval in chord.intervals:
        if interval % 12 not in seen:
            seen.add(interval % 12)
            tones.append(interval)
    return tones


def _bass_offset(chord: Chord) -> int:
    return (chord.bass_pc - chord.root_pc) % 12


def _stack_above(start: int, offsets: Sequence[int]) -> list[int]:
    """Place each pitch class (root-relative) at the first pitch above the last one placed."""
    notes = [start]
    for offset in offsets:
        note = notes[-1] + 1
        note += (offset - note) % 12
        notes.append(note)
    return notes[1:]


def _upper_tones(chord: Chord) -> list[int]:
    """Root-relative chord tones other than the bass, nearest above the bass first."""
    bass = _bass_offset(chord)
    others = [t % 12 for t in _root_relative(chord) if t % 12 != bass]
    return sorted(others, key=lambda t: (t - bass) % 12)


def _close(chord: Chord) -> list[int]:
    bass = _bass_offset(chord)
    return [bass, *_stack_above(bass, _upper_tones(chord))]


def _open(chord: Chord) -> list[int]:
    notes = _close(chord)
    if len(notes) >= 3:
        notes[1] += 12
    return sorted(notes)


def _drop2(chord: Chord) -> list[int]:
    if chord.bass_name is None:
        root_position = [0, *_stack_above(0, [t % 12 for t in _root_relative(chord)[1:]])]
        if len(root_position) >= 2:
            root_position[-2] -= 12
        return sorted(root_position)
    bass = _bass_offset(chord)
    notes = _stack_above(bass, _upper_tones(chord))
    if len(notes) >= 2:
        notes[-2] -= 12
    while bass >= min(notes):
        bass -= 12  # the slash bass stays under the dropped voice
    return sorted([bass, *notes])


def _spread(chord: Chord) -> list[int]:
    bass = _bass_offset(chord)
    notes = [bass]
    rest = [t for t in _root_relative(chord) if t % 12 != bass]
    if chord.bass_name is None and 7 in rest:
        notes.append(7)
        rest.remove(7)
    upper = _stack_above(bass + 11, [t % 12 for t in rest])
    return notes + upper


def _shell(chord: Chord) -> list[int]:
    bass = _bass_offset(chord)
    guide = [t for t in (_third(chord), _seventh(chord)) if t is not None and t % 12 != bass]
    return [bass, *_stack_above(bass, guide)]


def _rootless(chord: Chord) -> list[int]:
    third = _third(chord)
    fifth = _pick(chord, 13) or _pick(chord, 5)
    seventh = _seventh(chord)
    colour = _pick(chord, 9) or _pick(chord, 11) or 14
    tones = [t % 12 for t in (third, fifth, seventh, colour) if t is not None]
    unique = list(dict.fromkeys(tones))
    if chord.bass_name is None:
        return _stack_above(unique[0] - 1, unique)
    bass = _bass_offset(chord)
    return [bass, *_stack_above(bass, [t for t in unique if t != bass])]


def _pick(chord: Chord, degree: int) -> int | None:
    found = chord.semitones_of(degree)
    return found[0] if found else None


def _third(chord: Chord) -> int | None:
    return _pick(chord, 3) or _pick(chord, 4) or _pick(chord, 2)


def _seventh(chord: Chord) -> int | None:
    return _pick(chord, 7) or _pick(chord, 6) or _pick(chord, 5)


def _place(shape: list[int], chord: Chord, style: str, low: int, high: int) -> tuple[int, ...]:
    """Move a root-relative shape to the lowest octave where its bottom note clears `low`.

    Notes that would still rise above `high` fold down by octaves, staying
    above the bottom note; only a range too narrow for that is an error.
    """
    notes = sorted(chord.root_pc + offset for offset in shape)
    shift = low - notes[0]
    shift += (-shift) % 12  # whole octaves only, landing at or above low
    bottom, *upper = (note + shift for note in notes)
    placed = [bottom]
    for note in upper:
        if note > high:
            note -= 12 * -(-(note - high) // 12)
            if note <= bottom:
                raise VoicingError(
                    f"a {style} voicing of {chord.symbol} does not fit between {low} and {high}"
                )
        placed.append(note)
    if bottom > high:
        raise VoicingError(f"{chord.symbol} has no bass note between {low} and {high}")
    return tuple(sorted(placed))


def _essential_pcs(chord: Chord, voices: int) -> list[int]:
    """The pitch classes a voicing of `voices` notes must hold, most telling first."""
    root = chord.root_pc
    order: list[int] = []
    if chord.bass_name is not None:
        order.append(chord.bass_pc)
    third, seventh = _third(chord), _seventh(chord)
    for tone in (third, seventh):
        if tone is not None:
            order.append((root + tone) % 12)
    altered = [
        (root + 12 + a + {5: 7, 9: 14, 11: 17, 13: 21}[d]) % 12
        for d, a in sorted(chord.degrees)
        if a and d in (5, 9, 11, 13)
    ]
    order += altered
    order += [(root + t) % 12 for t in (14, 21) if t in chord.intervals]
    order.append(root)
    order += [(root + t) % 12 for t in chord.intervals]
    unique = [pc for pc in dict.fromkeys(order) if pc in chord.pitch_classes]
    return unique[:voices]


def _least_motion(
    before: list[int], chord: Chord, required: list[int], low: int, high: int, window: int
) -> tuple[int, ...] | None:
    allowed = chord.pitch_classes
    bit = {pc: 1 << index for index, pc in enumerate(required)}
    full = (1 << len(required)) - 1
    # state: (last pitch, covered mask) -> (cost, pitches); dynamic programming voice by voice.
    states: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {(-1, 0): (0, ())}
    for index, old in enumerate(before):
        remaining_voices = len(before) - index - 1
        options = [
            pitch
            for pitch in range(max(low, old - window), min(high, old + window) + 1)
            if pitch % 12 in allowed
        ]
        if index == 0 and chord.bass_name is not None:
            options = [pitch for pitch in options if pitch % 12 == chord.bass_pc]
        next_states: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        for (last, mask), (cost, pitches) in states.items():
            for pitch in options:
                if pitch <= last:
                    continue
                new_mask = mask | bit.get(pitch % 12, 0)
                if bin(full & ~new_mask).count("1") > remaining_voices:
                    continue  # too few voices left to cover what is still missing
                candidate = (cost + abs(pitch - old), (*pitches, pitch))
                state = (pitch, new_mask)
                if state not in next_states or candidate < next_states[state]:
                    next_states[state] = candidate
        states = next_states
    finished = [value for (_, mask), value in states.items() if mask == full]
    return min(finished)[1] if finished else None
