"""Expression edits: sustain pedal, vibrato, scoops, swells, pressure, CC curves. Cheap.

"add sustain pedal to the keys", "no vibrato on the lead", "filter sweep on the pad
over the build": the song's expression requests change and assembly writes the
controller data again from the notes as they are. No note is regenerated.
"""

from __future__ import annotations

from muse_tui.compose.expression import default_requests, with_expression
from muse_tui.compose.requests import Edit
from muse_tui.contracts.song import ExpressionRequest

from .revision import EditError, Revision, listed, track_label, tracks_for

OPERATION = "expression"
_WORDS = {
    "sustain": "sustain pedal",
    "vibrato": "vibrato",
    "scoop": "scoops",
    "swell": "swells",
    "pressure": "channel pressure",
    "cc_curve": "a CC curve",
}


def handles(edit: Edit) -> bool:
    return edit.operation == OPERATION


def apply(revision: Revision, edit: Edit) -> Revision:
    """The revision with one expression added to, or taken from, the tracks of a role.

    The edit's value is `expression.edit_value`: '+' or '-', then the request as JSON.
    """
    value = str(edit.value or "")
    add, request = value.startswith("+"), ExpressionRequest.model_validate_json(value[1:])
    song = revision.song
    indices = tracks_for(song, request.role)
    # The tracks found may stand in for the role named ("the keys" played by a piano on
    # chords): the request follows them, or assembly would write it on no track.
    request = request.model_copy(update={"role": song.tracks[indices[0]].role})
    planned = list(
        song.expression if song.expression is not None else default_requests(song.tracks)
    )
    if add:
        if request in planned:
            raise EditError(f"The {request.role} already has {_WORDS[request.kind]}.")
        expression = [*planned, request]
    else:
        what = (request.kind, request.role, request.controller)
        expression = [r for r in planned if (r.kind, r.role, r.controller) != what]
        if len(expression) == len(planned):
            raise EditError(f"The {request.role} has no {_WORDS[request.kind]} to take away.")
    revision = revision.fork()
    planned_song = song.model_copy(update={"expression": expression})
    # The song is kept arranged: its expression regions are written again here, from its notes.
    tracks = with_expression(planned_song, planned_song.tracks)
    revision.song = planned_song.model_copy(update={"tracks": tracks})
    who = listed([track_label(song, song.tracks[i].id) for i in indices])
    revision.touch(f"expression:{who}", "cheap")
    revision.aim(request.role, "expression", "adjust", kind=request.kind, add=add)
    where = f" over the {request.section.replace('_', ' ')}" if request.section else ""
    verb = "Added" if add else "Took away"
    revision.sentences.append(f"{verb} {_WORDS[request.kind]}{where}: {who}; no notes changed.")
    return revision
