"""The studio's footer: Textual's compact footer, showing only the keys that fit whole.

Textual's footer scrolls sideways when its keys overflow, so the key at the edge
was cut in the middle of its word ("^oS" for "^o Sessions", just before the
palette key). Here every key after the first that would not fit is hidden, the
palette key (docked at the right) always kept, and the keys are measured again
whenever the footer is resized or its keys change.
"""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import Footer


class StudioFooter(Footer):
    """A compact footer whose keys are shown whole or not at all."""

    def on_mount(self) -> None:
        super().on_mount()
        self.call_after_refresh(self._fit)

    def on_resize(self) -> None:
        self._show_all()
        self.call_after_refresh(self._fit)

    async def recompose(self) -> None:
        await super().recompose()
        self.call_after_refresh(self._fit)

    def _flowing(self) -> list[Widget]:
        return [c for c in self.children if not c.has_class("-command-palette")]

    def _show_all(self) -> None:
        for child in self._flowing():
            child.display = True

    def _fit(self) -> None:
        docked = [c for c in self.children if c.has_class("-command-palette")]
        limit = self.size.width - sum(c.outer_size.width for c in docked)
        past = False
        for child in self._flowing():
            region = child.virtual_region_with_margin
            past = past or region.right > limit
            if past and child.display:
                child.display = False
