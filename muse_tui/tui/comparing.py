"""The A/B comparison in the studio: the variants where the piano roll was, heard by number.

A comparison arrives whole from the editor's worker (`Comparison`), so number
keys only switch the player on the next bar line; nothing is generated here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.css.query import NoMatches
from textual.widget import Widget

if TYPE_CHECKING:
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

    def open(self, comparison: Comparison) -> None:
        """Show the variants where the piano roll was (a new batch replaces the cards)."""
        from .widgets.compare import CompareView

        self.comparison = comparison
        song = comparison.pipeline.song_state
        total = song.arrangement.total_bars * song.beats_per_bar if song.arrangement else 0.0
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

    def close(self) -> None:
        """Back to the piano roll; the song plays its own parts again."""
        self.comparison = None
        self.app.audition.end_variants()
        screen = self.screen
        for view in screen.query("#compare"):
            view.remove()
        screen.query_one("#left").remove_class("-comparing")
        screen.query_one("#roll").display = True
        screen.query_one("#arrangement").focus()

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
