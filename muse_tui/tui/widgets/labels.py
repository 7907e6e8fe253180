"""A track's role as a label in a narrow column: whole, else its usual short name, never cut.

"percussion" in the arrangement's 9 cells read "percussio"; a producer reads "perc" (the
abbreviation mixing consoles and DAW track names use), not a word cut mid-way.
"""

from __future__ import annotations

#: Short names for the roles too long for some column (contracts.vocabulary.TRACK_ROLES).
SHORT_ROLES = {"percussion": "perc", "sub_bass": "sub", "texture": "tex"}


def role_label(role: str, width: int) -> str:
    """`role` in at most `width` cells: whole where it fits, else its short name.

    A role with no short name that still does not fit is cut (no role in the vocabulary is:
    the narrowest column, 8 cells, holds every other one whole)."""
    if len(role) <= width:
        return role
    short = SHORT_ROLES.get(role, role)
    return short[: max(width, 0)]
