"""Which tracks a song gets: roles, the instrument each plays, names, channels, programs."""

from __future__ import annotations

import random
from collections.abc import Collection

from muse_tui.contracts import PipelineIntent, Track, TrackRole, new_id
from muse_tui.knowledge.instruments import Instrument, InstrumentTable, instrument_table
from muse_tui.knowledge.lexicon import intent_lexicon
from muse_tui.knowledge.rhythm import rhythm_table
from muse_tui.knowledge.tracks import TrackLook

from .style import family_of, resolve_style, track_look

DEFAULT_ROLES: tuple[TrackRole, ...] = ("drums", "bass", "chords", "lead")

#: Which roles wait for which, section by section: the bass locks to the kick.
PART_DEPENDENCIES: dict[str, tuple[str, ...]] = {
    "bass": ("drums",),
    "sub_bass": ("drums",),
}


def choose_tracks(intent: PipelineIntent, rng: random.Random) -> list[Track]:
    """The song's tracks with empty regions, in the order the roles were asked for.

    Each pitched track plays one instrument of the instrument table: the one the
    producer named for its role, else the genre's usual one, else the role's look
    for the genre's style; the instrument gives the track's name and GM program.
    Kit roles (drums, hand percussion) play GM kits on the drum channel (10),
    whose keys are the only place GM has those sounds; every other role gets its
    own channel, never that one.
    """
    dna_roles = intent.genre_dna.roles if intent.genre_dna else []
    roles = list(dict.fromkeys(intent.roles or dna_roles or DEFAULT_ROLES))
    table = rhythm_table()
    instruments = instrument_table()
    style = resolve_style(intent, table)
    kit = _requested_kit(intent, instruments) or family_of(style, table).drum_kit
    drum_channel = table.tracks.drum_channel
    free_channels = [c for c in range(16) if c != drum_channel]
    asked = requested_instruments(intent, instruments, roles)
    seated = genre_instruments(intent, instruments, placed=set(asked.values())) | asked
    tracks = []
    for role in roles:
        look = track_look(role, style, table)
        if look.kit:
            channel, program, drum_kit, instrument = drum_channel, None, kit, None
            name = _kit_name(role, look, intent, instruments)
        else:
            instrument = seated.get(role) or look.instrument
            sound = instruments.get(instrument)
            name, program = _name_and_program(look, sound)
            if role == "lead" and instrument and list(seated.values()).count(instrument) > 1:
                name = f"{name} Melody"  # the same player's right hand over its own chords
            channel, drum_kit = free_channels.pop(0), None
        tracks.append(
            Track(
                id=new_id(rng),
                name=name,
                role=role,
                channel=channel,
                program=program,
                instrument=instrument,
                drum_kit=drum_kit,
                color=look.color,
            )
        )
    return tracks


def requested_instruments(
    intent: PipelineIntent,
    instruments: InstrumentTable | None = None,
    roles: Collection[TrackRole] | None = None,
) -> dict[TrackRole, str]:
    """Role → the instrument the producer named for it (as S1 seated it), among `roles`
    when given (the song's, so a sound named for a listed role set lands on one of them).
    The genre's core players keep their seats (`InstrumentTable.core_seats`)."""
    table = instruments or instrument_table()
    held = core_seats(intent, table)
    return table.seat(intent.instrument_requests, roles, intent.lead_instrument, held)


def genre_instruments(
    intent: PipelineIntent,
    instruments: InstrumentTable | None = None,
    placed: set[str] | frozenset[str] = frozenset(),
) -> dict[TrackRole, str]:
    """Role → the genre's usual sound for it, read from the genre's instrument list.

    Gospel's "hammond organ" plays its keys and drill's "piano" its chords. In the
    list's order, a sound takes its own role, else another free role of the same
    group (jazz's piano plays the keys), never a role of another group. Sounds
    already `placed` (the producer's) are not played twice.
    """
    dna = intent.genre_dna
    if dna is None:
        return {}
    instruments = instruments or instrument_table()
    return instruments.usual(_genre_sounds(intent), dna.roles, placed)


def core_seats(intent: PipelineIntent, instruments: InstrumentTable) -> dict[TrackRole, int]:
    """The genre's core seats (rock's guitar on chords) → the program of its player there."""
    dna = intent.genre_dna
    if dna is None or not dna.core:
        return {}
    return instruments.core_seats(_genre_sounds(intent), dna.roles, dna.core)


def _genre_sounds(intent: PipelineIntent) -> list[str]:
    """The genre's instrument list as instrument ids ("dark bells" → bells)."""
    named = intent_lexicon().instrument_in
    texts = intent.genre_dna.instruments if intent.genre_dna else []
    return [found for text in texts if (found := named(text))]


def requested_kit_sounds(
    intent: PipelineIntent, instruments: InstrumentTable | None = None
) -> list[Instrument]:
    """The kit sounds (cowbell, congas…) the producer named, in the order named."""
    instruments = instruments or instrument_table()
    found = (instruments.get(request) for request in intent.instrument_requests)
    return [i for i in found if i is not None and i.is_kit_sound]


def _requested_kit(intent: PipelineIntent, instruments: InstrumentTable) -> int | None:
    """The kit a named drum sound is played on ("brushes": the brush kit), if one was named."""
    found = (instruments.get(request) for request in intent.instrument_requests)
    return next((i.drum_kit for i in found if i is not None and i.drum_kit is not None), None)


def _name_and_program(look: TrackLook, sound: Instrument | None) -> tuple[str, int | None]:
    if sound is not None and sound.name is not None and sound.program is not None:
        return sound.name, sound.program
    return look.name or "Track", look.program


def _kit_name(
    role: TrackRole, look: TrackLook, intent: PipelineIntent, instruments: InstrumentTable
) -> str:
    """A percussion track that plays only one named sound is called by it ("Cowbell").

    Where the genre has hand percussion of its own, the track plays that too, so
    it stays "Percussion".
    """
    own = intent.genre_dna is not None and "percussion" in intent.genre_dna.roles
    if role != "percussion" or own:
        return look.name
    sounds = requested_kit_sounds(intent, instruments)
    return sounds[0].name or look.name if len(sounds) == 1 else look.name
