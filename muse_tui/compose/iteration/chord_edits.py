"""Harmony edits: recolour chords darker or brighter, add sevenths, make them jazzier, replace one,
transpose, reverse the motion.

The pure chord operations come first (contracts in, contracts out); `apply`
aims them at the song's progression and notes what the change triggers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from muse_tui.compose.harmony import REGISTERS, song_key
from muse_tui.compose.requests import Edit
from muse_tui.contracts import EnrichedProgression, HarmonicFunction, ProgressionChord
from muse_tui.theory import (
    Chord,
    ChordSyntaxError,
    Key,
    parse_chord,
    to_roman,
    voice,
    voice_lead,
)

from .revision import EditError, Revision

_BASE_TENSION: dict[str, float] = {
    "tonic": 0.1, "predominant": 0.35, "dominant": 0.6, "secondary_dominant": 0.65,
    "borrowed": 0.45, "chromatic": 0.75, "passing": 0.5,
}  # fmt: skip


EXTENSIONS = ("sevenths", "jazzier")


def handles(edit: Edit) -> bool:
    """Whether this family makes the edit: a recolour or extension of chords, or one replaced."""
    recolour = edit.operation in ("darker", "brighter")
    return (
        edit.operation == "chord"
        or edit.operation in EXTENSIONS
        or (recolour and (edit.scope.chord is not None or edit.scope.harmony))
    )


def apply(revision: Revision, edit: Edit) -> Revision:
    """The revision with the progression recoloured or extended, or one chord replaced."""
    revision = revision.fork()
    if edit.operation == "chord":
        _replace_chord(revision, edit)
    else:
        _recolour(revision, edit)
    return revision


def _recolour(revision: Revision, edit: Edit) -> None:
    progression = revision.song.progression
    if progression is None:
        raise EditError("the song has no progression yet.")
    count = len(progression.chords)
    if edit.scope.chord is not None:
        index = edit.scope.chord if edit.scope.chord >= 0 else count - 1
        if not 0 <= index < count:
            raise EditError(f"the progression has only {count} chords.")
        indices = [index]
    else:
        indices = list(range(count))
    new = _coloured(progression, indices, edit, revision.voicing_style)
    if edit.scope.chord is None and progression.sections:  # every section's own chords too
        sections = {
            kind: _coloured(own, list(range(len(own.chords))), edit, revision.voicing_style)
            for kind, own in progression.sections.items()
        }
        new = new.model_copy(update={"sections": sections})
    moved = [i for i in indices if new.chords[i] != progression.chords[i]]
    progression_changed(revision, new)
    for i in moved:
        revision.aim("progression", f"progression.chords[{i}]", "adjust", edit=edit.operation)
    what = "; ".join(
        f"chord {i + 1} {progression.chords[i].symbol} → {new.chords[i].symbol}" for i in moved
    )
    done = {"sevenths": "Added sevenths", "jazzier": "Made the chords jazzier"}
    revision.sentences.append(f"{done.get(edit.operation, f'Made it {edit.operation}')} ({what}).")


def _coloured(
    progression: EnrichedProgression, indices: list[int], edit: Edit, style: str
) -> EnrichedProgression:
    if edit.operation in EXTENSIONS:
        return extended(progression, indices, ninths=edit.operation == "jazzier", style=style)
    return recoloured(progression, indices, edit.operation, style)


def _replace_chord(revision: Revision, edit: Edit) -> None:
    progression = revision.song.progression
    if progression is None or edit.scope.chord is None:
        raise EditError("say which chord, e.g. “change the 3rd chord to Fm7”.")
    index = edit.scope.chord if edit.scope.chord >= 0 else len(progression.chords) - 1
    if not 0 <= index < len(progression.chords):
        raise EditError(f"the progression has only {len(progression.chords)} chords.")
    new = with_chord(progression, index, str(edit.value), revision.voicing_style)
    progression_changed(revision, new)
    revision.aim("progression", f"progression.chords[{index}]", "replace", symbol=str(edit.value))
    old = progression.chords[index].symbol
    revision.sentences.append(f"Chord {index + 1} is now {new.chords[index].symbol} (was {old}).")


def progression_changed(revision: Revision, progression: EnrichedProgression) -> None:
    """Put a new progression in the song: what plays it follows, the progression is not redone."""
    revision.song = revision.song.model_copy(update={"progression": progression})
    revision.triggers.append(("progression", None))
    revision.handled.add("progression")
    revision.touch("progression", "moderate")


def recoloured(
    progression: EnrichedProgression,
    indices: Sequence[int],
    direction: str,
    voicing_style: str = "close",
) -> EnrichedProgression:
    """The progression with the chords at `indices` made darker or brighter.

    A major chord turns minor (IV → iv), a dominant gains a flat nine (keeping
    its pull), a minor chord gives way to the major chord a third below
    (vi → IV, i → bVI); brighter goes the other way. Raises EditError when none can move.
    """
    shift = _darker if direction == "darker" else _brighter
    refusal = f"that is already as {direction.removesuffix('er')} as those chords go."
    return _reshaped(progression, indices, shift, voicing_style, refusal)


def extended(
    progression: EnrichedProgression,
    indices: Sequence[int],
    *,
    ninths: bool = False,
    style: str = "close",
) -> EnrichedProgression:
    """The chords at `indices` with the key's own seventh added (and a ninth, for "jazzier").

    The seventh is the scale's: Imaj7, ii7, V7, viiø7 in major. A ninth is added
    only where it is a whole step above the root (no b9 outside a dominant), the
    way a jazz pianist colours a ii–V–I; chords with their ninth already reach
    for the next colour (m11, 13, maj9#11). Raises EditError when none can grow.
    """
    refusal = f"every chord has its {'ninths' if ninths else 'sevenths'} already."
    return _reshaped(
        progression, indices, lambda c, k: _with_extensions(c, k, ninths), style, refusal
    )


def _reshaped(
    progression: EnrichedProgression,
    indices: Sequence[int],
    change: Callable[[Chord, Key], Chord | None],
    style: str,
    refusal: str,
) -> EnrichedProgression:
    """The chords at `indices` changed by `change` and voice-led in place; EditError if none move.

    A chord `change` leaves (None) or a symbol that does not parse stays as it was.
    """
    key = song_key(progression)
    chords = list(progression.chords)
    moved = 0
    for index in indices:
        try:
            chord = parse_chord(chords[index].symbol)
        except ChordSyntaxError:
            continue
        new = change(chord, key)
        if new is None:
            continue
        chords[index] = _placed(new, chords, index, key, chords[index], style)
        moved += 1
    if not moved:
        raise EditError(refusal)
    return progression.model_copy(update={"chords": chords})


def _with_extensions(chord: Chord, key: Key, ninths: bool) -> Chord | None:
    tones = set(chord.degrees)
    if not any(d == 3 for d, _ in tones) or any(d == 6 for d, _ in tones):
        return None  # a sus or sixth chord keeps its own colour
    if not any(d == 7 for d, _ in tones):
        in_key = (chord.root_pc + 11) % 12 in key.pitch_classes
        major_triad = (3, 0) in tones and (5, 0) in tones
        tones.add((7, 0) if in_key and major_triad else (7, -1))
    natural_ninth = (chord.root_pc + 2) % 12 in key.pitch_classes or (3, 0) in tones
    if ninths and natural_ninth and (5, -1) not in tones and not any(d == 9 for d, _ in tones):
        tones.add((9, 0))
    if ninths and tones == set(chord.degrees) and (9, 0) in tones:
        tones |= _upper_extension(chord, key)
    if tones == set(chord.degrees):
        return None
    return Chord(chord.root_name, frozenset(tones), chord.bass_name)


def _upper_extension(chord: Chord, key: Key) -> set[tuple[int, int]]:
    """Past the ninth: m11 on a minor chord, 13 on a dominant, #11 on a major one in the key."""
    tones = set(chord.degrees)
    if any(d in (11, 13) for d, _ in tones):
        return set()
    if (3, -1) in tones and (5, 0) in tones:
        return {(11, 0)}
    if (3, 0) in tones and (7, -1) in tones:
        return {(13, 0)}
    if (3, 0) in tones and (chord.root_pc + 6) % 12 in key.pitch_classes:
        return {(11, 1)}
    return set()


def with_chord(
    progression: EnrichedProgression, index: int, symbol: str, voicing_style: str = "close"
) -> EnrichedProgression:
    """The progression with one chord replaced by `symbol`, voice-led from its neighbour."""
    try:
        chord = parse_chord(symbol)
    except ChordSyntaxError as exc:
        raise EditError(f"cannot read the chord {symbol!r}: {exc}") from None
    key = song_key(progression)
    chords = list(progression.chords)
    chords[index] = _placed(chord, chords, index, key, chords[index], voicing_style)
    return progression.model_copy(update={"chords": chords})


def reversed_motion(progression: EnrichedProgression, style: str = "close") -> EnrichedProgression:
    """The chords from the tonic with the rest played backwards: what descended now rises."""
    chords = [progression.chords[0], *reversed(progression.chords[1:])]
    low, high = REGISTERS.get(style, REGISTERS["close"])
    voiced = [chords[0]]
    for chord in chords[1:]:
        voicing = voice_lead(voiced[-1].voicing, parse_chord(chord.symbol), low, high)
        voiced.append(chord.model_copy(update={"voicing": list(voicing)}))
    return progression.model_copy(update={"chords": voiced})


def _darker(chord: Chord, key: Key) -> Chord | None:
    tones = set(chord.degrees)
    if (3, 0) in tones and (7, -1) in tones:  # a dominant: darken the ninth, keep the pull
        if (9, -1) in tones:
            return None
        tones.discard((9, 0))
        return Chord(chord.root_name, tones | {(9, -1)})
    if (3, 0) in tones:
        tones = (tones - {(3, 0), (7, 0), (5, 1)}) | {(3, -1)}
        tones |= {(7, -1)} if (7, 0) in chord.degrees else set()
        tones |= {(5, 0)} if (5, 1) in chord.degrees else set()
        return Chord(chord.root_name, tones)
    if (3, -1) in tones and (5, 0) in tones:  # minor: the major chord a major third below
        return _relative(chord, key, -4, third=(3, 0))
    return None


def _brighter(chord: Chord, key: Key) -> Chord | None:
    tones = set(chord.degrees)
    if (5, -1) in tones and (3, -1) in tones:  # half-diminished or diminished: open the fifth
        tones = (tones - {(5, -1), (7, -2)}) | {(5, 0)}
        return Chord(chord.root_name, tones)
    if (3, -1) in tones:
        tones = (tones - {(3, -1), (7, 0)}) | {(3, 0)}
        return Chord(chord.root_name, tones | ({(7, -1)} if (7, 0) in chord.degrees else set()))
    if (3, 0) in tones and (9, -1) in tones:
        return Chord(chord.root_name, (tones - {(9, -1)}) | {(9, 0)})
    if (3, 0) in tones:  # major: the minor chord a major third above
        return _relative(chord, key, 4, third=(3, -1))
    return None


def _relative(chord: Chord, key: Key, semitones: int, third: tuple[int, int]) -> Chord:
    """The chord sharing two notes a major third away; a seventh or ninth comes along."""
    tones = {(1, 0), third, (5, 0)}
    if any(d == 7 for d, _ in chord.degrees):
        tones.add((7, 0) if third == (3, 0) else (7, -1))
        if any(d == 9 for d, _ in chord.degrees):
            tones.add((9, 0))
    return Chord(key.spell((chord.root_pc + semitones) % 12), tones)


def _placed(
    chord: Chord,
    chords: list[ProgressionChord],
    index: int,
    key: Key,
    old: ProgressionChord,
    style: str,
) -> ProgressionChord:
    low, high = REGISTERS.get(style, REGISTERS["close"])
    before = chords[index - 1].voicing if len(chords) > 1 else None
    voicing = voice_lead(before, chord, low, high) if before else voice(chord, style, low, high)
    outside = len(chord.pitch_classes - set(key.pitch_classes))
    function: HarmonicFunction = old.function
    if outside:
        function = (
            "borrowed" if old.function not in ("dominant", "secondary_dominant") else function
        )
    elif chord.root_pc != parse_chord(old.symbol).root_pc:
        function = "predominant" if (chord.root_pc - key.tonic_pc) % 12 in (2, 5) else "tonic"
    extensions = max(0, len(chord.pitch_classes) - 3)
    tension = min(1.0, _BASE_TENSION[function] + 0.05 * extensions + 0.08 * outside)
    return old.model_copy(
        update={
            "symbol": chord.symbol,
            "roman": to_roman(chord, key) or "?",
            "voicing": list(voicing),
            "function": function,
            "tension": round(tension, 3),
        }
    )
