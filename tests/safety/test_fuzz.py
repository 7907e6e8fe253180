"""10,000 fuzzed chord symbols, Roman numerals, prompts, edit requests and session references.

Each reader may refuse an input only with its documented error type; anything
else (RecursionError, int()'s 4,300-digit ValueError, OSError) is a bug. The
inputs come from a seeded generator, so a failure names an input that fails
again on the next run.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from muse_tui.compose.intent.decompose import decompose
from muse_tui.compose.requests import parse_request
from muse_tui.store.sessions import BadSessionReference, SessionNotFound, resolve_session
from muse_tui.theory.chord import ChordSyntaxError, parse_chord
from muse_tui.theory.key import KeySyntaxError
from muse_tui.theory.pitch import NoteSyntaxError
from muse_tui.theory.roman import RomanSyntaxError, parse_roman

PER_KIND = 2500  # four kinds below: 10,000 inputs
CHORD_BITS = [*"ABCDEFGabcdefg#b♭♯mM/()+-°øo0123456789 ,", "maj", "min", "dim", "aug"]
CHORD_BITS += ["sus", "add", "alt", "no", "omit", "7", "9", "11", "13", "b9", "#11"]
ROMAN_BITS = [*"IViv b#♭♯o°ø+/Md0123456789 N", "VII", "vii", "V/", "maj7", "65", "43", "64"]
PROMPT_WORDS = [
    "make",
    "a",
    "song",
    "beat",
    "drill",
    "trap",
    "lofi",
    "neo",
    "soul",
    "house",
    "140",
    "bpm",
    "bar",
    "bars",
    "1",
    "bar",
    "99",
    "minutes",
    "minute",
    "in",
    "key",
    "of",
    "C#",
    "Bb",
    "minor",
    "major",
    "sad",
    "dark",
    "bright",
    "with",
    "bass",
    "drums",
    "no",
    "lead",
    "808",
    "half",
    "time",
    "double",
    "4/4",
    "3/4",
    "7/8",
    "like",
    "artist",
    "0",
    "-5",
    "1e9",
    "2:30",
    "seconds",
    "intro",
    "verse",
    "chorus",
    "I",
    "vi",
    "IV",
    "V",
    "V/V",
    "ii7",
    "loop",
]
REQUEST_WORDS = [
    "make",
    "the",
    "bass",
    "simpler",
    "darker",
    "3rd",
    "chord",
    "tempo",
    "96",
    "bpm",
    "key",
    "of",
    "A",
    "minor",
    "undo",
    "redo",
    "twice",
    "times",
    "louder",
    "quieter",
    "drums",
    "busier",
    "remove",
    "add",
    "lead",
    "try",
    "something",
    "different",
    "1",
    "2",
    "bar",
    "section",
    "chorus",
    "verse",
    "pan",
    "left",
    "right",
    "volume",
    "-3",
    "db",
    "up",
    "down",
    "semitones",
    "octave",
    "it",
    "the",
    "mix",
    "love",
    "this",
    "?",
]
HUGE = "9" * 5000


def _pieces(rng: random.Random, bits: list[str], most: int, joiner: str = "") -> str:
    return joiner.join(rng.choice(bits) for _ in range(rng.randint(0, most)))


def _chords(rng: random.Random) -> Iterator[str]:
    yield from ("C" + HUGE, "Cadd" + HUGE, "C7b" + HUGE, "C/" + "E" * 300, "C(" * 2000)
    while True:
        yield _pieces(rng, CHORD_BITS, 12)


def _romans(rng: random.Random) -> Iterator[str]:
    yield from ("V/" * 1000 + "V", "V/" * 100_000 + "V", "V" + HUGE, "bVII" + HUGE, "N" * 300)
    while True:
        yield _pieces(rng, ROMAN_BITS, 10)


def _prompts(rng: random.Random) -> Iterator[str]:
    yield from ("1 bar lofi beat", "drill, 99 minutes", "V/" * 1000 + "V", "x" * 10_000)
    yield from (f"tempo {HUGE}", f"house {HUGE} bars", f"trap in key of {HUGE}", "\x00\ud800")
    while True:
        yield _pieces(rng, PROMPT_WORDS, 14, " ")


def _requests(rng: random.Random) -> Iterator[str]:
    yield from ("V/" * 1000 + "V", "x" * 10_000, f"bar {HUGE}", f"tempo {HUGE}", "\x00")
    while True:
        yield _pieces(rng, REQUEST_WORDS, 10, " ")


def _refuse_only_with(
    read: Callable[[str], object], inputs: Iterator[str], allowed: tuple[type[Exception], ...]
) -> None:
    for _, text in zip(range(PER_KIND), inputs, strict=False):
        try:
            read(text)
        except allowed:
            pass
        except Exception as exc:  # the finding: any other type is a crash with a traceback
            pytest.fail(f"{type(exc).__name__} for {text[:80]!r}: {exc}"[:400])


def test_chord_symbols() -> None:
    _refuse_only_with(parse_chord, _chords(random.Random(1)), (ChordSyntaxError,))


def test_roman_numerals() -> None:
    allowed = (RomanSyntaxError, ChordSyntaxError, KeySyntaxError, NoteSyntaxError)
    _refuse_only_with(lambda t: parse_roman(t, "Eb minor"), _romans(random.Random(2)), allowed)


@pytest.mark.slow  # about 10 s alone, 25 s on a loaded machine
def test_prompts() -> None:
    _refuse_only_with(decompose, _prompts(random.Random(3)), ())


def test_prompt_lengths_are_held_to_the_bars_option_range() -> None:
    for prompt, bars in (("1 bar lofi beat", 8), ("drill, 99 minutes", 512)):
        duration = decompose(prompt).intent.duration
        assert duration is not None and duration.min == duration.max == bars


@pytest.mark.slow  # about 10 s alone, 25 s on a loaded machine
def test_edit_requests() -> None:
    rng = random.Random(4)
    _refuse_only_with(parse_request, _requests(rng), ())


def test_an_edit_request_with_a_5000_digit_number_is_not_read_as_a_count() -> None:
    for text in (f"transpose up {HUGE}", f"undo {HUGE}", f"chord {HUGE} darker"):
        request = parse_request(text)  # Python refuses int() of 4,300+ digits: never reach it
        numbers = [e.value for e in request.edits if isinstance(e.value, float)]
        assert all(abs(n) < 100 for n in numbers), text
        assert request.steps < 1000, text


def test_session_references(tmp_path: Path) -> None:
    rng = random.Random(5)
    refs = iter(["x" * 300, "a/" * 3000, "a\x00b", "~nobody-here/x", "", " ", "../..", "CON"])
    tails = (
        _pieces(rng, [*"ab./~-_ \x00", "session-20261123-", "x" * 200], 6) for _ in iter(int, 1)
    )
    allowed = (BadSessionReference, SessionNotFound)
    _refuse_only_with(lambda r: resolve_session(r, tmp_path), _chain(refs, tails), allowed)


def _chain(*parts: Iterator[str]) -> Iterator[str]:
    for part in parts:
        yield from part
