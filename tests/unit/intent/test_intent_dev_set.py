"""S1 against a dev set of realistic prompts: at least 90% right on every field.

Run with `-s` to see the accuracy per field and every miss.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from muse_tui.compose.intent import decompose
from muse_tui.contracts.intent import IntentDecompositionResult

DEV_SET = Path(__file__).parents[2] / "data" / "intent-dev-set.json"
FIELDS = ("genre", "tempo", "key", "mode", "moods")
REQUIRED_ACCURACY = 0.9


@dataclass
class Score:
    right: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FIELDS, 0))
    judged: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FIELDS, 0))
    misses: dict[str, list[str]] = field(default_factory=lambda: {f: [] for f in FIELDS})

    def accuracy(self, name: str) -> float:
        return self.right[name] / self.judged[name]


def dev_cases() -> list[dict[str, Any]]:
    return json.loads(DEV_SET.read_text(encoding="utf-8"))["cases"]


def strongest_genre(result: IntentDecompositionResult) -> str:
    """The genre that leads the blend ("jazz house" is house coloured by jazz)."""
    dna = result.intent.genre_dna
    if dna is None or not dna.blend:
        return result.intent.genre[0]
    return max(result.intent.genre, key=lambda g: dna.blend.get(g, 0.0))


def stated_moods(result: IntentDecompositionResult) -> list[str]:
    """The moods S1 heard in the prompt (not the ones it guessed from the genre)."""
    return [] if "mood" in result.inferred_fields else result.intent.mood


def matches(name: str, expected: Any, result: IntentDecompositionResult) -> bool:
    intent = result.intent
    if name == "genre":
        return strongest_genre(result) in (expected if isinstance(expected, list) else [expected])
    if name == "tempo":
        assert intent.tempo is not None
        if isinstance(expected, list):
            return expected[0] <= intent.tempo <= expected[1]
        return abs(intent.tempo - expected) < 0.51
    if name == "moods":
        return set(stated_moods(result)) == set(expected)
    actual = intent.key if name == "key" else intent.mode
    return actual in expected if isinstance(expected, list) else actual == expected


@pytest.fixture(scope="module")
def score() -> Score:
    tally = Score()
    for case in dev_cases():
        result = decompose(case["prompt"])
        for name in FIELDS:
            if case[name] is None:
                continue  # the prompt leaves it open: any answer will do
            tally.judged[name] += 1
            if matches(name, case[name], result):
                tally.right[name] += 1
            else:
                tally.misses[name].append(f"{case['prompt']!r} expected {case[name]!r}")
    return tally


def test_the_dev_set_is_big_and_varied() -> None:
    cases = dev_cases()
    assert len(cases) >= 60
    assert len({json.dumps(c["genre"]) for c in cases}) >= 25
    assert sum(c["key"] is not None for c in cases) >= 30
    assert sum(isinstance(c["tempo"], list) for c in cases) >= 10
    assert sum(bool(c["moods"]) for c in cases) >= 40


@pytest.mark.parametrize("name", FIELDS)
def test_each_field_is_at_least_90_percent_right(
    name: str, score: Score, capsys: pytest.CaptureFixture[str]
) -> None:
    with capsys.disabled():  # the accuracy is the point of this test: always show it
        print(
            f"\nintent dev set, {name}: {score.right[name]}/{score.judged[name]} "
            f"= {score.accuracy(name):.1%}"
        )
        for miss in score.misses[name]:
            print(f"  missed {miss}")
    assert score.accuracy(name) >= REQUIRED_ACCURACY, score.misses[name]
