"""Arrangement and section edits: the song's sections, and whether a new form still fits the old.

A section-scoped part edit ("busier in the chorus") names a section kind that
`section_kinds` must hold; a new arrangement replaces the sections whole and
every part not frozen follows it.
"""

from __future__ import annotations

from muse_tui.compose.assembly import song_end_beat
from muse_tui.contracts import Arrangement, Section, SongState

from .revision import EditError

UNARRANGED_BARS = 32


def sections_of(song: SongState) -> list[Section]:
    """The arrangement's sections, or one section over the whole song when there is none."""
    if song.arrangement is not None:
        return list(song.arrangement.sections)
    return [whole_song(max(1, round(song_end_beat(song) / song.beats_per_bar)))]


def whole_song(bars: int | None) -> Section:
    """One looping section over a song with no arrangement (32 bars when none is asked)."""
    return Section(name="Song", kind="loop", start_bar=0, bars=bars or UNARRANGED_BARS, energy=0.6)


def check_section(song: SongState, kind: str | None) -> None:
    """Refuse a section kind the song does not have, in the producer's words."""
    if kind is None:
        return
    kinds = {s.kind for s in song.arrangement.sections} if song.arrangement else set()
    if kind not in kinds:
        raise EditError(f"there is no {kind.replace('_', '-')} in this song.")


def same_shape(old: Arrangement | None, new: Arrangement) -> bool:
    """Sections of the same kinds and lengths: the form still fits, so it is kept."""
    if old is None:
        return False
    return [(s.kind, s.bars) for s in old.sections] == [(s.kind, s.bars) for s in new.sections]
