"""A lead's repeats and its motif's shape, on the MIDI file.

A blind producer panel heard the leads as short cells of few pitches ("E-E-E-D-E"),
verse openings pasted from verse to verse and lead cells copied verse to verse
(issue 35). Here: every phrase of a repeated verse sings new pitches on the motif's
rhythm; a repeated hook keeps its pitches (ornamented); a motif that steps up or
down on the beat still moves that way once its strong notes are put on the chord;
and a verse's lead spans a 7th at least.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import muse_tui.compose.parts.lead as lead_module
from muse_tui.compose.melody.motif import Motif
from muse_tui.contracts.song import Section
from tests.unit.orchestra.heard import Heard, Part, Played, compose

PROMPTS = (
    "pop song",
    "country with fiddle, drums bass chords lead",
    "neo soul with sax, drums bass keys lead",
    "tense heavy metal, 114 BPM, F# minor",
    "eerie trap with bells, drums 808 lead",
)
PHRASE = 4
#: Two openings this alike by (16th, pitch) are one pasted twice (the audit's copy is 0.95).
PASTED = 0.9
#: Two openings this alike by onset keep the motif's rhythm.
SAME_RHYTHM = 0.6


def _lead(heard: Heard) -> Part:
    return next(p for p in heard.parts if p.role == "lead")


def _sections(heard: Heard, kind: str) -> list[Section]:
    assert heard.song.arrangement is not None
    return [s for s in heard.song.arrangement.sections if s.kind == kind]


def _notes(heard: Heard, section: Section, bars: int | None = None) -> list[Played]:
    """The lead's notes in the section's first `bars` bars (all of it: None), onsets relative
    to the section's start."""
    bar = heard.song.beats_per_bar
    lo = section.start_bar * bar
    hi = lo + (bars if bars is not None else section.bars) * bar
    return [
        Played(n.start - lo, n.length, n.pitch) for n in _lead(heard).notes if lo <= n.start < hi
    ]


def _jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


@pytest.mark.slow
@pytest.mark.parametrize("prompt", PROMPTS)
def test_every_phrase_of_a_repeated_verse_sings_new_pitches_on_the_motif_rhythm(
    prompt: str,
) -> None:
    heard = compose(prompt, 3)
    verses = _sections(heard, "verse")
    assert len(verses) >= 2, prompt
    first = verses[0]
    for verse in verses[1:]:
        for phrase in range(0, min(first.bars, verse.bars), PHRASE):
            bar = heard.song.beats_per_bar
            a = [n for n in _notes(heard, first) if phrase * bar <= n.start < (phrase + 4) * bar]
            b = [n for n in _notes(heard, verse) if phrase * bar <= n.start < (phrase + 4) * bar]
            if not a or not b:
                continue
            pitched = _jaccard({(n.step, n.pitch) for n in a}, {(n.step, n.pitch) for n in b})
            rhythm = _jaccard({n.step for n in a}, {n.step for n in b})
            where = f"{prompt}: {verse.name} bars {phrase + 1}-{phrase + 4}"
            assert pitched < PASTED, f"{where} is {first.name}'s pasted ({pitched:.2f})"
            assert rhythm >= SAME_RHYTHM, f"{where} lost the motif's rhythm ({rhythm:.2f})"
            assert [n.pitch for n in a] != [n.pitch for n in b], where


@pytest.mark.slow
@pytest.mark.parametrize("prompt", PROMPTS)
def test_a_repeated_hook_keeps_its_pitches_and_is_not_pasted(prompt: str) -> None:
    heard = compose(prompt, 3)
    hooks = _sections(heard, "chorus") or _sections(heard, "hook")
    assert len(hooks) >= 2, prompt
    first = {(n.step, n.pitch) for n in _notes(heard, hooks[0], PHRASE)}
    for hook in hooks[1:]:
        again = {(n.step, n.pitch) for n in _notes(heard, hook, PHRASE)}
        kept = len(first & again) / len(first)
        assert kept >= 0.8, f"{prompt}: {hook.name} keeps {kept:.0%} of the hook's notes"
        whole = [{(n.step, n.pitch) for n in _notes(heard, s)} for s in (hooks[0], hook)]
        assert _jaccard(*whole) < 0.95, f"{prompt}: {hook.name} is {hooks[0].name} pasted"


@pytest.mark.slow
@pytest.mark.parametrize("prompt", PROMPTS)
def test_a_verse_lead_spans_a_seventh_at_least(prompt: str) -> None:
    heard = compose(prompt, 3)
    for verse in _sections(heard, "verse"):
        pitches = [n.pitch for n in _notes(heard, verse)]
        if len(pitches) >= 4:
            span = max(pitches) - min(pitches)
            assert span >= 7, f"{prompt}: {verse.name}'s lead spans {span} semitones"


@contextmanager
def _motifs() -> Iterator[dict[str, Motif]]:
    """The motif each section kind's lead is built from, as `write_lead` draws it."""
    drawn: dict[str, Motif] = {}
    original = lead_module._idea

    def spy(ctx, rng):  # type: ignore[no-untyped-def]
        idea = original(ctx, rng)
        drawn.setdefault(ctx.section.kind, idea.motif)
        return idea

    lead_module._idea = spy
    try:
        yield drawn
    finally:
        lead_module._idea = original


@pytest.mark.slow
@pytest.mark.parametrize("prompt", PROMPTS)
def test_a_motif_that_steps_up_or_down_keeps_moving_that_way_on_the_chords(prompt: str) -> None:
    """The motif's first bar as the first verse and first chorus play it: each note the motif
    moves up or down to moves that way in the file (a strong note goes to the next chord
    tone the way the line moves, never back onto the note before)."""
    with _motifs() as drawn:
        heard = compose(prompt, 5)  # a seed no other test composes: the spy sees it written
    checked = 0
    for kind, motif in drawn.items():
        sections = _sections(heard, kind)
        if kind not in ("verse", "chorus", "hook") or not sections:
            continue
        played = {n.step: n.pitch for n in _notes(heard, sections[0], 1)}
        bar = motif.bar(0)
        for a, b in itertools.pairwise(bar):
            pa, pb = played.get(round(a.start * 4)), played.get(round(b.start * 4))
            if pa is None or pb is None or a.steps == b.steps:
                continue
            checked += 1
            moved = (pb > pa) - (pb < pa)
            meant = (b.steps > a.steps) - (b.steps < a.steps)
            assert moved == meant, f"{prompt} {kind}: steps {a.steps}->{b.steps} played {pa}->{pb}"
    assert checked >= 2, f"{prompt}: too few motif steps heard to judge"
