"""The A/B comparison (alternatives, or the song beside a proposal), auditioned by key.

The widget only shows and asks. `Audition` (a number key, 0 for the song's own
part), `Chosen` (enter), `NewBatch` (n) and `Closed` (escape) are messages the
studio answers: it switches the player on the next bar line, applies the pick
through the engine, generates a new batch and calls `show` again, or closes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from .mini_roll import MiniRoll

if TYPE_CHECKING:
    from muse_tui.contracts import AlternativeSet, Note, Track

_ELEMENT_NAMES = {
    "progression": "the progression",
    "track": "the {role}",
    "preset": "the {role}'s sound",
    "effect_chain": "the {role}'s effects",
    "arrangement": "the arrangement",
}
_PLACEHOLDER_ID = "00000000-0000-4000-8000-000000000000"


def element_title(alt_set: AlternativeSet, role: str = "") -> str:
    """'Alternatives for the bass (batch 2)'."""
    name = _ELEMENT_NAMES[alt_set.element.type].format(role=role.replace("_", " ") or "track")
    batch = f" (batch {alt_set.batch + 1})" if alt_set.batch else ""
    return f"Alternatives for {name}{batch}"


class VariantCard(Vertical):
    """One side of a comparison (a variant, the song, a proposal): head, mini roll, what it is."""

    DEFAULT_CSS = """
    VariantCard { width: 1fr; height: auto; border: round $panel; padding: 0 1; }
    VariantCard.-highlighted { border: round $accent; }
    VariantCard.-auditioning { border: heavy $success; }
    VariantCard .variant-head { text-style: bold; }
    VariantCard .variant-description { color: $text-muted; height: auto; }
    """

    def __init__(self, head: str, description: str, roll: Track | None, total_beats: float) -> None:
        super().__init__()
        self._head, self._description = head, description
        self._roll, self._total = roll, total_beats

    def compose(self) -> ComposeResult:
        yield Static(self._head, classes="variant-head")
        if self._roll is not None:
            yield MiniRoll(self._roll, self._total)
        yield Static(self._description, classes="variant-description")


class CompareView(Widget, can_focus=True):
    """Variants side by side; 1–5 audition, 0 back to the song's part, enter picks, n asks again."""

    DEFAULT_CSS = """
    CompareView { height: auto; border: round $primary; padding: 0 1; }
    CompareView:focus { border: round $accent; }
    CompareView #compare-title { text-style: bold; }
    CompareView #compare-help { color: $text-muted; }
    CompareView Horizontal { height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(str(n), f"audition({n - 1})", f"Audition {n}", id=f"compare.audition_{n}",
                    tooltip=f"Hear variant {n} in place of the current part, from the next bar",
                    show=False)
            for n in range(1, 6)
        ),
        Binding("0", "audition(-1)", "Own part", id="compare.audition_own",
                tooltip="Back to the part the song has now, from the next bar"),
        Binding("left", "move(-1)", "Previous", id="compare.previous", show=False,
                tooltip="Highlight the variant to the left"),
        Binding("right", "move(1)", "Next", id="compare.next", show=False,
                tooltip="Highlight the variant to the right"),
        Binding("enter", "choose", "Use it", id="compare.choose",
                tooltip="Put the highlighted variant in the song"),
        Binding("n", "new_batch", "New batch", id="compare.new_batch",
                tooltip="Generate a new batch with the creativity dials raised"),
        Binding("escape", "close", "Close", id="compare.close",
                tooltip="Close the comparison; the song keeps its own part"),
    ]  # fmt: skip

    highlighted: reactive[int] = reactive(0)
    auditioning: reactive[int | None] = reactive(None)

    class Audition(Message):
        """Hear variant `index` (None: the song's own part) from the next bar line."""

        def __init__(self, set_id: str, index: int | None) -> None:
            super().__init__()
            self.set_id = set_id
            self.index = index

    class Chosen(Message):
        """The producer picked variant `index` for the song."""

        def __init__(self, set_id: str, index: int) -> None:
            super().__init__()
            self.set_id = set_id
            self.index = index

    class NewBatch(Message):
        """The producer wants a new batch for this element."""

        def __init__(self, set_id: str) -> None:
            super().__init__()
            self.set_id = set_id

    class Closed(Message):
        """The producer closed the comparison without picking."""

    def __init__(
        self,
        alt_set: AlternativeSet,
        notes: Sequence[Sequence[Note]] = (),
        *,
        role: str = "",
        total_beats: float = 0.0,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.alt_set = alt_set
        self.notes = [list(n) for n in notes]
        self.role = role
        self.total_beats = total_beats

    def compose(self) -> ComposeResult:
        yield Static(element_title(self.alt_set, self.role), id="compare-title")
        with Horizontal(id="compare-cards"):
            yield from self._cards()
        yield Static(
            "1–5 audition · 0 the song's own · ←/→ highlight · enter use it · n new batch · "
            "esc close",
            id="compare-help",
        )

    def show(self, alt_set: AlternativeSet, notes: Sequence[Sequence[Note]] = ()) -> None:
        """Show another set (a new batch), starting from its variant in use."""
        self.alt_set, self.notes = alt_set, [list(n) for n in notes]
        self.auditioning = None
        self.query_one("#compare-title", Static).update(element_title(alt_set, self.role))
        cards = self.query_one("#compare-cards", Horizontal)
        cards.remove_children()
        cards.mount(*self._cards())
        self.highlighted = alt_set.selected_index
        self.call_after_refresh(self._mark)

    def on_mount(self) -> None:
        self.highlighted = self.alt_set.selected_index
        self._mark()

    def _cards(self) -> list[VariantCard]:
        cards = []
        for i, variant in enumerate(self.alt_set.variants):
            notes = self.notes[i] if i < len(self.notes) else []
            head = f"{i + 1}  Option {variant.label}  {variant.score:.2f}"
            if i == self.alt_set.selected_index:
                head += "  · in use"
            roll = _roll_track(variant.label, self.role, notes) if notes else None
            cards.append(VariantCard(head, variant.description, roll, self.total_beats))
        return cards

    def action_audition(self, index: int) -> None:
        if index >= len(self.alt_set.variants):
            self.app.bell()
            return
        self.auditioning = None if index < 0 else index
        if index >= 0:
            self.highlighted = index
        self.post_message(self.Audition(self.alt_set.id, self.auditioning))

    def action_move(self, step: int) -> None:
        self.highlighted = (self.highlighted + step) % len(self.alt_set.variants)

    def action_choose(self) -> None:
        self.post_message(self.Chosen(self.alt_set.id, self.highlighted))

    def action_new_batch(self) -> None:
        self.post_message(self.NewBatch(self.alt_set.id))

    def action_close(self) -> None:
        self.post_message(self.Closed())

    def watch_highlighted(self) -> None:
        self._mark()

    def watch_auditioning(self) -> None:
        self._mark()

    def _mark(self) -> None:
        for i, card in enumerate(self.query(VariantCard)):
            card.set_class(i == self.highlighted, "-highlighted")
            card.set_class(i == self.auditioning, "-auditioning")


def _roll_track(label: str, role: str, notes: list[Note]) -> Track:
    """A stand-in track holding a variant's notes, for the mini roll to draw."""
    from muse_tui.contracts import Region, Track

    end = max((n.end_beat for n in notes), default=1.0)
    region = Region(id=_PLACEHOLDER_ID, name=label, start_beat=0, length_beats=end, notes=notes)
    name = f"{role or 'take'} {label}"
    return Track(id=_PLACEHOLDER_ID, name=name, role=role or "chords", channel=0, regions=[region])  # type: ignore[arg-type]


class ProposalView(Widget, can_focus=True):
    """The song as it is beside a proposal: 1 and 2 switch the audition, enter accepts, d discards.

    Like `CompareView` it only shows and asks: `Hear`, `Accept`, `Discard` and
    `Closed` are answered by the studio. Closing keeps the proposal pending.
    """

    DEFAULT_CSS = """
    ProposalView { height: auto; border: round $warning; padding: 0 1; }
    ProposalView:focus { border: round $accent; }
    ProposalView #proposal-title { text-style: bold; }
    ProposalView #proposal-help { color: $text-muted; }
    ProposalView Horizontal { height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "hear(False)", "Current", id="proposal.current",
                tooltip="Hear the song as it is, from the next bar"),
        Binding("2", "hear(True)", "Proposal", id="proposal.proposed",
                tooltip="Hear the proposal in its place, from the next bar"),
        Binding("enter", "accept", "Accept", id="proposal.accept",
                tooltip="Make the proposal the song (its files are written now)"),
        Binding("d", "discard", "Discard", id="proposal.discard",
                tooltip="Drop the proposal; the song stays as it is"),
        Binding("escape", "close", "Hide", id="proposal.close",
                tooltip="Hide the proposal; it stays pending (p shows it again)"),
    ]  # fmt: skip

    hearing_proposal: reactive[bool] = reactive(False)

    class Hear(Message):
        """Hear the proposal (or the song as it is) from the next bar line."""

        def __init__(self, proposed: bool) -> None:
            super().__init__()
            self.proposed = proposed

    class Accept(Message):
        """The producer accepts the proposal."""

    class Discard(Message):
        """The producer discards the proposal."""

    class Closed(Message):
        """The producer hid the proposal; it stays pending."""

    def __init__(
        self,
        request: str,
        summary: str,
        current: Track | None,
        proposed: Track | None,
        *,
        total_beats: float = 0.0,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.request, self.summary = request, summary
        self.current, self.proposed = current, proposed
        self.total_beats = total_beats

    def compose(self) -> ComposeResult:
        yield Static(f"Proposal: “{self.request}” — current | proposal", id="proposal-title")
        with Horizontal(id="proposal-cards"):
            yield VariantCard("1  Current", "The song as it is.", self.current, self.total_beats)
            yield VariantCard("2  Proposal", self.summary, self.proposed, self.total_beats)
        yield Static(
            "1 current · 2 proposal (from the next bar) · enter accept · d discard · esc hide",
            id="proposal-help",
        )

    def on_mount(self) -> None:
        self._mark()

    def action_hear(self, proposed: bool) -> None:
        self.hearing_proposal = proposed
        self.post_message(self.Hear(proposed))

    def action_accept(self) -> None:
        self.post_message(self.Accept())

    def action_discard(self) -> None:
        self.post_message(self.Discard())

    def action_close(self) -> None:
        self.post_message(self.Closed())

    def watch_hearing_proposal(self) -> None:
        self._mark()

    def _mark(self) -> None:
        for i, card in enumerate(self.query(VariantCard)):
            card.set_class(i == int(self.hearing_proposal), "-auditioning")
