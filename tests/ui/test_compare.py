"""The A/B comparison widget and the history pane, alone: their pictures.

The compare-and-select flow runs in the studio itself, on a real song:
tests/ui/test_editing.py (and through a real port, test_editing_ports.py).
"""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from muse_tui.contracts import (
    Alternative,
    AlternativeSet,
    Change,
    HistoryEntry,
    Note,
    TrackElement,
)
from muse_tui.tui.widgets.compare import CompareView
from muse_tui.tui.widgets.history import HistoryPane

SET_ID = "11111111-1111-4111-8111-111111111111"
TRACK_ID = "22222222-2222-4222-8222-222222222222"


def _bassline(shift: int, every: float) -> list[Note]:
    pitches = [36, 36, 43, 41, 39, 39, 46, 43]
    notes, beat = [], 0.0
    while beat < 32:
        pitch = pitches[int(beat / every) % len(pitches)] + shift
        notes.append(
            Note(
                pitch=pitch,
                velocity=80 + int(beat) % 3 * 10,
                start_beat=beat,
                duration_beats=every * 0.9,
            )
        )
        beat += every
    return notes


def _made_up_set() -> tuple[AlternativeSet, list[list[Note]]]:
    variants = [
        Alternative(label=label, description=why, score=score, content_hash=label)
        for label, why, score in (
            ("A", "What you have now", 0.94),
            ("C", "Walking instead of syncopated (203 → 228 notes)", 0.91),
            ("B", "Dials +0.15 (203 → 201 notes)", 0.88),
        )
    ]
    alt_set = AlternativeSet(
        id=SET_ID,
        element=TrackElement(track_id=TRACK_ID, role="bass"),
        variants=variants,
        selected_index=0,
        generated_at="2026-11-22T21:00:00+00:00",
    )
    return alt_set, [_bassline(0, 1.0), _bassline(0, 0.5), _bassline(-2, 2.0)]


def _history() -> list[HistoryEntry]:
    def entry(
        n: int, text: str, regenerated: list[str], cost: str, undone: bool = False
    ) -> HistoryEntry:
        return HistoryEntry(
            id=f"3333333{n}-3333-4333-8333-333333333333",
            timestamp=f"2026-11-22T21:0{n}:00+00:00",
            user_text=text,
            changes=[Change(path="tempo", previous_value=85, new_value=80)],
            regenerated=regenerated,
            cost=cost,  # type: ignore[arg-type]
            undone=undone,
        )

    return [
        entry(1, "3rd chord too bright, make darker", ["progression", "bass", "keys"], "moderate"),
        entry(2, "Use a warmer pad preset", ["preset:pad", "effects:pad"], "cheap"),
        entry(3, "Slow it down to 80 BPM", ["drums", "bass"], "expensive", undone=True),
    ]


class Still(App[None]):
    """A widget alone on screen, for its picture."""

    def __init__(self, widget: Any) -> None:
        super().__init__()
        self.widget = widget

    def compose(self) -> ComposeResult:
        yield self.widget


def test_the_comparison_shows_each_variant_with_its_roll(snap_compare: Any) -> None:
    alt_set, notes = _made_up_set()
    view = CompareView(alt_set, notes, role="bass", total_beats=32)

    async def audition_c(pilot: Any) -> None:
        await pilot.press("2")

    assert snap_compare(Still(view), run_before=audition_c, terminal_size=(120, 34))


def test_the_history_pane_lists_changes_newest_first(snap_compare: Any) -> None:
    assert snap_compare(Still(HistoryPane(_history())), terminal_size=(100, 12))
