"""Named sounds played in their player's role, read back from the written MIDI file (issue 30).

The producer panel heard a clavinet and a nylon guitar held as pads, a log drum played
as a marimba tune, a tin whistle as an arpeggiator, a country ballad's snare rolling
16ths, and a vinyl crackle bed that was the same in every section.
"""

from __future__ import annotations

import statistics
from itertools import combinations, pairwise
from pathlib import Path

import mido

from muse_tui.contracts import PipelineConfig, SongState
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages

from .test_articulation import DRUM_CHANNEL, TOLERANCE, Played, played

SIXTEENTH, EIGHTH = 0.25, 0.5
#: How far (beats) a humanised, swung onset may sit from its 16th.
NEAR_GRID = 0.09


def comping(tracks: list[Played], program: int) -> Played:
    """The track on `program` that is not the instrument's melody twin."""
    found = [
        t
        for t in tracks
        if t.program == program and t.channel != DRUM_CHANNEL and not t.name.endswith("Melody")
    ]
    assert found, f"no comping track on {program}: {[(t.name, t.program) for t in tracks]}"
    return found[0]


def on_sixteenths(track: Played) -> float:
    starts = [s for s, _, _, _ in track.notes]
    near = [s for s in starts if abs(s / SIXTEENTH - round(s / SIXTEENTH)) * SIXTEENTH <= NEAR_GRID]
    return len(near) / len(starts)


def durations(track: Played) -> list[float]:
    return [end - start for start, end, _, _ in track.notes]


def test_clavinet_comps_short_sixteenth_stabs_on_any_seat(tmp_path: Path) -> None:
    for prompt in (
        "funky clavinet groove, 16 bars",
        "dreamy neo soul, clavinet, warm pad, 16 bars",
    ):
        clav = comping(played(tmp_path / prompt[:5], prompt), 7)
        lengths = durations(clav)
        assert len(lengths) >= 32
        assert max(lengths) <= EIGHTH + TOLERANCE, f"{prompt}: a clav note holds {max(lengths)}"
        assert statistics.median(lengths) <= SIXTEENTH, prompt
        assert on_sixteenths(clav) >= 0.9, prompt


def test_nylon_guitar_is_fingerpicked_not_held(tmp_path: Path) -> None:
    """An arpeggio: most onsets strike one string, the notes ring a beat at most."""
    guitar = comping(played(tmp_path, "trip hop, 90 BPM, nylon guitar, clavinet, 16 bars"), 24)
    onsets: dict[float, int] = {}
    for start, _, _, _ in guitar.notes:
        onsets[round(start, 2)] = onsets.get(round(start, 2), 0) + 1
    struck_together = sum(1 for n in onsets.values() if n > 1) / len(onsets)
    assert struck_together <= 0.35, f"{struck_together:.0%} of onsets are chords"
    assert max(durations(guitar)) <= 1.0 + TOLERANCE


def test_bossa_nova_nylon_guitar_plays_the_batida(tmp_path: Path) -> None:
    """The thumb on the beats, the fingers' short pinches on the syncopation."""
    guitar = comping(played(tmp_path, "bossa nova with nylon guitar, 16 bars"), 24)
    assert statistics.median(durations(guitar)) <= EIGHTH
    offbeat = [s for s, _, _, _ in guitar.notes if abs(s - round(s)) > SIXTEENTH / 2]
    assert len(offbeat) / len(guitar.notes) >= 0.3, "no syncopated pinches"


def test_log_drum_plays_short_syncopated_low_bass(tmp_path: Path) -> None:
    for prompt in (
        "amapiano with log drums, 16 bars",
        "deep house, 122 BPM, log drums, marimba, 16 bars",
    ):
        tracks = played(tmp_path / prompt[:5], prompt)
        log = next(t for t in tracks if t.name == "Log Drum")
        pitches = [p for _, _, p, _ in log.notes]
        assert log.channel != DRUM_CHANNEL
        assert max(pitches) <= 52, f"{prompt}: a log drum at {max(pitches)}: a marimba tune"
        assert statistics.median(durations(log)) <= EIGHTH, prompt
        offbeat = [s for s, _, _, _ in log.notes if abs(s - round(s)) > SIXTEENTH / 2]
        assert len(offbeat) / len(log.notes) >= 0.3, f"{prompt}: not syncopated"


