"""Songs built by hand for the io tests: a progression in a key, drums, bass, chords and lead."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from muse_tui.contracts import (
    Arrangement,
    ComposerPipeline,
    EnrichedProgression,
    Note,
    PresetAssignment,
    PresetReference,
    ProgressionChord,
    Region,
    Section,
    SongState,
    StageRecord,
    Track,
    TrackRole,
    new_id,
    new_session_id,
)
from muse_tui.theory import parse_chord, parse_key, parse_roman, voice

NUMERALS = {
    "major": ["I", "vi", "IV", "V"],
    "minor": ["i", "VI", "iv", "V"],
    "dorian": ["i", "IV", "i", "v"],
    "mixolydian": ["I", "bVII", "IV", "I"],
}
FOUR_ROLES: tuple[TrackRole, ...] = ("drums", "bass", "chords", "lead")
CHANNELS = {"drums": 9, "bass": 1, "chords": 2, "lead": 3, "pad": 4, "keys": 5}
NAMES = {"drums": "Drums", "bass": "Bass", "chords": "Keys", "lead": "Lead", "pad": "Pad"}


def ids(seed: int = 1) -> random.Random:
    return random.Random(seed)


def progression_in(
    tonic: str, mode: str, numerals: Sequence[str] | None = None
) -> EnrichedProgression:
    """Four chords of the key, one bar each, voiced close around middle C."""
    key = parse_key(f"{tonic} {mode}")
    chords = []
    for numeral in numerals or NUMERALS[key.mode]:
        chord = parse_roman(numeral, key)
        chords.append(
            ProgressionChord(
                symbol=chord.symbol,
                roman=numeral,
                voicing=list(voice(chord, "close", 52, 76)),
                beats=4,
            )
        )
    return EnrichedProgression(key=key.tonic, mode=key.mode, chords=chords)


def _section(
    name: str,
    kind: str,
    start_bar: int,
    bars: int,
    energy: float,
    roles: Sequence[TrackRole],
    **more: Any,
) -> Section:
    """One section of the test arrangement; `more` sets fields such as its transition."""
    return Section(
        name=name,
        kind=kind,  # type: ignore[arg-type]
        start_bar=start_bar,
        bars=bars,
        energy=energy,
        active_roles=list(roles),
        **more,
    )


def three_sections(
    intro: Sequence[TrackRole] = ("drums", "chords"),
    verse: Sequence[TrackRole] = ("drums", "bass", "chords"),
    chorus: Sequence[TrackRole] = FOUR_ROLES,
    verse_transition: str = "none",
) -> Arrangement:
    """Intro (bars 1–4), Verse (5–12), Chorus (13–20)."""
    return Arrangement(
        template="test",
        sections=[
            _section("Intro", "intro", 0, 4, 0.3, intro),
            _section("Verse", "verse", 4, 8, 0.5, verse, transition=verse_transition),
            _section("Chorus", "chorus", 12, 8, 0.9, chorus),
        ],
    )


def build_song(
    tonic: str = "A",
    mode: str = "minor",
    *,
    roles: Sequence[TrackRole] = FOUR_ROLES,
    arrangement: Arrangement | None = None,
    bars: int | None = None,
    tempo: float = 92,
    title: str = "Late Night",
    genre: str = "neo-soul",
    seed: int = 1,
) -> SongState:
    """A song whose every track plays all the way through; the arrangement decides who sounds."""
    rng = ids(seed)
    progression = progression_in(tonic, mode)
    total = bars or (arrangement.total_bars if arrangement else 8)
    tracks = []
    for role in roles:
        notes = list(_part(role, progression, total))
        region = Region(
            id=new_id(rng), name=f"{role} part", start_beat=0, length_beats=total * 4, notes=notes
        )
        tracks.append(
            Track(
                id=new_id(rng),
                name=NAMES.get(role, role.title()),
                role=role,
                channel=CHANNELS.get(role, 0),
                regions=[region],
            )
        )
    return SongState(
        seed=seed,
        title=title,
        genre=genre,
        tempo=tempo,
        key=progression.key,
        mode=progression.mode,
        tracks=tracks,
        arrangement=arrangement,
        progression=progression,
    )


def notes_in_active_sections(song: SongState) -> int:
    """How many notes start inside a section where their track plays (all, without sections)."""
    if song.arrangement is None:
        return sum(len(t.notes) for t in song.tracks)
    count = 0
    for track in song.tracks:
        for note in track.notes:
            bar = int(note.start_beat // song.beats_per_bar)
            section = next(
                (s for s in song.arrangement.sections if s.start_bar <= bar < s.end_bar), None
            )
            count += section is not None and track.role in section.active_roles
    return count


def pipeline_for(
    song: SongState,
    prompt: str = "late-night neo-soul, Frank Ocean meets Burial",
    *,
    session_id: str | None = None,
    created_at: str = "2026-11-22T02:00:00+00:00",
    status: str = "completed",
    seed: int = 7,
) -> ComposerPipeline:
    """A finished pipeline around `song`, with a timing for every stage."""
    rng = ids(seed)
    stages = {
        n: StageRecord(stage=n, name=name, status="completed", duration_ms=10.0 * n)
        for n, name in enumerate(
            [
                "Intent",
                "Harmony",
                "Arrangement",
                "Parts",
                "Sounds",
                "Assembly",
                "Validation",
                "Output",
            ],
            start=1,
        )
    }
    return ComposerPipeline(
        pipeline_id=new_id(rng),
        session_id=session_id or new_session_id(datetime(2026, 11, 22), rng),
        raw_prompt=prompt,
        status=status,  # type: ignore[arg-type]
        current_stage=8,
        stages=stages,
        song_state=song,
        created_at=created_at,
        updated_at=created_at,
    )


def presets_for(song: SongState) -> list[PresetAssignment]:
    """A described sound for every track, as S5 would choose."""
    sounds = {
        "drums": ("DrumSynth", "Dusty Neo-Soul Kit", "drums", None),
        "bass": ("TubeSynth", "Round Finger Bass", "bass", 33),
        "chords": ("Electric", "Warm Rhodes Mk I", "keys", 4),
        "lead": ("Bassline", "Soft Square Lead", "lead", 80),
        "pad": ("TubeSynth", "Velvet Pad", "pad", 89),
    }
    result = []
    for track in song.tracks:
        engine, name, category, program = sounds[track.role]
        preset = PresetReference(
            id=f"{track.role}-1", engine=engine, name=name, category=category, gm_program=program
        )
        result.append(
            PresetAssignment(
                track_id=track.id,
                preset=preset,
                confidence=0.8,
                reasoning=f"{name} suits the {track.role}",
            )
        )
    return result


def _part(role: str, progression: EnrichedProgression, bars: int) -> list[Note]:
    notes: list[Note] = []
    for bar in range(bars):
        chord = progression.chords[bar % len(progression.chords)]
        at = bar * 4.0
        if role == "drums":
            notes += [
                Note(pitch=36, velocity=100, start_beat=at + b, duration_beats=0.25) for b in (0, 2)
            ]
            notes += [
                Note(pitch=38, velocity=96, start_beat=at + b, duration_beats=0.25) for b in (1, 3)
            ]
            notes += [
                Note(pitch=42, velocity=70, start_beat=at + b / 2, duration_beats=0.25)
                for b in range(8)
            ]
        elif role in ("bass", "sub_bass"):
            root = 36 + parse_chord(chord.symbol).root_pc
            notes += [
                Note(pitch=root, velocity=90, start_beat=at + b, duration_beats=1.5) for b in (0, 2)
            ]
        elif role in ("chords", "keys", "pad"):
            notes += [
                Note(pitch=p, velocity=72, start_beat=at, duration_beats=3.5) for p in chord.voicing
            ]
        else:
            tones = sorted(p + 12 for p in chord.voicing)
            for beat, index in enumerate((0, 1, 2, 1)):
                notes.append(
                    Note(pitch=tones[index], velocity=84, start_beat=at + beat, duration_beats=0.9)
                )
    return notes
