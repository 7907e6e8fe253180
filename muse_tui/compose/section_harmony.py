"""Each kind of section its own harmony: a verse answers, a pre-chorus builds, a bridge departs.

S2's main progression is the song's hook: the chorus, hook, drop and head play it.
Around it (`skills/harmony/section-harmony.json`) a verse takes another progression of
the genre's library with a different chord set, a pre-chorus climbs from the
predominant to the dominant, and a bridge or breakdown starts away from the tonic.
They ride on the main progression (`EnrichedProgression.sections`), so a key change,
a new progression or an alternative moves them with it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from muse_tui.contracts import EnrichedProgression, PipelineIntent
from muse_tui.knowledge.progressions import progression_table
from muse_tui.knowledge.section_harmony import (
    Role,
    SectionChords,
    SectionHarmonyTable,
    section_harmony_table,
)
from muse_tui.theory import Key, parse_chord, parse_roman

from .dials import creativity_of
from .harmony import generate_progression, progression_from, song_key
from .progression_pick import library_key, pick_from_library

#: Picks from the genre's library a verse tries before it takes a written answer.
_LIBRARY_TRIES = 6
#: Chord sets this alike (Jaccard) are heard as the same harmony.
_SAME = 0.6
_MINOR_THIRD = ("minor", "dorian", "phrygian", "locrian", "harmonic minor", "melodic minor")
_NUMERAL = re.compile(r"^[b#]?(?:vii|iii|iv|vi|ii|v|i)", re.IGNORECASE)


def song_progression(
    intent: PipelineIntent,
    rng: random.Random,
    *,
    variant: int = 0,
    beats_per_bar: float = 4.0,
    take: int | None = None,
) -> EnrichedProgression:
    """S2's progression for a song: the main one, then each section kind's own.

    `take` is the song's seed: the next seed picks another main progression.

    The sections draw from RNGs seeded after the main pick, so the main progression is
    what `generate_progression` alone gives for the same RNG.
    """
    main = generate_progression(
        intent, rng, variant=variant, beats_per_bar=beats_per_bar, take=take
    )
    base = rng.getrandbits(64)
    return with_section_chords(
        main,
        intent,
        lambda component: random.Random(f"{base}:{component}"),
        beats_per_bar=beats_per_bar,
    )


def with_section_chords(
    main: EnrichedProgression,
    intent: PipelineIntent,
    rng_for: Callable[[str], random.Random],
    *,
    beats_per_bar: float = 4.0,
    table: SectionHarmonyTable | None = None,
) -> EnrichedProgression:
    """The main progression carrying the verse's, pre-chorus's and bridge's own chords.

    A producer's explicit chords, or a genre that keeps one loop, are left as they are; a
    blend keeps one loop only when all its genres do (ambient meeting trap plays trap's
    verses and hooks, each with its own chords).
    `rng_for(component)` gives the seeded RNG of each kind, so one section's choice
    never moves another's.
    """
    table = table or section_harmony_table()
    keeps_loop = bool(intent.genre) and all(g in table.keep_loop for g in intent.genre)
    if main.source != "generated" or keeps_loop:
        return main
    taken = [_numeral_set(c.roman for c in main.chords)]
    main_sound = [parse_chord(c.symbol).pitch_classes for c in main.chords]
    sections: dict[str, EnrichedProgression] = {}
    for kind, role in table.kinds.items():
        rng = rng_for(f"progression:{kind}")
        numerals, bars, in_library_mode = _pick(role, intent, taken, main_sound, rng, table)
        taken.append(_numeral_set(numerals))
        sections[kind] = progression_from(
            numerals,
            bars,
            intent,
            rng,
            mode_key=in_library_mode,
            name=kind,
            variant=main.variant,
            beats_per_bar=beats_per_bar,
        )
    return main.model_copy(update={"sections": sections})


def _pick(
    role: Role,
    intent: PipelineIntent,
    taken: list[frozenset[str]],
    main_sound: list[frozenset[int]],
    rng: random.Random,
    table: SectionHarmonyTable,
) -> tuple[list[str], list[float], object]:
    """(numerals, bars per chord, the key they are read in) for one section's role.

    A verse's answer must be heard as other chords than the main loop's, not only
    written as other numerals (`_heard_apart`); the first library pick that is, else
    a written answer that is.
    """
    key = song_key(intent)
    dial = creativity_of(intent).harmonic
    rich = _extends_to_ninths(intent)
    if role == "answer":
        dna = intent.genre_dna
        length = dna.progression_length if dna else (1, 16)
        library = progression_table()
        for _ in range(_LIBRARY_TRIES):
            picked = pick_from_library(intent.genre[0], key, dial, length, rng, library)
            if picked is None:
                break
            own_key = library_key(key, picked)
            sound = [_heard(n, own_key, rich) for n in picked.chords]
            if _fresh(_numeral_set(picked.chords), taken) and _heard_apart(sound, main_sound):
                return list(picked.chords), picked.chord_bars, own_key
    third = "minor" if key.mode in _MINOR_THIRD else "major"
    options = [o for o in table.choices(role, third) if o.dial <= max(dial, 0.0)]
    fresh = [o for o in options if _fresh(_numeral_set(o.chords), taken)] or options
    fresh = [
        o for o in fresh if _heard_apart([_heard(n, key, rich) for n in o.chords], main_sound)
    ] or fresh
    chosen: SectionChords = rng.choice(fresh)
    return list(chosen.chords), list(chosen.bars), None


def _extends_to_ninths(intent: PipelineIntent) -> bool:
    """Whether the genre's players colour chords up to the 9th (neo-soul, lo-fi, jazz)."""
    dna = intent.genre_dna
    return bool(dna and any("9" in quality for quality in dna.harmonic_vocabulary))


