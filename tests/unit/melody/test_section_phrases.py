"""A section's lead is shaped across its phrases, on the MIDI file: a 16-bar section is
a a' b a (the third phrase departs higher, the fourth brings the first back), an
8-bar one a period whose answer moves on; a riff keeps its register.

A random draw found "tense solo piano" (then read as cinematic) playing one 2-bar cell
seven times through a 16-bar theme (8 of 18 distinct 2-bar units).
"""

from __future__ import annotations

from statistics import mean

import pytest

from muse_tui.knowledge.melody import melody_table
from tests.unit.orchestra.heard import Heard, Part, compose

PHRASE = 4


def _phrases(heard: Heard, lead: Part, kind: str) -> list[list[list[tuple[float, int]]]]:
    """Each section of `kind`: its phrases, each a list of bars of (16th in the bar, pitch)."""
    song = heard.song
    bar = song.beats_per_bar
    sections = [s for s in song.arrangement.sections if s.kind == kind]  # type: ignore[union-attr]
    found = []
    for section in sections:
        start = section.start_bar * bar
        bars: list[list[tuple[float, int]]] = [[] for _ in range(section.bars)]
        for note in lead.notes:
            at = note.start - start
            if 0 <= at < section.bars * bar:
                bars[int(at // bar)].append((round(at % bar * 4) / 4, note.pitch))
        found.append([bars[i : i + PHRASE] for i in range(0, section.bars, PHRASE)])
    return found


def _lead(heard: Heard) -> Part:
    return next(p for p in heard.parts if p.role == "lead")


@pytest.mark.slow
@pytest.mark.parametrize(
    "prompt", ["tense cinematic, 80 BPM, D minor, piano", "jazz rap, 88 BPM, D minor, flute"]
)
def test_a_sixteen_bar_verse_departs_in_its_third_phrase_and_returns(prompt: str) -> None:
    heard = compose(prompt)
    verses = [v for v in _phrases(heard, _lead(heard), "verse") if len(v) == 4]
    assert verses, [(s.kind, s.bars) for s in heard.song.arrangement.sections]  # type: ignore[union-attr]
    first, answer, departure, back = verses[0]
    pitches = [[p for bar in phrase for _, p in bar] for phrase in verses[0]]
    assert all(pitches), "every phrase of the verse is played"
    assert mean(pitches[2]) > mean(pitches[0]) + 1  # the third phrase sits higher
    assert back[:2] == first[:2]  # the statement comes back
    assert answer != first  # the answer moves on
    assert departure[:3] != first[:3]


def test_the_plans_follow_the_period_and_the_double_period() -> None:
    plans = melody_table().sections
    four = plans.plan(4)
    assert [r.lift for r in four] == [0, 0, 2, 0]
    form = ["motif", "repeat", "repeat", "cadence"]
    assert four[2].moves(form, ostinato=True)[:2] == ["motif", "repeat"]  # a riff keeps its bars
    assert four[2].lift_for(ostinato=True) == 0  # and its register
    assert four[1].moves(["motif", "motif", "echo", "cadence"], ostinato=False)[2] == "sequence"
    assert len(plans.plan(7)) == 7 and plans.plan(5)[4] is plans.roles[plans.again]
