"""Which family makes an edit: one `apply` per family, tried in the order requests are read."""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar, cast

from muse_tui.compose.requests import Edit

from . import (
    chord_edits,
    expression_edits,
    harmonic_rhythm,
    mix_edits,
    part_edits,
    placed_harmony,
    scoped_edits,
    song_edits,
    sound_edits,
    structure_edits,
    track_edits,
)
from .revision import EditError, Revision, numbered

# A darker *chord* is harmony, a darker *mix* is tone: harmony is asked first.
FAMILIES = (
    scoped_edits,
    structure_edits,
    placed_harmony,
    harmonic_rhythm,
    chord_edits,
    sound_edits,
    part_edits,
    song_edits,
    track_edits,
    mix_edits,
    expression_edits,
    harmonic_rhythm,
)
R = TypeVar("R", bound=Revision)


def apply_edit(revision: R, edit: Edit) -> R:
    """The revision with one edit's direct change made, its triggers and cost noted."""
    edit = scoped_edits.resolve(revision.song, edit)
    own_words = (*scoped_edits.UNNOTED, "meter")  # a meter edit names what the song has itself
    if (edit.scope.narrow or edit.scope.section) and edit.operation not in own_words:
        scoped_edits.spans(revision.song, edit.scope)  # a scope the song lacks is asked back
    if edit.scope.track is not None and edit.scope.role is None:
        # "track 2 simpler": the families that remake a role's part hear the track's role.
        track = revision.song.tracks[numbered(revision.song, edit.scope.track)]
        edit = replace(edit, scope=replace(edit.scope, role=track.role))
    for family in FAMILIES:
        if family.handles(edit):
            return cast(R, family.apply(revision, edit))  # a fork keeps the revision's type
    raise EditError(f"I do not know how to {edit.operation.replace('_', ' ')} yet.")
