"""A repeat's drums dig in: the groove's own hats finer, ghost snares, a kick pushing on."""

from __future__ import annotations

from muse_tui.compose.arrangement.repeats import Repeat, develop_groove
from muse_tui.compose.humanize import Draft
from muse_tui.theory.drums import VOICE_PITCHES

BPB = 4.0


def backbeat(bars: int) -> list[Draft]:
    """Kick on 1 and 3, snare on 2 and 4, closed hats on 8ths."""
    notes = []
    for bar in range(bars):
        origin = bar * BPB
        notes += [Draft(VOICE_PITCHES["kick"], 100, origin + b, 0.2, "kick") for b in (0, 2)]
        notes += [Draft(VOICE_PITCHES["snare"], 100, origin + b, 0.2, "snare") for b in (1, 3)]
        notes += [
            Draft(VOICE_PITCHES["closed_hat"], 80, origin + e / 2, 0.1, "closed_hat")
            for e in range(8)
        ]
    return notes


def onsets(notes: list[Draft], voice: str, bar: int) -> list[float]:
    return sorted(
        n.start - bar * BPB
        for n in notes
        if n.voice == voice and bar * BPB <= n.start < (bar + 1) * BPB
    )


def test_a_first_statement_comes_back_as_it_is() -> None:
    notes = backbeat(8)
    assert develop_groove(list(notes), Repeat(1, 2), 8, BPB) == notes


def test_a_repeat_develops_only_its_last_phrase_and_leaves_the_fill_bar() -> None:
    plain = backbeat(8)
    developed = develop_groove(backbeat(8), Repeat(2, 2), 8, BPB)

    for bar in (0, 1, 2, 3, 7):
        for voice in ("kick", "snare", "closed_hat"):
            assert onsets(developed, voice, bar) == onsets(plain, voice, bar), (bar, voice)
    for bar in (4, 5, 6):
        assert 3.75 in onsets(developed, "closed_hat", bar)  # a 16th hat skips into the next bar
        assert onsets(developed, "snare", bar) == [0.75, 1.0, 2.75, 3.0]  # ghosts before 2 and 4


def test_ghost_snares_are_soft_and_the_push_kick_lands_on_the_last_eighth() -> None:
    developed = develop_groove(backbeat(8), Repeat(3, 3), 8, BPB)
    ghosts = [n for n in developed if n.voice == "snare" and n.start % 1 == 0.75]

    assert ghosts and all(n.velocity <= 40 for n in ghosts)
    assert onsets(developed, "kick", 5) == [0.0, 2.0, 3.5]
    assert onsets(developed, "kick", 4) == [0.0, 2.0]


def test_quarter_note_time_splits_into_eighths() -> None:
    notes = [Draft(VOICE_PITCHES["ride"], 90, b, 0.3, "ride") for b in range(16)]
    developed = develop_groove(notes, Repeat(2, 2), 4, BPB)

    assert onsets(developed, "ride", 1) == [b / 2 for b in range(8)]
    assert onsets(developed, "ride", 3) == [0.0, 1.0, 2.0, 3.0]
