"""How a repeated section develops instead of coming back note for note.

The parts of a section are seeded by its kind, so the second chorus brings back
the first one's hook and groove. What makes it a *second* chorus is decided
here, from the arrangement alone, so every track agrees without talking to the
others: which repeat of its kind a section is, and where the band drops out for
a bar and leaves one part alone: before the last phrase of the song's last
chorus, hook or drop, and in every repeat the drums do not play in (their fills
are what vary the others); a four-bar section stops on its last bar instead,
and a part playing a repeat alone rests through its last bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from muse_tui.compose.arrangement.form import PEAK_KINDS
from muse_tui.contracts.song import Section, SongState, TrackRole

#: Who is left playing in a drop-out bar: the hook, a top line, the harmony, the groove last.
SOLOISTS: tuple[TrackRole, ...] = (
    "lead",
    "arp",
    "texture",
    "keys",
    "chords",
    "pad",
    "bass",
    "sub_bass",
    "percussion",
    "drums",
)
#: The bars a drop-out leaves before the section's end: the last four-bar phrase.
_LAST_PHRASE_BARS = 4


@dataclass(frozen=True)
class Repeat:
    """Which repeat of its kind a section is, and its drop-out bar if it has one."""

    ordinal: int = 1
    count: int = 1
    dropout_bar: int | None = None
    soloist: TrackRole | None = None

    @property
    def is_repeat(self) -> bool:
        return self.ordinal > 1

    def drops_out(self, role: TrackRole) -> bool:
        """Whether `role` rests through the drop-out bar."""
        return self.dropout_bar is not None and role != self.soloist


def repeat_of(section: Section, sections: Sequence[Section]) -> Repeat:
    """The section's place among the sections of its kind, and its drop-out bar."""
    same = [s for s in sections if s.kind == section.kind]
    ordinal = next((i for i, s in enumerate(same, 1) if s.start_bar == section.start_bar), 1)
    last_peak = section.kind in PEAK_KINDS and ordinal == len(same)
    drumless = "drums" not in section.active_roles
    soloist = next((r for r in SOLOISTS if r in section.active_roles), None)
    if ordinal < 2 or not (last_peak or drumless):
        return Repeat(ordinal, len(same), soloist=soloist)
    if len(section.active_roles) < 2:  # a part alone: it breathes a bar early instead
        return Repeat(ordinal, len(same), dropout_bar=section.bars - 1)
    bar = section.bars - 1 - _LAST_PHRASE_BARS if section.bars >= 8 else section.bars - 1
    return Repeat(ordinal, len(same), dropout_bar=bar, soloist=soloist)


def section_repeat(song: SongState, section: Section) -> Repeat:
    """`repeat_of` in this song's arrangement (a song without one has no repeats)."""
    if song.arrangement is None:
        return Repeat()
    return repeat_of(section, song.arrangement.sections)
