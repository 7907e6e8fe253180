"""The A/B comparison widget and the history pane: pictures, and a compare-and-select flow.

The flow runs in a small host app wired the way the studio wires them: number
keys switch the player to a variant on the next bar line, enter puts the
highlighted variant in the song through the engine, n asks for a new batch, and
the history pane shows the pick and can undo it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pytest
from textual import on, work
from textual.app import App, ComposeResult

from muse_tui.contracts import (
    Alternative,
    AlternativeSet,
    Change,
    ComposerPipeline,
    HistoryEntry,
    Note,
    PipelineConfig,
    TrackElement,
)
from muse_tui.engine.alternatives import (
    element_for,
    generate_alternatives,
    select_alternative,
    variant_notes,
    variant_tracks,
)
from muse_tui.engine.editing import undo
from muse_tui.engine.orchestrator import Orchestrator
from muse_tui.engine.registry import product_stages
from muse_tui.tui.widgets.compare import CompareView
from muse_tui.tui.widgets.history import HistoryPane
from tests.iteration.conftest import BARS, PROMPT, SEED, fixed_clock

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


# ── the flow, on a real song ────────────────────────────────────────────────
@dataclass
class FakeSwitcher:
    """Stands in for the audition player: records each switch it was asked for."""

    switches: list[tuple[str, int | None]] = field(default_factory=list)

    def set_alternative(self, role: str, track: Any) -> None:
        self.switches.append((role, None if track is None else len(track.notes)))


class CompareHost(App[None]):
    """Hosts the widgets as the studio would, answering their messages through the engine."""

    def __init__(self, pipeline: ComposerPipeline, alt_set: AlternativeSet) -> None:
        super().__init__()
        self.pipeline, self.alt_set = pipeline, alt_set
        self.player = FakeSwitcher()

    def compose(self) -> ComposeResult:
        notes = [
            variant_notes(self.pipeline, self.alt_set, i) for i in range(len(self.alt_set.variants))
        ]
        bars = self.pipeline.song_state.arrangement.total_bars
        yield CompareView(self.alt_set, notes, role="bass", total_beats=bars * 4)
        yield HistoryPane(self.pipeline.song_state.history)

    @on(CompareView.Audition)
    def audition(self, message: CompareView.Audition) -> None:
        if message.index is None:
            self.player.set_alternative("bass", None)
            return
        for track in variant_tracks(self.pipeline, self.alt_set, message.index):
            self.player.set_alternative(track.role, track)

    @on(CompareView.Chosen)
    @work(exclusive=True, group="compare")
    async def chosen(self, message: CompareView.Chosen) -> None:
        result = select_alternative(self.pipeline, message.set_id, message.index)
        self.pipeline = result.pipeline
        self.query_one(HistoryPane).show(self.pipeline.song_state.history)

    @on(CompareView.NewBatch)
    @work(exclusive=True, group="compare")
    async def new_batch(self, message: CompareView.NewBatch) -> None:
        made = generate_alternatives(
            self.pipeline, self.alt_set.element, batch=self.alt_set.batch + 1
        )
        self.pipeline, self.alt_set = made.pipeline, made.alternative_set
        notes = [
            variant_notes(self.pipeline, self.alt_set, i) for i in range(len(self.alt_set.variants))
        ]
        self.query_one(CompareView).show(self.alt_set, notes)

    @on(HistoryPane.UndoRequested)
    def undo_requested(self, message: HistoryPane.UndoRequested) -> None:
        self.pipeline = undo(self.pipeline, message.steps).pipeline
        self.query_one(HistoryPane).show(self.pipeline.song_state.history)


@pytest.fixture(scope="module")
def song(tmp_path_factory: pytest.TempPathFactory) -> ComposerPipeline:
    engine = Orchestrator(product_stages(), tmp_path_factory.mktemp("compare"), clock=fixed_clock)
    config = PipelineConfig(approval_gates=[])
    return asyncio.run(engine.run(PROMPT, seed=SEED, config=config, answers={"bars": BARS}))


async def test_compare_audition_select_and_undo(song: ComposerPipeline) -> None:
    made = generate_alternatives(song, element_for(song, "track:bass"), 3)
    app = CompareHost(made.pipeline, made.alternative_set)
    messages: list[Any] = []
    async with app.run_test(size=(120, 40), message_hook=messages.append) as pilot:
        app.query_one(CompareView).focus()
        await pilot.press("3")  # hear the third variant in place of the bass
        await pilot.press("0")  # and back to the song's own
        assert app.player.switches[0][0] == "bass" and app.player.switches[-1] == ("bass", None)

        await pilot.press("enter")  # use the highlighted (third) variant
        await app.workers.wait_for_complete()
        await pilot.pause()
        chosen = made.alternative_set.variants[2]
        assert (
            app.pipeline.song_state.history[-1].user_text
            == f"Use option {chosen.label} for the bass"
        )
        assert app.pipeline.alternatives[-1].selected_index == 2
        assert len(app.query_one(HistoryPane).entries) == 1

        await pilot.press("n")  # a new batch, dials raised
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.alt_set.batch == 1 and app.query_one(CompareView).alt_set.batch == 1

        app.query_one(HistoryPane).focus()
        await pilot.press("u")
        await pilot.pause()
        assert app.pipeline.song_state.history[-1].undone
        assert app.pipeline.song_state.tracks == song.song_state.tracks

    asked = {id(m): type(m).__name__ for m in messages}  # a message is seen once per hop
    kinds = list(asked.values())
    assert kinds.count("Audition") == 2 and "Chosen" in kinds and "NewBatch" in kinds
    assert "UndoRequested" in kinds
