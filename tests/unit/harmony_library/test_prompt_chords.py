"""Chords a prompt names: only the ones written side by side, never a key, never prose."""

from __future__ import annotations

import random

import pytest

from muse_tui.compose.harmony import generate_progression
from muse_tui.compose.intent import decompose
from muse_tui.compose.intent.text import MOST_PROMPT_CHARS
from muse_tui.compose.requests import parse_request
from muse_tui.knowledge.progressions import MOST_CHORDS

PROSE = (
    "I want a dark trap beat in the key of Am, 140. A friend said it should feel like a "
    "late night drive, and the melody in bar 4 goes A to G and then E. Make it moody, "
    "Am, F, C and G are fine but surprise me. Dm Am Dm Am is what my last one was. "
)


@pytest.mark.parametrize(
    ("prompt", "chords", "key"),
    [
        ("Am F C G, key of Am", ["Am", "F", "C", "G"], ("A", "minor")),
        ("Cm Ab Eb Bb in C minor", ["Cm", "Ab", "Eb", "Bb"], ("C", "minor")),
        ("Am - F - C - G, key of Am", ["Am", "F", "C", "G"], ("A", "minor")),
        ("I vi IV V in the key of G", ["I", "vi", "IV", "V"], ("G", "major")),
    ],
)
def test_a_key_after_the_chords_is_a_key_not_another_chord(
    prompt: str, chords: list[str], key: tuple[str, str]
) -> None:
    intent = decompose(prompt).intent
    assert intent.explicit_progression == chords
    assert (intent.key, intent.mode) == key


def test_one_chord_repeated_is_not_a_progression() -> None:
    assert decompose("house, Am Am Am Am, 124").intent.explicit_progression == []


def test_a_5000_character_prompt_composes_a_normal_progression() -> None:
    prompt = (PROSE * 30)[:5000]
    intent = decompose(prompt).intent
    assert intent.genre[0] == "trap"
    assert (intent.key, intent.mode) == ("A", "minor")
    assert len(intent.explicit_progression) <= MOST_CHORDS
    progression = generate_progression(intent, random.Random(1))
    symbols = [c.symbol for c in progression.chords]
    assert 2 <= len(symbols) <= MOST_CHORDS
    assert len(set(symbols)) >= 2, symbols
    assert sum(c.beats for c in progression.chords) in (4, 8, 16, 32, 64)


def test_a_run_of_chords_keeps_at_most_the_most_a_progression_holds() -> None:
    chart = " ".join(["Am", "F", "C", "G"] * 10)
    assert len(decompose(f"pop, {chart}").intent.explicit_progression) == MOST_CHORDS


def test_only_the_start_of_a_very_long_prompt_is_read() -> None:
    head = (PROSE * 20)[: MOST_PROMPT_CHARS - 200]
    tail = " make it jazz in Eb major at 90 BPM" * 200
    assert decompose(head + tail).intent.genre[0] == "trap"
    request = parse_request("bass too busy, simplify it. " + "la " * 5000 + " transpose up 3")
    assert all(e.operation != "transpose" for e in request.edits)
    assert request.edits, "the start of the request is still read"
