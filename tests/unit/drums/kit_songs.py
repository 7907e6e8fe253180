"""Drum tracks written by the part writer and the SMF writer, then read back as a listener would.

Each genre plays an intro, a verse, a chorus and an outro at its own default tempo, from its
real genre DNA; the drum track is written to a MIDI file and read back with mido, so the tests
hear what MPC Beats would load.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass
from functools import cache

import mido

from muse_tui.compose.parts import choose_tracks, write_part
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import Arrangement, PipelineIntent, Section, SongState
from muse_tui.knowledge.genres import genre_table
from muse_tui.store.smf import midi_bytes, track_to_midifile

KICK = frozenset({35, 36})
SNARE = frozenset({38, 40})
CLAP = frozenset({39})
RIM = frozenset({37})
BACKBEAT = SNARE | CLAP | RIM
HATS = frozenset({42, 44, 46})
OPEN_HAT = frozenset({46})
RIDE = frozenset({51, 59})
COWBELL = frozenset({56})
TOMS_AND_CONGAS = frozenset({41, 43, 45, 47, 48, 50, 62, 63, 64})

SECTIONS = (
    Section(name="Intro", kind="intro", start_bar=0, bars=4, energy=0.3),
    Section(name="Verse", kind="verse", start_bar=4, bars=8, energy=0.6),
    Section(name="Chorus", kind="chorus", start_bar=12, bars=8, energy=0.85),
    Section(name="Outro", kind="outro", start_bar=20, bars=4, energy=0.3),
)


@dataclass(frozen=True)
class Hit:
    """One drum note as read back from the file: where (in beats), which key, how hard."""

    beat: float
    pitch: int
    velocity: int

    @property
    def step(self) -> int:
        """The 16th of the bar it sounds on (humanised timing rounds back to its step)."""
        return round(self.beat * 4) % 16


@dataclass(frozen=True)
class DrumTake:
    """A genre's drum track, read back: every hit and the song it was written for."""

    genre: str
    tempo: float
    hits: tuple[Hit, ...]

    def section(self, name: str) -> list[Hit]:
        found = next(s for s in SECTIONS if s.name == name)
        start, end = found.start_bar * 4, found.end_bar * 4
        return [h for h in self.hits if start - 0.1 <= h.beat < end - 0.1]

    def main_bar(self, name: str) -> dict[str, frozenset[int]]:
        """The section's most played bar, as the steps each voice group plays in it."""
        by_bar: dict[int, list[Hit]] = {}
        for hit in self.section(name):
            by_bar.setdefault(round(hit.beat * 4) // 16, []).append(hit)
        shapes = Counter(_shape(hits) for hits in by_bar.values())
        best = shapes.most_common(1)[0][0]
        return {voice: steps for voice, steps in best}

    def steps(self, name: str, pitches: frozenset[int]) -> frozenset[int]:
        """The steps of the main bar a set of drum keys plays on."""
        bar = self.main_bar(name)
        return frozenset().union(*(bar.get(str(p), frozenset()) for p in pitches))


def _shape(hits: list[Hit]) -> tuple[tuple[str, frozenset[int]], ...]:
    voices: dict[str, set[int]] = {}
    for hit in hits:
        voices.setdefault(str(hit.pitch), set()).add(hit.step)
    return tuple(sorted((v, frozenset(s)) for v, s in voices.items()))


def genre_intent(genre: str) -> PipelineIntent:
    dna = genre_table().genres[genre]
    return PipelineIntent(genre=[genre], raw_prompt=f"a {genre} beat", genre_dna=dna)


@cache
def drum_take(genre: str, seed: int = 1) -> DrumTake:
    """The genre's drum track for one song seed, written to MIDI and read back."""
    intent = genre_intent(genre)
    assert intent.genre_dna is not None
    tempo = intent.genre_dna.tempo_default
    song = SongState(
        seed=seed,
        tempo=tempo,
        key="C",
        mode="minor",
        arrangement=Arrangement(template="test", sections=list(SECTIONS)),
    )
    track = next(t for t in choose_tracks(intent, derive_rng(seed, "tracks")) if t.role == "drums")
    regions = [
        write_part(track, song, intent, section, derive_rng(seed, "drums", section.kind))
        for section in SECTIONS
    ]
    track = track.model_copy(update={"regions": regions})
    written = mido.MidiFile(file=io.BytesIO(midi_bytes(track_to_midifile(song, track))))
    return DrumTake(genre, tempo, tuple(_read(written)))


def _read(midi: mido.MidiFile) -> list[Hit]:
    hits = []
    for track in midi.tracks:
        tick = 0
        for message in track:
            tick += message.time
            if message.type == "note_on" and message.velocity and message.channel == 9:
                hits.append(Hit(tick / midi.ticks_per_beat, message.note, message.velocity))
    return sorted(hits, key=lambda h: h.beat)
