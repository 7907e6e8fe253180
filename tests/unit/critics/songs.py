"""Hand-built songs for the critics: a clean pop song and the ways to spoil it."""

from __future__ import annotations

import random
from collections.abc import Sequence

from muse_tui.contracts.base import new_id
from muse_tui.contracts.intent import GenreDNAVector, PipelineIntent
from muse_tui.contracts.song import (
    Arrangement,
    EnrichedProgression,
    Note,
    ProgressionChord,
    Region,
    Section,
    SectionKind,
    SongState,
    Track,
    TrackRole,
)

ROLES: tuple[TrackRole, ...] = ("drums", "bass", "chords", "lead")
#: I vi IV V in C, voice-led so that common tones hold and the rest move by step.
PROGRESSION = [
    ("C", "I", [60, 64, 67], 36),
    ("Am", "vi", [60, 64, 69], 33),
    ("F", "IV", [60, 65, 69], 41),
    ("G", "V", [59, 62, 67], 43),
]
#: (name, kind, bars, energy, who plays)
CONTRASTING: list[tuple[str, SectionKind, int, float, tuple[TrackRole, ...]]] = [
    ("Intro", "intro", 4, 0.2, ("chords",)),
    ("Verse", "verse", 8, 0.5, ("drums", "bass", "chords")),
    ("Chorus", "chorus", 8, 0.9, ROLES),
    ("Outro", "outro", 4, 0.3, ("bass", "chords")),
]
FLAT: list[tuple[str, SectionKind, int, float, tuple[TrackRole, ...]]] = [
    (name, kind, bars, 0.5, ROLES) for name, kind, bars, _, _ in CONTRASTING
]


def pop_dna(**changes: object) -> GenreDNAVector:
    fields: dict[str, object] = {
        "genre": "pop",
        "display_name": "Pop",
        "tempo_range": (90.0, 125.0),
        "tempo_default": 105.0,
        "swing": 50,
        "preferred_modes": ["major"],
        "preferred_keys": ["C"],
        "harmonic_vocabulary": ["I", "IV", "V", "vi"],
        "harmonic_complexity": 0.2,
        "drum_family": "rock",
        "bass_style": "root_fifth",
        "chord_rhythm": "sustained",
        "roles": list(ROLES),
        "arrangement_template": "pop_rnb",
        "energy": 0.5,
    }
    return GenreDNAVector.model_validate({**fields, **changes})


def pop_intent(moods: Sequence[str] = ("happy",), **dna_changes: object) -> PipelineIntent:
    return PipelineIntent(
        genre=["pop"],
        mood=list(moods),
        raw_prompt="a happy pop song",
        genre_dna=pop_dna(**dna_changes),
    )


