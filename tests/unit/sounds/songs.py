"""Hand-built songs and intents for the sound tests: tracks with roles, no notes needed."""

from __future__ import annotations

import random
from collections.abc import Sequence

from muse_tui.contracts.base import new_id
from muse_tui.contracts.intent import GenreDNAVector, PipelineIntent
from muse_tui.contracts.song import TRACK_ROLES, SongState, Track, TrackRole
from muse_tui.knowledge.genres import genre_table
from muse_tui.knowledge.loader import SkillFileError

#: Used when the genre DNA file cannot be read: one genre per arrangement family, and a stray.
REPRESENTATIVE_GENRES = (
    "pop", "neo_soul", "house", "trap", "jazz", "lo_fi", "drill", "afrobeats",
    "ambient", "boom_bap", "uk_garage", "dnb", "rock", "polka",
)  # fmt: skip


def genre_roles() -> dict[str, list[TrackRole]]:
    """Every genre of the genre DNA with its roles (or a representative list with all roles)."""
    try:
        table = genre_table()
    except SkillFileError:
        return {g: list(TRACK_ROLES) for g in REPRESENTATIVE_GENRES}
    return {genre_id: list(dna.roles) for genre_id, dna in table.genres.items()}


def dna_for(genre: str) -> GenreDNAVector | None:
    try:
        table = genre_table()
    except SkillFileError:
        return None
    return table.genres.get(genre)


def band(
    roles: Sequence[TrackRole] = ("drums", "bass", "chords", "lead", "pad"),
    *,
    tempo: float = 120.0,
    genre: str = "",
) -> SongState:
    """A song with one empty track per role; drums and percussion on channel 10."""
    rng = random.Random(5)
    tracks = [
        Track(
            id=new_id(rng),
            name=role.replace("_", " ").title(),
            role=role,
            channel=9 if role in ("drums", "percussion") else i,
        )
        for i, role in enumerate(roles)
    ]
    return SongState(seed=5, genre=genre, tempo=tempo, tracks=tracks)


def intent_for(
    genre: str,
    *,
    moods: Sequence[str] = (),
    constraints: Sequence[str] = (),
    requests: Sequence[str] = (),
    with_dna: bool = True,
) -> PipelineIntent:
    return PipelineIntent(
        genre=[genre],
        mood=list(moods),
        constraints=list(constraints),
        instrument_requests=list(requests),
        raw_prompt=f"a {genre} song",
        genre_dna=dna_for(genre) if with_dna else None,
    )
