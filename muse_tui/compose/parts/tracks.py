"""Which tracks a song gets: roles, names, MIDI channels, GM programs and colours."""

from __future__ import annotations

import random

from muse_tui.contracts import PipelineIntent, Track, TrackRole, new_id
from muse_tui.knowledge.rhythm import rhythm_table

from .style import family_of, resolve_style, track_look

DEFAULT_ROLES: tuple[TrackRole, ...] = ("drums", "bass", "chords", "lead")

#: Which roles wait for which, section by section: the bass locks to the kick.
PART_DEPENDENCIES: dict[str, tuple[str, ...]] = {
    "bass": ("drums",),
    "sub_bass": ("drums",),
}


def choose_tracks(intent: PipelineIntent, rng: random.Random) -> list[Track]:
    """The song's tracks with empty regions, in the order the roles were asked for.

    Kit roles (drums, hand percussion) play GM kits on the drum channel (10),
    whose keys are the only place GM has those sounds; every other role gets
    its own channel, never that one.
    """
    dna_roles = intent.genre_dna.roles if intent.genre_dna else []
    roles = list(dict.fromkeys(intent.roles or dna_roles or DEFAULT_ROLES))
    table = rhythm_table()
    style = resolve_style(intent, table)
    kit = family_of(style, table).drum_kit
    drum_channel = table.tracks.drum_channel
    free_channels = [c for c in range(16) if c != drum_channel]
    tracks = []
    for role in roles:
        look = track_look(role, style, table)
        if look.kit:
            channel, program, drum_kit = drum_channel, None, kit
        else:
            channel, program, drum_kit = free_channels.pop(0), look.program, None
        tracks.append(
            Track(
                id=new_id(rng),
                name=look.name,
                role=role,
                channel=channel,
                program=program,
                drum_kit=drum_kit,
                color=look.color,
            )
        )
    return tracks
