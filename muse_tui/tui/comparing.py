"""The A/B comparison in the studio: the variants where the piano roll was, heard by number.

A comparison arrives whole from the editor's worker (`Comparison`), so number
keys only switch the player on the next bar line; nothing is generated here.
A proposal is shown the same way, "current | proposal": its changed tracks are
heard in place of the song's own from the next bar line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.css.query import NoMatches
from textual.widget import Widget

if TYPE_CHECKING:
    from muse_tui.contracts import SongState, Track
    from muse_tui.engine.proposals import Pending

    from .app import StudioApp
    from .comparison import Comparison
    from .listening import Listening


class Comparing(Widget):
    """Opens, refreshes and closes the comparison view, and plays its variants (shows nothing)."""

    DEFAULT_CSS = "Comparing { display: none; }"

    app: StudioApp  # type: ignore[assignment]

    def __init__(self, listening: Listening, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.listening = listening
        self.comparison: Comparison | None = None
        self.proposal: Pending | None = None  # pending in the session, shown or hidden

    def open(self, comparison: Comparison) -> None:
        """Show the variants where the piano roll was (a new batch replaces the cards)."""
        from .widgets.compare import CompareView

        self.comparison = comparison
        for shown in self.screen.query("#proposal"):
            shown.remove()  # one view where the roll was; the proposal stays pending (p)
        song = comparison.pipeline.song_state
        total = song.bar_beat(song.arrangement.total_bars) if song.arrangement else 0.0
        screen = self.screen
        try:
            view = screen.query_one(CompareView)
        except NoMatches:
            view = CompareView(
                comparison.alt_set, comparison.notes, role=comparison.role, total_beats=total,
                id="compare",
            )  # fmt: skip
            screen.query_one("#roll").display = False
            left = screen.query_one("#left")
            left.add_class("-comparing")  # a short terminal gives it the arrangement's rows too
            left.mount(view)
        else:
            view.role = comparison.role
            view.show(comparison.alt_set, comparison.notes)
        view.focus()

    def close(self, *, focus: bool = True) -> None:
        """Back to the piano roll; the song plays its own parts again.

        `focus` False leaves the focus where it is (in the prompt after an edit).
        """
        self.comparison = None
        self.app.audition.end_variants()
        screen = self.screen
        for view in screen.query("#compare, #proposal"):
            view.remove()
        screen.query_one("#left").remove_class("-comparing")
        screen.query_one("#roll").display = True
        if focus:
            screen.query_one("#arrangement").focus()

    # ── a proposal ──────────────────────────────────────────────────────────

    def open_proposal(self, pending: Pending, song: SongState) -> None:
        """Show "current | proposal" where the piano roll was; focus stays where it is."""
        from .widgets.compare import ProposalView

        if self.comparison is not None or self.screen.query("#proposal"):
            self.close(focus=False)
        self.proposal = pending
        proposed = pending.pipeline.song_state
        changed = changed_tracks(song, proposed)
        first = changed[0] if changed else None
        total = song.bar_beat(song.arrangement.total_bars) if song.arrangement else 0.0
        view = ProposalView(
            pending.proposal.request,
            pending.proposal.summary,
            song.track(first.id) if first else None,
            first,
            total_beats=total,
            id="proposal",
        )
        screen = self.screen
        screen.query_one("#roll").display = False
        left = screen.query_one("#left")
        left.add_class("-comparing")
        left.mount(view)

    def forget_proposal(self) -> None:
        """The proposal was accepted, discarded or dropped: back to the song as it is."""
        self.proposal = None
        # A song can arrive while the studio is closing (a compose finishing as the app
        # exits): with the screen gone there is no view to close.
        if self.is_attached and self.screen.query("#proposal"):
            self.close(focus=False)

    def hear_proposal(self, proposed: bool) -> None:
        """Hear the proposal's changed tracks (or the song's own) from the next bar line."""
        pending, song = self.proposal, self.app.studio.song
        if pending is None or song is None:
            return
        tracks = changed_tracks(song, pending.pipeline.song_state) if proposed else []
        audition = self.app.audition

        def hear() -> None:
            audition.audition_variant(tracks, self.listening.selected_bar(), start=proposed)

        if self.listening.listen(hear):
            said = "The proposal, from the next bar." if proposed else "The song as it is."
            self.notify(said, timeout=2)

    def hear(self, index: int | None) -> None:
        """Hear variant `index` (None: the song's own part) from the next bar line."""
        comparison = self.comparison
        if comparison is None:
            return
        audition = self.app.audition
        tracks = [] if index is None else comparison.tracks[index]

        def hear() -> None:  # a variant plays at once; the variant in use is the song as it is
            audition.audition_variant(
                tracks, self.listening.selected_bar(), start=index is not None
            )

        if self.listening.listen(hear):
            label = comparison.alt_set.variants[index].label if index is not None else ""
            if index is None:
                said = "The song's own part, from the next bar."
            elif tracks:
                said = f"Option {label} from the next bar."
            else:
                said = f"Option {label} is what the song plays now."
            self.notify(said, timeout=2)


def changed_tracks(song: SongState, proposed: SongState) -> list[Track]:
    """The proposal's tracks whose notes differ from the song's track of the same id."""
    own = {t.id: t for t in song.tracks}
    return [t for t in proposed.tracks if t.id in own and t.regions != own[t.id].regions]