def _heard(numeral: str, key: Key, rich: bool = False) -> frozenset[int]:
    """The chord as a listener hears it once the genre's colour is added: a chord on a
    degree of the key takes the key's 7th above its root (most styles extend to it), and
    its 9th in a genre that colours up to there (`rich`)."""
    try:
        chord = parse_roman(numeral, key)
    except ValueError:
        return frozenset()
    scale = list(key.pitch_classes)
    if chord.root_pc not in scale:
        return chord.pitch_classes
    at = scale.index(chord.root_pc)
    steps = (6, 1) if rich else (6,)
    return chord.pitch_classes | {scale[(at + step) % 7] for step in steps}


def _heard_apart(sound: list[frozenset[int]], main_sound: list[frozenset[int]]) -> bool:
    """At most half of the chords are heard as one of the main loop's: a chord is heard as
    another when they share most notes (Jaccard >= 0.6) or one holds the other."""

    def same(a: frozenset[int], b: frozenset[int]) -> bool:
        shared = len(a & b) / len(a | b) if a | b else 1.0
        return shared >= _SAME or (min(len(a), len(b)) >= 3 and (a <= b or b <= a))

    echoed = sum(1 for chord in sound if any(same(chord, m) for m in main_sound))
    return echoed * 2 <= len(sound)


def _numeral_set(numerals: object) -> frozenset[str]:
    """The chords as scale degrees, extensions and figures aside ('VImaj7' → 'VI')."""
    found = set()
    for numeral in numerals:  # type: ignore[attr-defined]
        match = _NUMERAL.match(str(numeral))
        if match:
            found.add(match.group(0))
    return frozenset(found)


def _fresh(candidate: frozenset[str], taken: list[frozenset[str]]) -> bool:
    """Heard as new harmony: two chords at least, neither inside nor (nearly) the same as a
    set a section already plays (a one-chord vamp on the tonic is the main loop, pedalled)."""
    return len(candidate) >= 2 and all(
        not candidate <= other
        and not other <= candidate
        and len(candidate & other) / len(candidate | other) < _SAME
        for other in taken
    )
