"""Track edits: add a part, remove one for good, swap the instrument a part plays.

Adding writes a new track the way S4 would have (its role's look, a free
channel, the instrument asked for) and lets regeneration write its notes and S5
pick its sound. Removing takes the track out of the song, the arrangement and
the intent, so no file mentions it afterwards. Swapping keeps the notes and
changes what plays them: name, GM program and preset.
"""

from __future__ import annotations

from muse_tui.compose.parts.tracks import choose_tracks
from muse_tui.compose.requests import Edit
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import Section, SongState
from muse_tui.knowledge.instruments import Instrument, instrument_table
from muse_tui.knowledge.rhythm import rhythm_table

from .revision import EditError, Revision, listed, track_label, tracks_for

OPERATIONS = ("add_track", "remove_track", "swap_instrument")
#: Sections a newly added lead stays out of, so it arrives as a new idea.
LEAD_RESTS = ("intro", "outro", "breakdown")


def handles(edit: Edit) -> bool:
    return edit.operation in OPERATIONS and edit.scope.section is None


def apply(revision: Revision, edit: Edit) -> Revision:
    """The revision with a track added, removed, or playing another instrument."""
    revision = revision.fork()
    if edit.operation == "add_track":
        _add(revision, edit)
    elif edit.operation == "remove_track":
        _remove(revision, edit)
    else:
        _swap(revision, edit)
    return revision


def _add(revision: Revision, edit: Edit) -> None:
    song, intent = revision.song, revision.intent
    instrument = instrument_table().get(str(edit.value)) if edit.value else None
    role = edit.scope.role or (instrument.role if instrument else None)
    if role is None:
        raise EditError("say which part to add, e.g. “add a pad” or “add strings”.")
    playing = next((t for t in song.tracks if instrument and t.instrument == edit.value), None)
    if playing is not None:
        raise EditError(f"the {playing.name} already plays that; try “busier” or “louder”.")
    if instrument is not None and any(t.role == role for t in song.tracks):
        role = next((r for r in instrument.also_roles if not _has(song, r)), role)
    if _has(song, role):
        raise EditError(f"the song has a {role.replace('_', ' ')} already; try “swap” or “busier”.")
    asked = [str(edit.value)] if instrument is not None else []
    seat = intent.model_copy(update={"roles": [role], "instrument_requests": asked})
    track = choose_tracks(seat, derive_rng(song.seed, "added track", role, len(song.tracks)))[0]
    used = {t.channel for t in song.tracks}
    kit = rhythm_table().tracks
    if role not in kit.kit_roles:
        free = [c for c in range(16) if c not in used and c != kit.drum_channel]
        if not free:
            raise EditError("every MIDI channel is taken; remove a part first.")
        track = track.model_copy(update={"channel": free[0]})
    sections = [_with_role(s, role) for s in _sections(song)]
    arrangement = (
        song.arrangement.model_copy(update={"sections": sections}) if song.arrangement else None
    )
    revision.song = song.model_copy(
        update={"tracks": [*song.tracks, track], "arrangement": arrangement}
    )
    revision.intent = intent.model_copy(
        update={
            "roles": [*intent.roles, role] if intent.roles else [],
            "instrument_requests": [*intent.instrument_requests, *asked],
        }
    )
    revision.rewrite(track.id)
    revision.handled.add("arrangement")
    revision.triggers.append(("role", track.id))
    label = track_label(revision.song, track.id)
    revision.touch(label, "moderate")
    revision.aim(role, f"tracks[{len(song.tracks)}]", "replace", added=track.name)
    revision.sentences.append(f"Added a {track.name} track ({role.replace('_', ' ')}).")


