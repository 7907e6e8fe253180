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

    A producer's explicit chords, or a genre that keeps one loop, are left as they are.
    `rng_for(component)` gives the seeded RNG of each kind, so one section's choice
    never moves another's.
    """
    table = table or section_harmony_table()
    if main.source != "generated" or intent.genre[0] in table.keep_loop:
        return main
    taken = [_numeral_set(c.roman for c in main.chords)]
    sections: dict[str, EnrichedProgression] = {}
    for kind, role in table.kinds.items():
        rng = rng_for(f"progression:{kind}")
        numerals, bars, in_library_mode = _pick(role, intent, taken, rng, table)
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
    rng: random.Random,
    table: SectionHarmonyTable,
) -> tuple[list[str], list[float], object]:
    """(numerals, bars per chord, the key they are read in) for one section's role."""
    key = song_key(intent)
    dial = creativity_of(intent).harmonic
    if role == "answer":
        dna = intent.genre_dna
        length = dna.progression_length if dna else (1, 16)
        library = progression_table()
        for _ in range(_LIBRARY_TRIES):
            picked = pick_from_library(intent.genre[0], key, dial, length, rng, library)
            if picked is None:
                break
            if _fresh(_numeral_set(picked.chords), taken):
                return list(picked.chords), picked.chord_bars, library_key(key, picked)
    third = "minor" if key.mode in _MINOR_THIRD else "major"
    options = [o for o in table.choices(role, third) if o.dial <= max(dial, 0.0)]
    fresh = [o for o in options if _fresh(_numeral_set(o.chords), taken)] or options
    chosen: SectionChords = rng.choice(fresh)
    return list(chosen.chords), list(chosen.bars), None


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