def test_tin_whistle_plays_a_stepwise_line_in_its_register(tmp_path: Path) -> None:
    """Seated on the lead or on an arp beside a named lead, one line, by step, D5 up."""
    for prompt in (
        "irish folk tune with tin whistle, 110 bpm, 16 bars",
        "melancholic ambient, 70 BPM, tin whistle, supersaw lead, 16 bars",
    ):
        whistle = comping(played(tmp_path / prompt[:5], prompt), 78)
        notes = whistle.notes
        assert len(notes) >= 8
        assert not [(a, b) for a, b in pairwise(notes) if b[0] < a[1] - 1e-6], "two at once"
        pitches = [p for _, _, p, _ in notes]
        assert min(pitches) >= 74 and max(pitches) <= 93, f"{prompt}: {min(pitches)}-{max(pitches)}"
        steps = [abs(b - a) for a, b in pairwise(pitches)]
        assert statistics.median(steps) <= 2, prompt
        leaps = [step for step in steps if step > 7]  # a fifth and a cut's grace over it
        assert len(leaps) <= len(steps) / 20, f"{prompt}: leaps of {leaps}"


def test_country_ballad_plays_a_backbeat_not_a_train_beat(tmp_path: Path) -> None:
    """Cross-stick or snare on 2 and 4, never the train beat's 16th snare: at most four
    snare hits a bar, a pickup fill now and then and the section's closing fill aside."""
    song, midi = composed(tmp_path, "country ballad, 72, 16 bars")
    drums = [(b, p) for b, p, _ in notes_of(midi, "Drums")]
    fill_bars = {s.end_bar - 1 for s in song.arrangement.sections}
    snare_by_bar: dict[int, int] = {}
    backbeat_bars: set[int] = set()
    for start, pitch in drums:
        bar, beat = int(start // 4), start % 4
        if pitch in (38, 40):
            snare_by_bar[bar] = snare_by_bar.get(bar, 0) + 1
        if pitch in (37, 38, 40) and min(abs(beat - 1), abs(beat - 3)) < 0.1:
            backbeat_bars.add(bar)
    played_bars = {int(start // 4) for start, _ in drums}
    rolling = [b for b, n in snare_by_bar.items() if n >= 8 and b not in fill_bars]
    assert not rolling, f"the snare rolls 16ths in bars {rolling}"
    busy = [b for b, n in snare_by_bar.items() if n > 4 and b not in fill_bars]
    assert len(busy) <= len(played_bars) / 8, f"more than 4 snare hits in bars {busy}"
    assert len(backbeat_bars) >= 0.75 * len(played_bars)


def test_vinyl_crackle_bed_follows_the_sections(tmp_path: Path) -> None:
    """No two sections of a kind lay the same bed; it sits lower under a fuller section."""
    song, midi = composed(tmp_path, "lo-fi hip hop with vinyl crackle, 80 bpm", seed=5)
    notes = notes_of(midi, "Vinyl Crackle")
    sections = song.arrangement.sections
    laid = {}
    for section in sections:
        start, end = song.bar_beat(section.start_bar), song.bar_beat(section.end_bar)
        laid[section.name] = [(round(b - start, 1), v) for b, _, v in notes if start <= b < end]
    pairs = [
        (a, b)
        for a, b in combinations(sections, 2)
        if a.kind == b.kind and laid[a.name] and laid[b.name]
    ]
    assert pairs, "the song has no two sections of a kind with a bed"
    for a, b in pairs:
        assert [t for t, _ in laid[a.name]] != [t for t, _ in laid[b.name]], f"{a.name} = {b.name}"
    playing_sections = [s for s in sections if laid[s.name]]
    quiet = min(playing_sections, key=lambda s: s.energy)
    full = max(playing_sections, key=lambda s: s.energy)
    velocity = {s.name: statistics.mean(v for _, v in laid[s.name]) for s in (quiet, full)}
    assert velocity[full.name] < velocity[quiet.name]


def composed(tmp_path: Path, prompt: str, seed: int = 1) -> tuple[SongState, mido.MidiFile]:
    engine = Orchestrator(product_stages(), tmp_path)
    config = PipelineConfig(approval_gates=[])
    run = run_blocking(engine.run(prompt, seed=seed, config=config))
    assert run.status == "completed", run.status
    midi = mido.MidiFile(str(tmp_path / run.session_id / "midi" / "full-arrangement.mid"))
    return run.song_state, midi


def notes_of(midi: mido.MidiFile, name: str) -> list[tuple[float, int, int]]:
    """The named track's note onsets: (beat, pitch, velocity)."""
    track = next(t for t in midi.tracks if t.name == name)
    now, notes = 0, []
    for message in track:
        now += message.time
        if message.type == "note_on" and message.velocity > 0:
            notes.append((now / midi.ticks_per_beat, message.note, message.velocity))
    return notes
