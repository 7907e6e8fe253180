"""Motifs found where they come back: exact or transposed (A), varied (A'), heard once (none)."""

from __future__ import annotations

from muse_tui.compose.melody.recurrence import Span, find_motifs

BPB = 4.0
HOOK = [(0.0, 64), (1.0, 67), (1.5, 69), (2.0, 67), (4.0, 64), (6.0, 62)]  # two bars
VERSE = [(0.0, 60), (0.5, 60), (2.5, 62), (4.5, 64), (5.0, 62)]


def at(unit: list[tuple[float, int]], beat: float, up: int = 0) -> list[tuple[float, int]]:
    return [(start + beat, pitch + up) for start, pitch in unit]


def test_a_hook_and_its_transposition_share_a_letter_and_a_line_heard_once_has_none() -> None:
    notes = [*at(HOOK, 0), *at(VERSE, 8), *at(HOOK, 16, up=2)]
    marks = find_motifs(notes, [Span(0, 24)], BPB)

    assert [(m.start, m.end, m.letter) for m in marks] == [(0, 8, "A"), (16, 24, "A")]
    assert (marks[1].low, marks[1].high) == (64, 71)


def test_a_restatement_with_one_note_changed_is_the_motif_varied() -> None:
    varied = [*HOOK[:-1], (6.0, 60)]
    notes = [*at(HOOK, 0), *at(HOOK, 8), *at(varied, 16), *at(VERSE, 24), *at(VERSE, 32)]
    marks = find_motifs(notes, [Span(0, 40)], BPB)

    assert [m.letter for m in marks] == ["A", "A", "A'", "B", "B"]
    assert {m.family for m in marks} == {"A", "B"}


def test_units_count_from_each_section_start_and_never_cross_its_end() -> None:
    notes = [*at(HOOK, 4), *at(HOOK, 20)]  # one bar into a section that starts at beat 4
    marks = find_motifs(notes, [Span(0, 4), Span(4, 16), Span(16, 20), Span(20, 28)], BPB)

    assert [(m.start, m.letter) for m in marks] == [(4, "A"), (20, "A")]
    whole = find_motifs(notes, [Span(0, 28)], BPB)  # counted from the song's start instead
    assert [m.start for m in whole] == [0, 16]  # each unit cuts the hook in half


def test_humanised_onsets_still_match_on_the_sixteenth_grid() -> None:
    late = [(start + 0.03, pitch) for start, pitch in HOOK]
    marks = find_motifs([*at(HOOK, 0), *at(late, 8)], [Span(0, 16)], BPB)

    assert [m.letter for m in marks] == ["A", "A"]
