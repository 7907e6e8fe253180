"""Which DAW edit a whole line asks for, read before the request reader goes clause by clause.

"make the bridge twice as long", "add I vi IV to the piano track at bar 9":
a form change (`structure_edits`) or chords placed (`placed_harmony`).
"""

from __future__ import annotations

from muse_tui.compose.request_types import Edit

from .placed_harmony import read_placed_chords
from .structure_edits import read_section_edit


def daw_edits(said: str) -> tuple[Edit, ...]:
    """The DAW edits a whole line asks for (a form change, chords placed), or none."""
    placed = read_placed_chords(said)
    if placed is not None:
        return (placed,)
    section = read_section_edit(said)
    return (section,) if section is not None else ()
