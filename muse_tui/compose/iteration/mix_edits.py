"""Mix edits: volume, pan, mute and freeze, one track (or every track a role names) at a time."""

from __future__ import annotations

from muse_tui.compose.requests import Edit

from .revision import Revision, listed, track_label, tracks_for

VOLUME_STEP = 12  # CC7 per "louder"
PANS = {
    "hard left": 0,
    "left": 32,
    "centre": 64,
    "center": 64,
    "middle": 64,
    "right": 96,
    "hard right": 127,
}
VERBS = {
    "volume_up": "turn up",
    "volume_down": "turn down",
    "pan": "pan",
    "mute": "mute",
    "unmute": "unmute",
}


def handles(edit: Edit) -> bool:
    return edit.operation in VERBS or edit.operation in ("freeze", "unfreeze")


def apply(revision: Revision, edit: Edit) -> Revision:
    """The revision with the named tracks turned, panned, muted or frozen."""
    change = _freeze if edit.operation in ("freeze", "unfreeze") else _mix
    revision = revision.fork()
    change(revision, edit)
    return revision


def _mix(revision: Revision, edit: Edit) -> None:
    op = edit.operation
    verb = VERBS[op]
    said_all = edit.scope.everything and op in ("volume_up", "volume_down")
    indices = tracks_for(
        revision.song, edit.scope.role, needed="" if said_all else verb, track=edit.scope.track
    )
    song = revision.song
    tracks = list(song.tracks)
    for i in indices:
        track = tracks[i]
        if op in ("volume_up", "volume_down"):
            step = VOLUME_STEP if op == "volume_up" else -VOLUME_STEP
            update: dict[str, object] = {"volume": max(0, min(127, track.volume + step))}
            path = f"tracks[{i}].volume"
        elif op == "pan":
            update, path = {"pan": PANS[str(edit.value)]}, f"tracks[{i}].pan"
        else:
            update, path = {"mute": op == "mute"}, f"tracks[{i}].mute"
        tracks[i] = track.model_copy(update=update)
        if op != "mute" and op != "unmute":
            revision.triggers.append(("mixPosition", track.id))
        revision.touch(f"mix:{track_label(song, track.id)}", "cheap")
        revision.aim(track.role, path, "adjust", **{k: v for k, v in update.items()})
    revision.song = song.model_copy(update={"tracks": tracks})
    who = listed([track_label(song, tracks[i].id) for i in indices])
    revision.sentences.append(f"{verb.capitalize()}: {who}.")


def _freeze(revision: Revision, edit: Edit) -> None:
    """Freeze a track (later changes keep it unless they change it directly), or thaw it."""
    frozen = edit.operation == "freeze"
    indices = tracks_for(
        revision.song, edit.scope.role, needed=edit.operation, track=edit.scope.track
    )
    song = revision.song
    tracks = list(song.tracks)
    for i in indices:
        tracks[i] = tracks[i].model_copy(update={"frozen": frozen})
        revision.aim(tracks[i].role, f"tracks[{i}].frozen", "adjust", frozen=frozen)
    revision.song = song.model_copy(update={"tracks": tracks})
    who = listed([track_label(song, tracks[i].id) for i in indices])
    if frozen:
        revision.sentences.append(f"Frozen: {who}; later changes keep it unless they name it.")
    else:
        revision.sentences.append(f"Unfrozen: {who}; later changes may regenerate it again.")
