"""The chord-symbol vocabulary: qualities, their aliases and the modifiers on top.

A chord's content is a set of tones, each a (degree, alteration) pair: (3, -1)
is a minor third, (9, 1) a sharp nine, (7, -2) the diminished seventh. Two
symbols that build the same tones are the same chord ("Cø7" and "Cm7b5").

Extended chords stack every third below their top extension, as music21 and
pychord do: C13 holds the 9 and the 11. Leaving the 11 out of a dominant
thirteenth is a voicing decision (see voicing.py), not a spelling one.
"""

from __future__ import annotations

from dataclasses import dataclass

Tone = tuple[int, int]

DEGREE_SEMITONES = {1: 0, 2: 2, 3: 4, 4: 5, 5: 7, 6: 9, 7: 11, 9: 14, 11: 17, 13: 21}
ALTERABLE = frozenset({5, 9, 11, 13})
ADDABLE = frozenset({2, 4, 6, 9, 11, 13})
OMITTABLE = frozenset({3, 5})


def tone_semitones(tone: Tone) -> int:
    degree, alteration = tone
    return DEGREE_SEMITONES[degree] + alteration


def _tones(spec: str) -> frozenset[Tone]:
    """Tones from a spelling like "1 b3 5 bb7"."""
    tones = set()
    for word in spec.split():
        digits = word.lstrip("b#")
        alteration = word.count("#") - word.count("b")
        tones.add((int(digits), alteration))
    return frozenset(tones)


@dataclass(frozen=True)
class Quality:
    """A chord quality: its canonical suffix, its tones and the other ways to write it."""

    suffix: str
    tones: frozenset[Tone]
    aliases: tuple[str, ...] = ()


def _quality(suffix: str, spec: str, *aliases: str) -> Quality:
    return Quality(suffix, _tones(spec), aliases)


_DELTAS = ("Δ", "∆")  # Greek capital delta and the increment sign; keyboards give either
_MAJ = ("maj", "Maj", "MAJ", "ma", "Ma", "M", *_DELTAS)
_MINOR_MAJ = ("mMaj", "mmaj", "mM", "minMaj", "minmaj", "-Δ", "-∆", "mΔ", "m∆", "-maj", "-M")


def _spellings(prefixes: tuple[str, ...], number: str) -> tuple[str, ...]:
    return tuple(prefix + number for prefix in prefixes)


# Order matters twice: when printing, the first quality that explains a chord
# with the fewest modifiers wins; when reading, every alias is tried, longest first.
QUALITIES: tuple[Quality, ...] = (
    _quality("", "1 3 5", "maj", "Maj", "M", "major"),
    _quality("m", "1 b3 5", "min", "-", "mi"),
    _quality("dim", "1 b3 b5", "o", "°", "º"),
    _quality("aug", "1 3 #5", "+"),
    _quality("5", "1 5"),
    _quality("6", "1 3 5 6", "maj6", "M6"),
    _quality("m6", "1 b3 5 6", "min6", "-6"),
    _quality("6/9", "1 3 5 6 9", "69"),
    _quality("m6/9", "1 b3 5 6 9", "m69", "min69", "-69", "min6/9", "-6/9"),
    _quality("7", "1 3 5 b7", "dom7", "dom"),
    _quality("9", "1 3 5 b7 9", "dom9"),
    _quality("11", "1 3 5 b7 9 11", "dom11"),
    _quality("13", "1 3 5 b7 9 11 13", "dom13"),
    _quality("maj7", "1 3 5 7", *_spellings(_MAJ, "7"), *_DELTAS),
    _quality("maj9", "1 3 5 7 9", *_spellings(_MAJ, "9")),
    _quality("maj11", "1 3 5 7 9 11", *_spellings(_MAJ, "11")),
    _quality("maj13", "1 3 5 7 9 11 13", *_spellings(_MAJ, "13")),
    _quality("m7", "1 b3 5 b7", "min7", "-7", "mi7"),
    _quality("m9", "1 b3 5 b7 9", "min9", "-9", "mi9"),
    _quality("m11", "1 b3 5 b7 9 11", "min11", "-11", "mi11"),
    _quality("m13", "1 b3 5 b7 9 11 13", "min13", "-13", "mi13"),
    _quality(
        "mMaj7",
        "1 b3 5 7",
        *_spellings(_MINOR_MAJ, "7"),
        "m(maj7)",
        "m(Maj7)",
        "m(M7)",
        "min(maj7)",
        "-(maj7)",
        "-Δ",
        "-∆",
        "mΔ",
        "m∆",
    ),
    _quality("mMaj9", "1 b3 5 7 9", *_spellings(_MINOR_MAJ, "9"), "m(maj9)", "m(Maj9)"),
    _quality("mMaj11", "1 b3 5 7 9 11", *_spellings(_MINOR_MAJ, "11"), "m(maj11)"),
    _quality("mMaj13", "1 b3 5 7 9 11 13", *_spellings(_MINOR_MAJ, "13"), "m(maj13)"),
    _quality("add9", "1 3 5 9", "2"),
    _quality("m7b5", "1 b3 b5 b7", "ø", "ø7", "Ø", "Ø7", "min7b5", "-7b5", "m7-5"),
    _quality("dim7", "1 b3 b5 bb7", "o7", "°7", "º7"),
    _quality("aug7", "1 3 #5 b7", "+7", "7+", "7aug"),
    _quality("maj7#5", "1 3 #5 7", "+maj7", "+M7", "+Δ7", "augmaj7", "augMaj7", "maj7+5"),
    # The altered dominant: every note of the altered scale (7th mode of melodic
    # minor) over the root, so b5 is written as #11 and there is no natural 5th.
    _quality("7alt", "1 3 b7 b9 #9 #11 b13", "alt"),
)

