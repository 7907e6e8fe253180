"""The critics rank a good song above each spoiled copy of it, on the axis a listener would.

Measured on the branch `critics` (six good songs × seven degradations, 32 pairs that
apply and change what is heard): good > spoiled on the composite in 32/32 pairs, the
named axis drops in 32/32 (one chord 6/6, copied repeats 3/3, requested track deleted
5/5 and muted 5/5, pad doubles chords 3/3, lead in constant 8ths 4/4, foreign drums
6/6). The critic of main (df6e017) on the same pairs: 20/32 and 10/32.
`bench/critics.py --pairs` prints every pair.
"""

from __future__ import annotations

import pytest

from muse_tui.compose.critics import score_song
from muse_tui.contracts.song import ProgressionChord, QualityScore, SongState

from .labelled import AXIS, GOOD, Composed, compose_all, one_chord, spoils

MIN_RANKED = 0.9


@pytest.fixture(scope="module")
def composed() -> dict[tuple[str, int], Composed]:
    return compose_all([(g.prompt, g.seed) for g in GOOD] + [(g.foreign, 1) for g in GOOD])


Pair = tuple[str, str, QualityScore, QualityScore]


@pytest.fixture(scope="module")
def pairs(composed: dict[tuple[str, int], Composed]) -> list[Pair]:
    """(prompt, degradation, good score, spoiled score) for every degradation that applies."""
    found = []
    for labelled in GOOD:
        good = composed[(labelled.prompt, labelled.seed)]
        donor = composed[(labelled.foreign, 1)].song
        before = score_song(good.song, good.intent)
        for name, (degrade, _) in AXIS.items():
            spoiled = degrade(good.song, good.intent, donor)
            if spoiled is not None and spoils(good.song, spoiled):
                SongState.model_validate(spoiled.model_dump())  # still a song the studio opens
                found.append((labelled.prompt, name, before, score_song(spoiled, good.intent)))
    return found


def test_good_songs_outrank_their_spoiled_copies(pairs: list[Pair]) -> None:
    found = pairs
    ranked = [(p, n) for p, n, good, bad in found if good.composite > bad.composite]

    assert len(found) >= 25, "the labelled set lost most of its pairs"
    assert len(ranked) >= MIN_RANKED * len(found), sorted(
        {(p, n) for p, n, *_ in found} - set(ranked)
    )


@pytest.mark.parametrize("name", list(AXIS))
def test_each_degradation_lowers_its_axis_and_says_why(pairs: list[Pair], name: str) -> None:
    axis = AXIS[name][1]
    found = [(p, good, bad) for p, n, good, bad in pairs if n == name]

    assert found, f"no good song of the set can be spoiled by {name!r}"
    for prompt, good, bad in found:
        assert getattr(bad, axis) < getattr(good, axis), (prompt, axis, bad.notes)
        assert len(bad.notes) >= len(good.notes) or bad.notes != good.notes, prompt


def test_sixty_five_bars_of_a_minor_score_low_on_harmony(
    composed: dict[tuple[str, int], Composed],
) -> None:
    """The 5,000-character prompt's song: Am, Am, Am… 65 times, played as written."""
    good = composed[(GOOD[1].prompt, GOOD[1].seed)]
    assert good.song.progression is not None
    am = ProgressionChord(symbol="Am", roman="i", voicing=[57, 60, 64], beats=4.0)
    written = good.song.model_copy(
        update={"progression": good.song.progression.model_copy(update={"chords": [am] * 65})}
    )
    long = one_chord(written, good.intent, good.song)  # and every part plays it
    assert long is not None

    score = score_song(long, good.intent)

    assert score.harmony < 0.5
    assert not score.passed
    assert any("one chord" in note for note in score.notes), score.notes