def clean_song(
    sections: Sequence[tuple[str, SectionKind, int, float, tuple[TrackRole, ...]]] = CONTRASTING,
    *,
    key: str = "C",
    mode: str = "major",
    tempo: float = 105.0,
    lead_shift: int = 0,
    bars: int | None = None,
) -> SongState:
    """Diatonic chords, bass on the roots, a lead on chord tones, drums on a steady groove.

    `bars` repeats the sections' pattern until the song is that long (for timing runs).
    """
    rng = random.Random(7)
    plan = _lay_out(sections, bars)
    notes: dict[TrackRole, list[Note]] = {role: [] for role in ROLES}
    for start_bar, length, energy, players in plan:
        for bar in range(start_bar, start_bar + length):
            symbol, roman, voicing, root = PROGRESSION[bar % len(PROGRESSION)]
            del symbol, roman
            at = bar * 4.0
            velocity = int(60 + 50 * energy)
            if "chords" in players:
                notes["chords"] += [_note(p, velocity, at, 3.9) for p in voicing]
            if "bass" in players:
                notes["bass"] += [_note(root, velocity, at + b, 1.5) for b in (0, 2)]
            if "drums" in players:
                notes["drums"] += _drum_bar(at, velocity)
            if "lead" in players:
                # Three chord tones and a breath on beat 4, as a sung line would.
                tones = [voicing[0] + 12, voicing[1] + 12, voicing[2] + 12]
                notes["lead"] += [
                    _note(p + lead_shift, velocity, at + i, 0.9) for i, p in enumerate(tones)
                ]
    total = sum(length for _, length, _, _ in plan)
    tracks = [
        Track(
            id=new_id(rng),
            name=role.title(),
            role=role,
            channel=9 if role == "drums" else i,
            regions=[
                Region(id=new_id(rng), name=role, start_beat=0, length_beats=total * 4, notes=ns)
            ]
            if ns
            else [],
        )
        for i, (role, ns) in enumerate(notes.items())
    ]
    arrangement = Arrangement(
        template="pop_rnb",
        sections=[
            Section(
                name=f"{name} {n}" if bars else name,
                kind=kind,
                start_bar=start,
                bars=length,
                energy=energy,
                active_roles=list(players),
            )
            for n, ((name, kind, _, _, _), (start, length, energy, players)) in enumerate(
                zip(_cycle(sections, len(plan)), plan, strict=True)
            )
        ],
    )
    progression = EnrichedProgression(
        key=key,
        mode=mode,
        chords=[
            ProgressionChord(symbol=s, roman=r, voicing=v, beats=4.0) for s, r, v, _ in PROGRESSION
        ],
    )
    return SongState(
        seed=1,
        title="Clean",
        genre="pop",
        tempo=tempo,
        key=key,
        mode=mode,
        tracks=tracks,
        arrangement=arrangement,
        progression=progression,
    )


def _lay_out(
    sections: Sequence[tuple[str, SectionKind, int, float, tuple[TrackRole, ...]]], bars: int | None
) -> list[tuple[int, int, float, tuple[TrackRole, ...]]]:
    plan, start = [], 0
    for _, _, length, energy, players in _cycle(sections, 10_000):
        if bars is None and len(plan) == len(sections):
            break
        if bars is not None and start >= bars:
            break
        length = length if bars is None else min(length, bars - start)
        plan.append((start, length, energy, players))
        start += length
    return plan


def _cycle(items: Sequence[tuple], count: int) -> list[tuple]:
    return [items[i % len(items)] for i in range(count)]


def _note(pitch: int, velocity: int, start: float, length: float) -> Note:
    return Note(pitch=pitch, velocity=velocity, start_beat=start, duration_beats=length)


def _drum_bar(at: float, velocity: int) -> list[Note]:
    kicks = [_note(36, velocity, at + b, 0.25) for b in (0.0, 2.0)]
    snares = [_note(38, velocity, at + b, 0.25) for b in (1.0, 3.0)]
    hats = [_note(42, velocity - 20, at + i / 2, 0.2) for i in range(8)]
    return kicks + snares + hats


def with_notes(song: SongState, role: TrackRole, notes: Sequence[Note]) -> SongState:
    """The song with one role's track playing `notes` (song time) instead; added if missing."""
    total = sum(s.bars for s in song.arrangement.sections) * 4 if song.arrangement else 64
    region = Region(id=new_id(random.Random(role)), name=role, start_beat=0, length_beats=total)
    region = region.model_copy(update={"notes": list(notes)})
    tracks = [t for t in song.tracks if t.role != role]
    old = next((t for t in song.tracks if t.role == role), None)
    track = old or Track(id=new_id(random.Random(role)), name=role.title(), role=role, channel=5)
    return song.model_copy(
        update={"tracks": [*tracks, track.model_copy(update={"regions": [region]})]}
    )


def notes_of(song: SongState, role: TrackRole) -> list[Note]:
    """One role's notes in song time."""
    return [
        n.model_copy(update={"start_beat": r.start_beat + n.start_beat})
        for t in song.tracks
        if t.role == role
        for r in t.regions
        for n in r.notes
    ]