# (alias, quality), longest alias first, for reading.
ALIASES: tuple[tuple[str, Quality], ...] = tuple(
    sorted(
        ((alias, quality) for quality in QUALITIES for alias in (quality.suffix, *quality.aliases)),
        key=lambda pair: -len(pair[0]),
    )
)


@dataclass(frozen=True)
class Modifier:
    """One change on top of a quality: alter (b9), sus (sus4), add (add9) or omit (no5)."""

    kind: str
    degree: int
    alteration: int = 0

    @property
    def text(self) -> str:
        if self.kind == "alter":
            sign = "#" if self.alteration > 0 else "b"
            return sign * abs(self.alteration) + str(self.degree)
        prefix = {"sus": "sus", "add": "add", "omit": "no"}[self.kind]
        return f"{prefix}{self.degree}"

    def apply(self, tones: frozenset[Tone]) -> frozenset[Tone]:
        if self.kind == "alter":
            # An altered 5th/9th/11th/13th replaces the natural one.
            return (tones - {(self.degree, 0)}) | {(self.degree, self.alteration)}
        if self.kind == "sus":
            return frozenset(t for t in tones if t[0] != 3) | {(self.degree, 0)}
        if self.kind == "add":
            return tones | {(self.degree, 0)}
        return frozenset(t for t in tones if t[0] != self.degree)


def apply_all(tones: frozenset[Tone], modifiers: tuple[Modifier, ...]) -> frozenset[Tone]:
    for modifier in modifiers:
        tones = modifier.apply(tones)
    return tones


def explain(base: frozenset[Tone], target: frozenset[Tone]) -> tuple[Modifier, ...] | None:
    """Modifiers that turn `base` into `target`, in printing order, or None if none do."""
    direct = _explain_in_order(base, target)
    if direct is not None:
        return direct
    # An altered base tone the target does not keep (dim7's b5 under a #5) cannot be
    # altered away: clear its degree first, as in "dim7no5#5".
    cleared = sorted(d for d in OMITTABLE if any(t[0] == d and t not in target for t in base))
    if not cleared:
        return None
    omits = tuple(Modifier("omit", degree) for degree in cleared)
    rest = _explain_in_order(apply_all(base, omits), target)
    return None if rest is None else omits + rest


def _explain_in_order(
    base: frozenset[Tone], target: frozenset[Tone]
) -> tuple[Modifier, ...] | None:
    """Alterations, then sus, then additions, then omissions, if those reach `target`."""
    modifiers: list[Modifier] = []
    extra = sorted(target - base)
    for degree, alteration in extra:
        if alteration:
            if degree not in ALTERABLE:
                return None
            modifiers.append(Modifier("alter", degree, alteration))
    target_degrees = {degree for degree, _ in target}
    base_degrees = {degree for degree, _ in base}
    suspended = None
    if 3 in base_degrees and 3 not in target_degrees:
        for sus in (4, 2):
            if (sus, 0) in target and (sus, 0) not in base:
                suspended = sus
                modifiers.append(Modifier("sus", sus))
                break
    for degree, alteration in extra:
        if alteration == 0 and degree != suspended:
            if degree not in ADDABLE:
                return None
            modifiers.append(Modifier("add", degree))
    for degree in sorted(OMITTABLE):
        dropped = degree in base_degrees and degree not in target_degrees
        if dropped and not (degree == 3 and suspended):
            modifiers.append(Modifier("omit", degree))
    found = tuple(modifiers)
    return found if apply_all(base, found) == target else None


def name_tones(tones: frozenset[Tone]) -> str:
    """The canonical suffix for a set of tones ("" for a major triad, "7b9", "m7add11")."""
    best: tuple[int, int, str] | None = None
    for index, quality in enumerate(QUALITIES):
        modifiers = explain(quality.tones, tones)
        if modifiers is None:
            continue
        text = "".join(modifier.text for modifier in modifiers)
        if quality.suffix == "" and modifiers and modifiers[0].kind == "alter":
            # "Cb5" would read as C-flat power chord: bracket the alterations.
            text = f"({text})"
        candidate = (len(modifiers), index, quality.suffix + text)
        if best is None or candidate < best:
            best = candidate
    if best is None:
        raise ValueError(f"no chord symbol spells the tones {sorted(tones)}")
    return best[2]
