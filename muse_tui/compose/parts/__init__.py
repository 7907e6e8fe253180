"""S4 parts: drums, bass, chords, lead, pad… written section by section, humanised.

The engine calls `write_part` once per (track, section), concurrently; parts in
`PART_DEPENDENCIES` get the drum region of the same section to lock to.
"""

from muse_tui.compose.parts.kit import allowed_voices
from muse_tui.compose.parts.tracks import DEFAULT_ROLES, PART_DEPENDENCIES, choose_tracks
from muse_tui.compose.parts.writer import groove_for, summarize_part, with_register, write_part

__all__ = [
    "DEFAULT_ROLES",
    "PART_DEPENDENCIES",
    "allowed_voices",
    "choose_tracks",
    "groove_for",
    "summarize_part",
    "with_register",
    "write_part",
]
