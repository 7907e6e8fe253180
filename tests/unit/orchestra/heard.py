"""Compose a song through the real pipeline and read back what its MIDI file plays."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from tempfile import mkdtemp

import mido

from muse_tui.compose.dials import creativity_of
from muse_tui.contracts import PipelineConfig, SongState
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages
from muse_tui.theory.drums import KICK, KICK_ACOUSTIC

HARMONY_ROLES = ("chords", "keys", "pad", "arp")


@dataclass(frozen=True)
class Played:
    """A note as the file plays it, in beats from the song start."""

    start: float
    length: float
    pitch: int
    velocity: int = 100

    @property
    def step(self) -> int:
        """The nearest 16th-note step."""
        return round(self.start * 4)


@dataclass
class Part:
    """One track of the written file, with the role the song gave it."""

    name: str
    role: str
    program: int | None
    notes: list[Played] = field(default_factory=list)
    bends: list[tuple[float, int]] = field(default_factory=list)
    #: (beat, controller, value) of every control change
    controls: list[tuple[float, int, int]] = field(default_factory=list)


@dataclass
class Heard:
    song: SongState
    parts: list[Part]
    #: the song's harmonic dial: the parts read the chords of `section_harmony` at it
    harmonic: float = 0.5

    def role(self, *roles: str) -> list[Part]:
        return [p for p in self.parts if p.role in roles]

    def bass(self) -> Part:
        return next(p for p in self.parts if p.role in ("bass", "sub_bass"))

    @property
    def kick_steps(self) -> set[int]:
        kicks = (KICK, KICK_ACOUSTIC)
        return {n.step for p in self.role("drums") for n in p.notes if n.pitch in kicks}

    @property
    def steps_per_bar(self) -> int:
        return round(self.song.beats_per_bar * 4)


@cache
def compose(prompt: str, seed: int = 1) -> Heard:
    """The song a prompt makes (cached: several tests listen to the same song)."""
    sessions = Path(mkdtemp(prefix="muse-orchestra-"))
    engine = Orchestrator(product_stages(), sessions)
    config = PipelineConfig(approval_gates=[])
    pipeline = run_blocking(engine.run(prompt, seed=seed, config=config))
    (session,) = [p for p in sessions.iterdir() if p.is_dir()]
    song = pipeline.song_state
    parts = _parts(session / "midi" / "full-arrangement.mid", song)
    return Heard(song, parts, creativity_of(pipeline.intent).harmonic)


def _parts(path: Path, song: SongState) -> list[Part]:
    midi = mido.MidiFile(str(path))
    per_beat = midi.ticks_per_beat
    tracks = iter(song.tracks)  # the file's tracks follow the song's, after the tempo track
    parts = []
    for smf in midi.tracks[len(midi.tracks) - len(song.tracks) :]:
        tick, name, program = 0, "", None
        sounding: dict[int, tuple[float, int]] = {}
        part = Part("", "", None)
        for message in smf:
            tick += message.time
            beat = tick / per_beat
            if message.type == "track_name":
                name = message.name
            elif message.type == "program_change":
                program = message.program
            elif message.type == "pitchwheel":
                part.bends.append((beat, message.pitch))
            elif message.type == "control_change":
                part.controls.append((beat, message.control, message.value))
            elif message.type == "note_on" and message.velocity:
                sounding[message.note] = (beat, message.velocity)
            elif message.type in ("note_on", "note_off") and message.note in sounding:
                start, velocity = sounding.pop(message.note)
                part.notes.append(Played(start, beat - start, message.note, velocity))
        track = next(tracks)
        assert name == track.name, f"file track {name!r} is not the song's {track.name!r}"
        part.name, part.role, part.program = name, track.role, program
        part.notes.sort(key=lambda n: (n.start, n.pitch))
        parts.append(part)
    return parts


def doubling(a: Part, b: Part) -> float:
    """Share of the sparser part's (16th step, pitch) pairs the other plays too."""
    sa = {(n.step, n.pitch) for n in a.notes}
    sb = {(n.step, n.pitch) for n in b.notes}
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / min(len(sa), len(sb))


def worst_doubling(heard: Heard) -> float:
    pairs = itertools.combinations([p for p in heard.role(*HARMONY_ROLES) if p.notes], 2)
    return max((doubling(a, b) for a, b in pairs), default=0.0)


def most_sounding(parts: list[Part]) -> int:
    """The most notes these parts sound at one instant."""
    events = [(n.start, 1) for p in parts for n in p.notes]
    events += [(n.start + n.length, -1) for p in parts for n in p.notes]
    events.sort()
    now = peak = 0
    for _, change in events:
        now += change
        peak = max(peak, now)
    return peak
