"""A small, fixed song for the studio's screens: four sections, four parts, real-looking notes."""

from __future__ import annotations

import random

from muse_tui.contracts import Arrangement, Note, Region, Section, SongState, Track, new_id

KICK, SNARE, CLOSED_HAT, OPEN_HAT = 36, 38, 42, 46
SECTIONS = [
    Section(name="Intro", kind="intro", start_bar=0, bars=4, energy=0.3,
            active_roles=["chords", "pad"]),
    Section(name="Verse", kind="verse", start_bar=4, bars=8, energy=0.55,
            active_roles=["drums", "bass", "chords"]),
    Section(name="Hook", kind="hook", start_bar=12, bars=8, energy=0.9,
            active_roles=["drums", "bass", "chords", "lead"]),
    Section(name="Outro", kind="outro", start_bar=20, bars=4, energy=0.25, active_roles=["chords"]),
]  # fmt: skip
ARC = (
    [0.2, 0.25, 0.3, 0.4]
    + [0.5, 0.55, 0.55, 0.6] * 2
    + [0.85, 0.9, 0.95, 0.9] * 2
    + [0.4, 0.3, 0.2, 0.1]
)
PROGRESSION = [(60, 63, 67), (56, 60, 63), (63, 67, 70), (58, 62, 65)]  # Cm Ab Eb Bb


def _region(rng: random.Random, name: str, bars: range, notes: list[Note]) -> Region:
    start = bars.start * 4
    placed = [n.model_copy(update={"start_beat": n.start_beat - start}) for n in notes]
    return Region(
        id=new_id(rng), name=name, start_beat=start, length_beats=len(bars) * 4, notes=placed
    )


def _track(rng: random.Random, role: str, channel: int, colour: str, notes: list[Note]) -> Track:
    region = _region(rng, role, range(0, 24), notes)
    return Track(
        id=new_id(rng),
        name=role.title(),
        role=role,
        channel=channel,
        color=colour,
        regions=[region],
    )


def _note(beat: float, length: float, pitch: int, velocity: int) -> Note:
    return Note(start_beat=beat, duration_beats=length, pitch=pitch, velocity=velocity)


def studio_song() -> SongState:
    """24 bars in C minor at 140 BPM: drums and bass from the verse, lead in the hook."""
    rng = random.Random(20261122)
    drums, bass, chords, lead = [], [], [], []
    for bar in range(24):
        beat0 = bar * 4
        chord = PROGRESSION[bar % 4]
        chords += [_note(beat0, 3.75, p, 72 + (bar % 4) * 8) for p in chord]
        if 4 <= bar < 20:
            for b in range(4):
                drums.append(
                    _note(beat0 + b, 0.25, KICK if b % 2 == 0 else SNARE, 118 if b == 0 else 96)
                )
                drums.append(_note(beat0 + b, 0.25, CLOSED_HAT, 70))
                drums.append(_note(beat0 + b + 0.5, 0.25, CLOSED_HAT if b < 3 else OPEN_HAT, 52))
            root = chord[0] - 24
            bass += [_note(beat0, 1.5, root, 100), _note(beat0 + 2.5, 0.5, root + 7, 80),
                     _note(beat0 + 3, 1.0, root + 12, 64)]  # fmt: skip
        if 12 <= bar < 20:
            melody = [75, 74, 72, 70, 72, 67]
            for i, b in enumerate((0, 0.75, 1.5, 2, 2.5, 3)):
                lead.append(_note(beat0 + b, 0.5, melody[(i + bar) % 6] + 12, 60 + 10 * (i % 4)))
    return SongState(
        seed=7,
        title="Late night, Eb",
        genre="uk_garage",
        tempo=140,
        key="C",
        mode="minor",
        tracks=[
            _track(rng, "drums", 9, "#e8552d", drums),
            _track(rng, "bass", 1, "#4f86c6", bass),
            _track(rng, "chords", 2, "#5cc279", chords),
            _track(rng, "lead", 3, "#f2a33a", lead),
        ],
        arrangement=Arrangement(template="uk_garage", sections=SECTIONS, energy_arc=ARC),
    )
