"""The approval gate: a stage's output, and approve / regenerate / cancel."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual import _time, events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Footer, Static

from muse_tui.contracts import (
    ArrangementOutput,
    Decision,
    HarmonyOutput,
    PartsOutput,
    ValidationOutput,
)
from muse_tui.engine.protocols import ApprovalRequest
from muse_tui.theory import parse_chord, voicing_names
from muse_tui.theory.pitch import midi_to_name

from ..messages import PreviewRequested
from ..preview import progression_preview
from ..widgets.mini_roll import MiniRoll
from .confirm import TypeAheadGuard, ask_before_cancelling
from .dialog import Dialog


class ApprovalModal(TypeAheadGuard, Dialog[Decision]):
    """Shows what a stage made and waits for the producer's word (never a key typed before)."""

    DEFAULT_CSS = "ApprovalModal .dialog { border: thick $warning; }"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "decide('approve')", "Approve", id="gate.approve",
                tooltip="Keep this and go on to the next stage"),
        Binding("r", "decide('regenerate')", "Regenerate", id="gate.regenerate",
                tooltip="Make this stage again with a new variant"),
        Binding("escape", "cancel_run", "Cancel run", id="gate.cancel",
                tooltip="Stop the run here, once you say yes (the checkpoint is kept; "
                        "resume it from Sessions)"),
        Binding("a", "audition", "Audition", id="gate.audition",
                tooltip="Hear this stage's output through the MIDI port (again to stop)"),
        Binding("f1", "app.help", "Help", id="gate.help",
                tooltip="Every key, where it works (the gate waits meanwhile)"),
    ]  # fmt: skip

    def __init__(self, request: ApprovalRequest) -> None:
        super().__init__(classes="gate")
        self.request = request
        self.opened_at = _time.get_time()

    def on_mount(self) -> None:
        self._shown()

    def _on_key(self, event: events.Key) -> None:
        self._typed_ahead(event)

    def compose(self) -> ComposeResult:
        r = self.request
        variant = f" · variant {r.variant + 1}" if r.variant else ""
        with Vertical(classes="dialog"):
            yield Static(f"Stage {r.stage}/8 · {r.name} is ready{variant}", classes="title")
            yield Static(r.summary, classes="summary")
            with VerticalScroll(classes="body"):
                yield from self._body()
        yield Footer(compact=True)

    def _body(self) -> ComposeResult:
        output = self.request.output
        if isinstance(output, HarmonyOutput):
            yield Static(_chord_table(output), classes="chords")
        elif isinstance(output, PartsOutput):
            song = self.request.song
            total = song.bar_beat(song.arrangement.total_bars) if song.arrangement else 0
            for track in song.tracks:
                yield MiniRoll(track, total)
        elif isinstance(output, ArrangementOutput):
            yield Static(_section_table(output))
        elif isinstance(output, ValidationOutput):
            q = output.quality_report
            lines = [
                f"harmony {q.harmony:.2f}   rhythm {q.rhythm:.2f}   "
                f"arrangement {q.arrangement:.2f}   vibe {q.vibe:.2f}",
                f"composite {q.composite:.2f} — {'passed' if q.passed else 'below the bar'}",
                *q.notes,
            ]
            yield Static("\n".join(lines))
        else:
            yield Static("Approve to go on, or regenerate for another take.")

    def action_decide(self, decision: Decision) -> None:
        self.dismiss(decision)

    def action_cancel_run(self) -> None:
        r = self.request
        ask_before_cancelling(
            self,
            lambda: self.dismiss("cancel"),
            stopped=f"after stage {r.stage}/8",
            back_to=f"the {r.name.lower()} gate",
        )

    def action_audition(self) -> None:
        output, song = self.request.output, self.request.song
        if isinstance(output, HarmonyOutput):
            song = progression_preview(song, output.progression)
        if not song.tracks:
            self.notify("There is nothing to hear at this stage yet.", severity="warning")
            return
        self.post_message(PreviewRequested(song))


def _chord_table(output: HarmonyOutput) -> Table:
    progression = output.progression
    table = Table(box=None, padding=(0, 2), show_edge=False, expand=False)
    for column in ("", "roman", "chord", "beats", "function", "voicing"):
        table.add_column(column, no_wrap=True, header_style="bold")
    key = f"{progression.key} {progression.mode}"
    for i, chord in enumerate(progression.chords, 1):
        voicing = " ".join(_spelled(chord.symbol, chord.voicing, key))
        table.add_row(
            str(i), chord.roman, chord.symbol, f"{chord.beats:g}", chord.function, voicing
        )
    table.title = f"{progression.key} {progression.mode}"
    return table


def _spelled(symbol: str, voicing: list[int], key: str) -> list[str]:
    """The voicing as the chord spells it (E: G#3, not Ab3); plain names if it cannot be read."""
    try:
        return voicing_names(parse_chord(symbol), voicing, key)
    except ValueError:  # a symbol or key the theory does not read: name the pitches plainly
        return [midi_to_name(p) for p in voicing]


def _section_table(output: ArrangementOutput) -> Table:
    table = Table(box=None, padding=(0, 2), show_edge=False)
    for column in ("section", "bars", "energy", "who plays"):
        table.add_column(column, no_wrap=True, header_style="bold")
    for s in output.arrangement.sections:
        table.add_row(
            s.name, f"{s.start_bar + 1}–{s.end_bar}", f"{s.energy:.1f}", ", ".join(s.active_roles)
        )
    return table
