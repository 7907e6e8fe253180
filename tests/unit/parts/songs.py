"""Songs built by hand for the part tests: C minor i–VI–III–VII, intro / verse / chorus / outro."""

from __future__ import annotations

from muse_tui.compose.parts import PART_DEPENDENCIES, choose_tracks, write_part
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import (
    Arrangement,
    CreativityDials,
    EnrichedProgression,
    GenreDNAVector,
    PipelineIntent,
    ProgressionChord,
    Section,
    SongState,
    Track,
    TrackRole,
)

C_MINOR_SCALE = frozenset({0, 2, 3, 5, 7, 8, 10})
KICK = 36

#: drum family → (bass style, chord rhythm, swing %), one genre each.
GENRES: dict[str, tuple[str, str, float]] = {
    "boom_bap": ("syncopated", "stabs", 58),
    "trap": ("sub_808", "sustained", 50),
    "four_on_floor": ("octave", "house_offbeat", 54),
    "two_step": ("syncopated", "stabs", 61),
    "lofi_swung": ("syncopated", "neo_soul_push", 60),
    "jazz_ride": ("walking", "swing_comp", 66),
    "half_time": ("sub_808", "sustained", 52),
    "breakbeat": ("syncopated", "stabs", 54),
    "dnb": ("sub_808", "arpeggiated", 50),
    "dembow": ("sub_808", "stabs", 50),
    "afrobeats": ("syncopated", "strum", 56),
    "rock": ("root_fifth", "strum", 50),
}


def progression() -> EnrichedProgression:
    """C minor i–VI–III–VII, a bar each, voiced close and led smoothly."""
    chords = [
        ("Cm", "i", [60, 63, 67]),
        ("Ab", "VI", [60, 63, 68]),
        ("Eb", "III", [58, 63, 67]),
        ("Bb", "VII", [58, 62, 65]),
    ]
    return EnrichedProgression(
        key="C",
        mode="minor",
        chords=[ProgressionChord(symbol=s, roman=r, voicing=v, beats=4) for s, r, v in chords],
    )


def arrangement() -> Arrangement:
    return Arrangement(
        template="test",
        sections=[
            Section(name="Intro", kind="intro", start_bar=0, bars=4, energy=0.2),
            Section(name="Verse", kind="verse", start_bar=4, bars=8, energy=0.5),
            Section(name="Chorus", kind="chorus", start_bar=12, bars=8, energy=0.9),
            Section(
                name="Outro", kind="outro", start_bar=20, bars=4, energy=0.3, transition="fade"
            ),
        ],
    )


def song(tempo: float = 120, *, with_progression: bool = True) -> SongState:
    return SongState(
        tempo=tempo,
        key="C",
        mode="minor",
        arrangement=arrangement(),
        progression=progression() if with_progression else None,
    )


def intent(
    family: str = "trap",
    *,
    bass: str | None = None,
    chords: str | None = None,
    swing: float | None = None,
    harmonic: float = 0.0,
    rhythmic: float = 0.3,
    roles: list[TrackRole] | None = None,
    constraints: list[str] | None = None,
) -> PipelineIntent:
    default_bass, default_chords, default_swing = GENRES.get(
        family, ("root_fifth", "sustained", 50)
    )
    dna = GenreDNAVector(
        genre=family,
        display_name=family,
        tempo_range=(60, 180),
        tempo_default=120,
        swing=swing if swing is not None else default_swing,
        preferred_modes=["minor"],
        preferred_keys=["C"],
        harmonic_vocabulary=["i", "VI", "III", "VII"],
        harmonic_complexity=0.3,
        drum_family=family,
        bass_style=bass or default_bass,
        chord_rhythm=chords or default_chords,
        roles=roles or ["drums", "bass", "chords", "lead"],
        arrangement_template="generic_fallback",
        energy=0.6,
    )
    return PipelineIntent(
        genre=[family],
        raw_prompt=f"a {family} song",
        genre_dna=dna,
        creativity_dials=CreativityDials(harmonic=harmonic, rhythmic=rhythmic),
        constraints=constraints or [],
    )


def write_song(the_intent: PipelineIntent, the_song: SongState, seed: int = 1) -> list[Track]:
    """Every part of the song, section by section, bass locked to the drums as the engine does."""
    assert the_song.arrangement is not None
    the_song = the_song.model_copy(update={"seed": seed})  # the song's seed picks its grooves
    tracks = choose_tracks(the_intent, derive_rng(seed, "tracks"))
    written: dict[str, Track] = {}
    for track in sorted(tracks, key=lambda t: bool(PART_DEPENDENCIES.get(t.role))):
        regions = []
        for index, section in enumerate(the_song.arrangement.sections):
            waits = PART_DEPENDENCIES.get(track.role, ())
            drums = (
                written["drums"].regions[index] if "drums" in waits and "drums" in written else None
            )
            rng = derive_rng(seed, track.role, section.start_bar)
            regions.append(write_part(track, the_song, the_intent, section, rng, drums))
        written[track.role] = track.model_copy(update={"regions": regions})
    return [written[t.role] for t in tracks]
