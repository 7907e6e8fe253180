"""Which progression of a genre's library a seed picks: by weight, in the key, heard in it.

The library (`skills/harmony/progressions/`) says what is idiomatic; this module
says what fits the song asked for: the key's mode and its neighbours, the
genre's progression length, the harmonic dial, and a tonic a listener hears
(music21's Aarden–Essen key profile, here `theory.detect_key`, names the asked key).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from muse_tui.knowledge.progressions import LibraryProgression, ProgressionTable
from muse_tui.theory import Chord, Key, detect_key, parse_roman
from muse_tui.theory.key import MINOR_MODES, mode_name

#: The lowest harmonic dial at which a library progression may leave the key.
COLOUR_DIAL = 0.1
#: How much less likely a progression is picked when its chords alone would name another key.
UNHEARD_TONIC_WEIGHT = 0.05
#: How much less likely a progression written in a neighbouring mode is picked.
OTHER_MODE_WEIGHT = 0.5
#: Modes with a minor third, heard as minor keys.
_MINOR_THIRD = ("minor", "dorian", "phrygian", "harmonic minor", "melodic minor")


def pick_from_library(
    genre: str,
    key: Key,
    dial: float,
    length: tuple[int, int],
    rng: random.Random,
    table: ProgressionTable,
    *,
    take: int | None = None,
) -> LibraryProgression | None:
    """A seeded pick from the genre's library, weighted by it, in the key's mode.

    With `take` (the song's seed), the pick is the take-th of one weighted order of the
    fitting progressions (the same order for every seed of a genre and key), so the
    next seed is always another progression — a new song, not a variation — while
    the likelier progressions still come first.

    Progressions of modes with the same third as the key's count too (a minor key
    takes harmonic-minor and phrygian loops), at half weight and only once the dial
    allows their outside chords; all with as many chords as the genre's
    `progressionLength`. One whose chords alone would be heard in another key is
    picked less often: the asked key must be the one a listener hears. A modal key
    (phrygian, dorian…) is asked for its colour, which key-finding cannot name, so there
    the mode's own loops are not held back and its neighbours' are picked less.
    """
    low, high = length
    third = key.mode in _MINOR_THIRD
    modal = key.mode not in ("major", *MINOR_MODES)
    pool, weights = [], []
    for progression in table.library_for(genre):
        mode = library_key(key, progression).mode
        if not low <= len(progression.chords) <= high or (mode in _MINOR_THIRD) != third:
            continue
        if not _dial_allows(progression, key, dial):
            continue
        neighbour = OTHER_MODE_WEIGHT / 2 if modal else OTHER_MODE_WEIGHT
        weight = progression.weight * (1.0 if mode == key.mode else neighbour)
        pool.append(progression)
        heard = modal or _tonic_heard(progression, key)
        weights.append(weight * (1.0 if heard else UNHEARD_TONIC_WEIGHT))
    if not pool:
        return None
    if take is None:
        return rng.choices(pool, weights=weights)[0]
    return weighted_order(pool, weights, f"{genre}:{key.tonic}:{key.mode}")[take % len(pool)]


def weighted_order(
    pool: Sequence[LibraryProgression], weights: Sequence[float], name: str
) -> list[LibraryProgression]:
    """The pool in one weighted random order, fixed by `name` (Efraimidis–Spirakis keys).

    Each item draws u^(1/weight); sorting by it, largest first, is a weighted sample
    without replacement: heavier items tend to come first.
    """
    order = random.Random(name)
    keyed = [(order.random() ** (1.0 / weight), n) for n, weight in enumerate(weights)]
    return [pool[n] for _, n in sorted(keyed, reverse=True)]


def library_key(key: Key, progression: LibraryProgression) -> Key:
    """The asked tonic in a library progression's mode (its numerals are read in it)."""
    return Key(key.tonic, mode_name(progression.mode) or key.mode)


def _dial_allows(progression: LibraryProgression, key: Key, dial: float) -> bool:
    """Diatonic progressions always; one leaving the key only once the dial reaches its own."""
    scale = set(key.pitch_classes)
    own_key = library_key(key, progression)
    if all(parse_roman(n, own_key).pitch_classes <= scale for n in progression.chords):
        return True
    return dial >= max(progression.dial, COLOUR_DIAL)


def _tonic_heard(progression: LibraryProgression, key: Key) -> bool:
    own_key = library_key(key, progression)
    chords = [parse_roman(numeral, own_key) for numeral in progression.chords]
    return names_key(chords, progression.chord_bars, key)


def names_key(chords: Sequence[Chord], bars: Sequence[float], key: Key) -> bool:
    """The chords held as written name the asked tonic and third, with a light bass or a heavy one.

    A listener's key leans on the roots, and in a song without a chord track they
    are the harmony; with pads and keys the chord tones speak. Both must agree.
    """
    held = list(zip(chords, bars, strict=True))
    for bass_weight in (0.5, 2.0):
        notes = [(pc, length) for chord, length in held for pc in chord.pitch_classes]
        notes += [(chord.bass_pc, bass_weight * length) for chord, length in held]
        heard = detect_key(notes)
        if heard.tonic_pc != key.tonic_pc or (heard.mode == "minor") != (key.mode in _MINOR_THIRD):
            return False
    return True