def _remove(revision: Revision, edit: Edit) -> None:
    song, intent = revision.song, revision.intent
    indices = tracks_for(song, edit.scope.role, needed="remove", track=edit.scope.track)
    if len(indices) == len(song.tracks):
        raise EditError("that would remove every part; say which one, e.g. “remove the lead”.")
    gone = [song.tracks[i] for i in indices]
    kept = [t for i, t in enumerate(song.tracks) if i not in indices]
    roles_left = {t.role for t in kept}
    sections = [
        s.model_copy(update={"active_roles": [r for r in s.active_roles if r in roles_left]})
        for s in _sections(song)
    ]
    arrangement = (
        song.arrangement.model_copy(update={"sections": sections}) if song.arrangement else None
    )
    revision.song = song.model_copy(update={"tracks": kept, "arrangement": arrangement})
    gone_instruments = {t.instrument for t in gone}
    revision.intent = intent.model_copy(
        update={
            "roles": [r for r in intent.roles if r in roles_left],
            "instrument_requests": [
                i for i in intent.instrument_requests if i not in gone_instruments
            ],
            "standing_edits": [e for e in intent.standing_edits if e.role in roles_left | {"all"}],
            "takes": [t for t in intent.takes if t.role in roles_left],
        }
    )
    revision.handled.add("arrangement")
    names = [track_label(song, t.id) for t in gone]
    for track, name in zip(gone, names, strict=True):
        revision.touch(f"removed:{name}", "cheap")
        revision.aim(track.role, f"tracks[{song.tracks.index(track)}]", "remove")
    revision.sentences.append(f"Removed the {listed(names)} from the song and its files.")


def _swap(revision: Revision, edit: Edit) -> None:
    """'swap the piano for a Rhodes': the track playing the first plays the second."""
    song = revision.song
    table = instrument_table()
    old_id, _, new_id = str(edit.value).partition(">")
    new = table.get(new_id)
    if new is None or new.program is None:
        raise EditError("say what to swap it for, e.g. “swap the piano for a Rhodes”.")
    index = _playing(song, old_id, table.get(old_id), edit.scope.role)
    track = song.tracks[index]
    if track.instrument == new_id:
        raise EditError(f"the {track.name} is a {new.name} already.")
    tracks = list(song.tracks)
    tracks[index] = track.model_copy(
        update={"instrument": new_id, "name": new.name or track.name, "program": new.program}
    )
    revision.song = song.model_copy(update={"tracks": tracks})
    requests = [i for i in revision.intent.instrument_requests if i != track.instrument]
    revision.intent = revision.intent.model_copy(
        update={"instrument_requests": [*requests, new_id]}
    )
    revision.triggers.append(("role", track.id))
    revision.touch(f"preset:{track_label(song, track.id)}", "cheap")
    revision.aim(track.role, f"tracks[{index}].program", "replace", instrument=new_id)
    name = new.name or new_id
    article = "an" if name[:1].lower() in "aeiou" else "a"
    revision.sentences.append(
        f"The {track.name} part is now played by {article} {name}; same notes."
    )


def _playing(song: SongState, old_id: str, old: Instrument | None, role: str | None) -> int:
    """The track playing an instrument: by the instrument itself, else by its role."""
    for i, track in enumerate(song.tracks):
        if old_id and track.instrument == old_id:
            return i
    wanted = role or (old.role if old else None)
    for candidate in (wanted, *(old.also_roles if old else ())):
        found = [i for i, t in enumerate(song.tracks) if candidate and t.role == candidate]
        if found:
            return found[0]
    return tracks_for(song, wanted, needed="swap")[0]


def _has(song: SongState, role: str) -> bool:
    return any(t.role == role for t in song.tracks)


def _sections(song: SongState) -> list[Section]:
    return list(song.arrangement.sections) if song.arrangement else []


def _with_role(section: Section, role: str) -> Section:
    """The section with the new part playing (a lead waits out the intro and outro)."""
    if role in section.active_roles or (role == "lead" and section.kind in LEAD_RESTS):
        return section
    return section.model_copy(update={"active_roles": [*section.active_roles, role]})
