"""Chord symbols agree with two independent parsers: music21 and pychord."""

from __future__ import annotations

import warnings

import pychord
import pytest
from music21 import harmony

from muse_tui.theory import parse_chord

ROOTS = ("C", "Db", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B", "C#", "Gb", "G#", "Cb")

# Suffixes music21 reads exactly as we write them.
SAME_IN_MUSIC21 = (
    "", "m", "min", "dim", "o", "aug", "+", "5", "6", "m6", "7", "maj7", "M7", "m7", "min7",
    "mM7", "m7b5", "ø7", "dim7", "o7", "aug7", "+7", "7+", "7#5", "maj7#5", "+M7", "sus2",
    "sus4", "sus", "7sus4", "7sus", "9", "11", "13", "m9", "m11", "m13", "M9", "Maj9", "M13",
    "mM9", "add9", "add11", "add13", "add2", "add4", "madd9", "madd11", "m7add11", "6add9",
    "m6add9", "7add13", "7b9", "7#9", "7#11", "7b13", "7b9#9", "7b9#11", "7#9#11", "7b5",
    "9#11", "9b5", "9#5", "m7#5", "7#5#9", "7#5b9", "7b5#9", "7b5b9", "maj7b5", "maj7#11",
    "m9b5", "m7b5b9", "7b9b13", "7#9b13", "7sus4b9",
)  # fmt: skip

# Spellings music21 does not know (or misreads), mapped to the same chord in its
# own vocabulary. Each line is an alias our parser must resolve to that chord.
RESPELLED_FOR_MUSIC21 = {
    "-": "m",  # music21 reads "C-" as C-flat major: "-" is its flat sign
    "-7": "m7",  # likewise "C-7" would be C-flat seventh
    "Maj7": "maj7",
    "Δ": "maj7",
    "Δ7": "maj7",
    "ma7": "maj7",
    "maj9": "M9",
    "maj11": "M11",
    "maj13": "M13",
    "mMaj7": "mM7",
    "m(maj7)": "mM7",
    "-Δ7": "mM7",
    "mMaj9": "mM9",
    "ø": "ø7",
    "m7-5": "m7b5",
    "6/9": "6add9",
    "69": "6add9",  # music21 parses "C69" but drops the E and G: [C, D, A]
    "m6/9": "m6add9",
    "9sus4": "7sus4add9",
    "7(b9,#11)": "7b9#11",
    "7(#9)": "7#9",
    "maj7(#11)": "maj7#11",
    "7no3": "7omit3",
    "add9no5": "add9omit5",  # music21 reads "add9no5" but ignores the no5
    "7-9": "7b9",
    "7+5": "7#5",
    "2": "add9",
    "7♭9": "7b9",
    "7♯11": "7#11",
}

# Chords music21 gets wrong or cannot name at all: the expected intervals are
# written by hand, each with the reason.
HAND_WRITTEN = {
    # The altered dominant: music21 has no symbol for it. We take every note of the
    # altered scale: root, 3, b7, b9, #9, #11 (= b5), b13, and no natural fifth.
    "7alt": (0, 4, 10, 13, 15, 18, 20),
    "alt": (0, 4, 10, 13, 15, 18, 20),
    # music21 keeps the natural 11 of a 13th chord and ignores the #11 written after it.
    "13#11": (0, 4, 7, 10, 14, 18, 21),
    # music21 keeps the natural 9 of a 13th chord and ignores the b9 written after it.
    "13b9": (0, 4, 7, 10, 13, 17, 21),
    "13#9": (0, 4, 7, 10, 15, 17, 21),
    # music21 has no 13sus4; the full stack with the 4th in place of the 3rd.
    "13sus4": (0, 5, 7, 10, 14, 17, 21),
    # music21 cannot read the maj7 inside brackets after "m" plus an extension.
    "m(maj9)": (0, 3, 7, 11, 14),
}

SLASH_CHORDS = {
    # ours → music21 (flats as "-")
    "Gmaj/E": "G/E",
    "Dbmaj7/F": "D-maj7/F",
    "C/E": "C/E",
    "Am7/G": "Am7/G",
    "Fmaj7/A": "Fmaj7/A",
    "Bb13/D": "B-13/D",
    "C#m7b5/G": "C#m7b5/G",
    "Ebm/Gb": "E-m/G-",
    "C7sus4/G": "C7sus4/G",
    "Cdim/Eb": "Cdim/E-",
    "Caug/E": "Caug/E",
    "D7#11/F#": "D7#11/F#",
    "Cm6/Eb": "Cm6/E-",
    "F7/Eb": "F7/E-",
    "Bbadd9/D": "B-add9/D",
    "E♭maj7/G": "E-maj7/G",
    "F♯m7/E": "F#m7/E",
    "Abm7add11/Gb": "A-m7add11/G-",
}


def _music21_root(root: str) -> str:
    return root.replace("b", "-").replace("♭", "-").replace("♯", "#")


def _cases() -> list[tuple[str, str]]:
    """(our symbol, music21 figure) over many roots; music21 figure "" means hand-written."""
    cases = []
    suffixes = [*SAME_IN_MUSIC21, *RESPELLED_FOR_MUSIC21, *HAND_WRITTEN]
    for index, suffix in enumerate(suffixes):
        # Two roots per quality, walking the circle so sharps and flats both appear.
        for root in (ROOTS[index % len(ROOTS)], ROOTS[(index * 7 + 3) % len(ROOTS)]):
            ours = root + suffix
            if suffix in HAND_WRITTEN:
                cases.append((ours, ""))
            else:
                theirs = RESPELLED_FOR_MUSIC21.get(suffix, suffix)
                cases.append((ours, _music21_root(root) + theirs))
    cases += list(SLASH_CHORDS.items())
    return cases


CASES = _cases()


def _music21_pitch_classes(figure: str) -> tuple[frozenset[int], int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        symbol = harmony.ChordSymbol(figure)
    return frozenset(p.pitchClass for p in symbol.pitches), symbol.bass().pitchClass


def test_enough_distinct_symbols_are_checked() -> None:
    against_music21 = {ours for ours, theirs in CASES if theirs}
    assert len({ours for ours, _ in CASES}) == len(CASES)
    assert len(against_music21) >= 150


@pytest.mark.parametrize(("ours", "theirs"), [c for c in CASES if c[1]], ids=lambda v: v)
def test_pitch_classes_match_music21(ours: str, theirs: str) -> None:
    chord = parse_chord(ours)
    expected, bass = _music21_pitch_classes(theirs)
    assert chord.pitch_classes == expected, f"{ours} vs music21 {theirs}"
    assert chord.bass_pc == bass


@pytest.mark.parametrize("ours", [c[0] for c in CASES if not c[1]])
def test_pitch_classes_match_hand_written_sets(ours: str) -> None:
    chord = parse_chord(ours)
    suffix = ours[len(chord.root_name) :]
    expected = HAND_WRITTEN[suffix]
    assert chord.intervals == expected
    assert chord.pitch_classes == {(chord.root_pc + i) % 12 for i in expected}


def test_the_music21_respellings_are_real_disagreements() -> None:
    """Each respelling exists because music21 rejects or misreads our spelling."""
    for suffix, replacement in RESPELLED_FOR_MUSIC21.items():
        ours = parse_chord("C" + suffix).pitch_classes
        try:
            read, _ = _music21_pitch_classes("C" + suffix)
        except Exception:  # music21 raises several unrelated types for unknown symbols
            continue
        if read != ours:
            continue
        # music21 reads it the same way: only plain-ASCII rewrites are allowed then.
        assert suffix in {"7-9", "7+5", "m7-5", "7♭9", "7♯11"}, (suffix, replacement)


# pychord disagrees with music21 and with us on one spelling: its table lists
# "7b9b13" as 1 3 5 b7 b9 11 b13, an 11th nobody writes into that symbol.
PYCHORD_ADDS_AN_ELEVENTH = {"7b9b13"}
# pychord takes the "/9" of "6/9" for a slash bass and returns a wrong chord; it
# spells the same chord "69".
PYCHORD_RESPELLED = {"6/9": "69", "m6/9": "m69"}


def _for_pychord(symbol: str) -> str:
    ascii_symbol = symbol.replace("♭", "b").replace("♯", "#")
    for ours, theirs in PYCHORD_RESPELLED.items():
        if ascii_symbol.endswith(ours):
            return ascii_symbol[: -len(ours)] + theirs
    return ascii_symbol


def _pychord_pitch_classes(symbol: str) -> frozenset[int] | None:
    try:
        return frozenset(value % 12 for value in pychord.Chord(symbol).components(visible=False))
    except ValueError:
        return None


def _pychord_cases() -> list[str]:
    found = []
    for ours, _ in CASES:
        if _pychord_pitch_classes(_for_pychord(ours)) is not None:
            found.append(ours)
    return found


PYCHORD_CASES = _pychord_cases()


def test_enough_symbols_are_checked_against_pychord() -> None:
    assert len(PYCHORD_CASES) >= 100


@pytest.mark.parametrize("ours", PYCHORD_CASES)
def test_pitch_classes_match_pychord(ours: str) -> None:
    chord = parse_chord(ours)
    theirs = _pychord_pitch_classes(_for_pychord(ours))
    assert theirs is not None
    suffix = ours[len(chord.root_name) :].split("/")[0]
    if suffix in PYCHORD_ADDS_AN_ELEVENTH:
        assert theirs == chord.pitch_classes | {(chord.root_pc + 5) % 12}
    else:
        assert chord.pitch_classes == theirs
