"""Each named instrument is played as its player would: read back from the written MIDI file.

Palm-muted chugs are short and low, staccato strings and vocal chops short, a pedal
steel swells (CC 11) and bends into its notes, an acid line slides (one note held over
the next) and accents, a talking drum bends, hyperpop's drums stutter, and a bodhrán
band has no claps or crashes.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import mido
import pytest

from muse_tui.contracts import PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages

DRUM_CHANNEL = 9
SIXTEENTH, EIGHTH, THIRTY_SECOND = 0.25, 0.5, 0.125
TOLERANCE = 0.02  # beats: a tick or two of humanising


@dataclass
class Played:
    """One track of the full arrangement: program, notes (start, end, pitch, velocity),
    pitch bends and controller changes, in beats."""

    name: str
    channel: int | None = None
    program: int | None = None
    notes: list[tuple[float, float, int, int]] = field(default_factory=list)
    bends: list[tuple[float, int]] = field(default_factory=list)
    controls: list[tuple[float, int, int]] = field(default_factory=list)


def played(tmp_path: Path, prompt: str) -> list[Played]:
    engine = Orchestrator(product_stages(), tmp_path)
    run = run_blocking(engine.run(prompt, seed=1, config=PipelineConfig(approval_gates=[])))
    assert run.status == "completed", run.status
    midi = mido.MidiFile(str(tmp_path / run.session_id / "midi" / "full-arrangement.mid"))
    tracks = []
    for smf in midi.tracks:
        track, now, sounding = Played(smf.name), 0, {}
        for message in smf:
            now += message.time
            beat = now / midi.ticks_per_beat
            if message.type == "program_change":
                track.program = message.program
            elif message.type == "pitchwheel":
                track.bends.append((beat, message.pitch))
            elif message.type == "control_change":
                track.controls.append((beat, message.control, message.value))
            elif message.type == "note_on" and message.velocity > 0:
                track.channel = message.channel
                sounding[message.note] = (beat, message.velocity)
            elif message.type in ("note_on", "note_off") and message.note in sounding:
                start, velocity = sounding.pop(message.note)
                track.notes.append((start, beat, message.note, velocity))
        track.notes.sort()
        if track.notes:
            tracks.append(track)
    return tracks


def playing(tracks: list[Played], program: int) -> Played:
    found = [t for t in tracks if t.program == program and t.channel != DRUM_CHANNEL]
    assert found, f"no track on program {program}: {[(t.name, t.program) for t in tracks]}"
    return found[0]


def lengths(track: Played) -> list[float]:
    return [end - start for start, end, _, _ in track.notes]


def test_palm_muted_guitar_chugs_short_and_low(tmp_path: Path) -> None:
    guitar = playing(played(tmp_path, "heavy metal, palm-muted guitar, 16 bars"), 28)
    assert len(guitar.notes) >= 32
    assert max(lengths(guitar)) <= SIXTEENTH + TOLERANCE
    assert max(pitch for _, _, pitch, _ in guitar.notes) <= 59  # the low strings: up to B3
    assert min(pitch for _, _, pitch, _ in guitar.notes) >= 40  # the guitar's low E


@pytest.mark.parametrize(
    ("prompt", "program"),
    [
        ("cinematic, staccato strings, 16 bars", 48),
        ("lo-fi hip hop, pizzicato strings, 16 bars", 45),
        ("future bass, vocal chops, 16 bars", 85),
    ],
)
def test_short_articulations_play_an_eighth_or_less(
    tmp_path: Path, prompt: str, program: int
) -> None:
    track = playing(played(tmp_path, prompt), program)
    assert len(track.notes) >= 16
    assert max(lengths(track)) <= EIGHTH + TOLERANCE


def test_pedal_steel_swells_and_bends_on_its_own_patch(tmp_path: Path) -> None:
    tracks = played(tmp_path, "country, pedal steel, acoustic guitar, 16 bars")
    steel = next(t for t in tracks if t.name.startswith("Pedal Steel"))
    assert [t.program for t in tracks].count(steel.program) == 1, "it shares a patch"
    assert statistics.median(lengths(steel)) >= 1.0  # swells, not picked 8ths
    assert sum(1 for _, value in steel.bends if value < 0) >= 8  # bent up into the notes
    swells = [v for _, control, v in steel.controls if control in (7, 11)]
    assert len(set(swells)) >= 3


def sounding_together(track: Played) -> int:
    """The most notes the track sounds at once."""
    edges = sorted(
        [(start, 1) for start, _, _, _ in track.notes] + [(end, -1) for _, end, _, _ in track.notes]
    )
    most = now = 0
    for _, step in edges:
        now += step
        most = max(most, now)
    return most


@pytest.mark.parametrize(
    "prompt",
    ["country ballad with pedal steel, 32 bars", "country, harmonica lead, pedal steel, 16 bars"],
)
def test_pedal_steel_plays_grips_slides_and_fills_in_its_register(
    tmp_path: Path, prompt: str
) -> None:
    """The panel heard the steel hold high block chords (issue 30): it plays single notes
    and two-note grips (never more) in the E9 neck's E3-G5, slides a step with the bar
    (pitch bends both ways) and answers the phrases with short fills."""
    steel = next(t for t in played(tmp_path, prompt) if t.name.startswith("Pedal Steel"))
    assert sounding_together(steel) <= 2, "a block chord"
    starts = [start for start, _, _, _ in steel.notes]
    grips = sum(1 for a, b in pairwise(starts) if abs(a - b) < 1e-6)
    assert grips >= 1, "no double stop"
    pitches = [pitch for _, _, pitch, _ in steel.notes]
    assert min(pitches) >= 52 and max(pitches) <= 79
    assert any(value > 0 for _, value in steel.bends), "no slide down"
    assert any(value < 0 for _, value in steel.bends), "no bend up"
    fills = [n for n in steel.notes if n[1] - n[0] <= EIGHTH + TOLERANCE]
    assert len(fills) >= 3, "no fills between the phrases"


def test_acid_line_slides_and_accents(tmp_path: Path) -> None:
    acid = playing(played(tmp_path, "techno, acid 303 line, 16 bars"), 81)
    notes = acid.notes
    slides = sum(1 for a, b in pairwise(notes) if b[0] < a[1] - 1e-6)
    assert slides >= 8, "no note is held over the next one"
    velocities = [v for _, _, _, v in notes]
    assert max(velocities) >= statistics.median(velocities) * 1.1  # accented steps stand out
    assert statistics.median(lengths(acid)) <= EIGHTH
    assert any(control == 74 for _, control, _ in acid.controls)  # the filter moves


def test_talking_drum_bends_its_strokes(tmp_path: Path) -> None:
    drum = playing(played(tmp_path, "afrobeats, talking drum, 16 bars"), 117)
    assert len(drum.notes) >= 16
    assert max(lengths(drum)) <= EIGHTH + TOLERANCE
    assert sum(1 for _, value in drum.bends if value > 0) >= 8


def test_glitch_drums_hit_closer_than_a_32nd(tmp_path: Path) -> None:
    drums = [t for t in played(tmp_path, "hyperpop, 16 bars") if t.channel == DRUM_CHANNEL]
    onsets = sorted(start for t in drums for start, _, _, _ in t.notes)
    bursts = sum(1 for a, b in pairwise(onsets) if 1e-6 < b - a < THIRTY_SECOND)
    assert bursts >= 8


def test_a_bodhran_band_has_no_claps_or_crashes(tmp_path: Path) -> None:
    tracks = played(tmp_path, "folk, bodhran, fiddle, 16 bars")
    kit = [p for t in tracks if t.channel == DRUM_CHANNEL for _, _, p, _ in t.notes]
    assert sum(1 for p in kit if p in (41, 43, 45, 47)) >= 8  # the frame drum on the toms
    assert not [p for p in kit if p in (39, 49, 57)]


@pytest.mark.parametrize(
    ("prompt", "programs"),
    [
        ("jazz, trumpet, alto sax, 16 bars", [56, 65]),  # the sax seated on the chords
        ("country with pedal steel and harmonica, 16 bars", [22]),  # the harmonica on the pad
        ("funk, flute, trumpet, clarinet, 16 bars", [73, 56, 71]),
    ],
)
def test_a_wind_or_brass_player_sounds_one_note_at_a_time(
    tmp_path: Path, prompt: str, programs: list[int]
) -> None:
    """The panel heard a sax playing block chords (issue 30): given a harmony role, a
    one-voice instrument plays a line of guide tones, never two notes at once."""
    tracks = played(tmp_path, prompt)
    for program in programs:
        line = playing(tracks, program)
        assert len(line.notes) >= 8, f"program {program} plays {len(line.notes)} notes"
        overlaps = [(a, b) for a, b in pairwise(line.notes) if b[0] < a[1] - 1e-6]
        assert not overlaps, f"program {program} sounds two notes at once: {overlaps[:3]}"


@pytest.mark.parametrize(
    ("prompt", "program"),
    [
        ("lo-fi hip hop, vinyl crackle, 16 bars", 122),  # Seashore: GM's steady noise
        ("ambient in D minor with field recordings, 16 bars", 96),  # FX 1 (rain)
    ],
)
def test_a_sound_effect_holds_a_bed_not_a_melody(tmp_path: Path, program: int, prompt: str) -> None:
    """The panel heard vinyl crackle as Seashore playing a rising line up to C7 (issue 30):
    a noise or ambience is one held key, each note lasting bars."""
    bed = playing(played(tmp_path, prompt), program)
    assert len({pitch for _, _, pitch, _ in bed.notes}) == 1, "it plays a tune"
    assert min(lengths(bed)) >= 4.0 - TOLERANCE  # a bar or more each
    assert len(bed.notes) >= 2
