"""Leads as a listener hears them: songs composed through the pipeline, read back from their MIDI.

Each prompt gets a lead today; the figures are the listening benchmark's own
(`bench/listening/metrics.py`), so the tests and the benchmark agree on what
"rests", "a motif recurs" and "the hook comes back" mean.
"""

from __future__ import annotations

import itertools
import json

import pytest

from bench.listening import metrics as m
from bench.listening.heard import HeardNote, HeardSong, read_session
from muse_tui.compose.arrangement import chords_for_section
from muse_tui.contracts import PipelineConfig, SongState
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages
from muse_tui.theory.chord import parse_chord

PROMPTS = {
    "trap bells": "eerie trap with bells, drums 808 lead",
    "piano ballad": "sad piano ballad with lead",
    "neo soul sax": "neo soul with sax, drums bass keys lead",
    "city pop": "city pop with sax",
    "house": "house, drums bass chords lead",
    "country fiddle": "country with fiddle, drums bass chords lead",
    "pop": "pop song",
}
HOOK_BARS = 4


@pytest.fixture(scope="module")
def songs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[HeardSong, SongState]]:
    """Every prompt composed once (seed 3), as heard and as the song state says it."""
    root = tmp_path_factory.mktemp("sessions")
    engine = Orchestrator(product_stages(), root)
    composed = {}
    for name, prompt in PROMPTS.items():
        config = PipelineConfig(approval_gates=[])
        pipeline = run_blocking(engine.run(prompt, seed=3, config=config))
        folder = root / pipeline.session_id
        state = SongState.model_validate(
            json.loads((folder / "state" / "song-state.json").read_text())
        )
        composed[name] = (read_session(folder), state)
    return composed


def lead(song: HeardSong) -> list[HeardNote]:
    notes = m.lead_notes(song)
    assert m.lead_present(song), "no lead to judge"
    return notes


@pytest.mark.parametrize("name", PROMPTS)
def test_the_lead_breathes(songs: dict[str, tuple[HeardSong, SongState]], name: str) -> None:
    song, _ = songs[name]
    rest = m.rest_share(lead(song), song.sections, song.beats_per_bar)
    assert 0.2 <= rest <= 0.6, f"{name}: the lead rests {rest:.0%} of the time"


@pytest.mark.parametrize("name", PROMPTS)
def test_every_chorus_repeats_a_two_bar_idea(
    songs: dict[str, tuple[HeardSong, SongState]], name: str
) -> None:
    song, _ = songs[name]
    notes, bpb = lead(song), song.beats_per_bar
    choruses = m.choruses(song)
    assert choruses, f"{name}: no chorus, hook or drop"
    for chorus in choruses:
        heard = m.section_notes(notes, chorus, bpb)
        assert m.motif_recurs(heard, chorus.bars, bpb), f"{name} {chorus.name}: no unit recurs"


#: House is DJ-shaped: grooves around one drop (skills/harmony/arrangement-templates.json),
#: so it has no second chorus to bring a hook back in.
ONE_PEAK = {"house"}


@pytest.mark.parametrize("name", [n for n in PROMPTS if n not in ONE_PEAK])
def test_the_second_chorus_brings_back_the_hook(
    songs: dict[str, tuple[HeardSong, SongState]], name: str
) -> None:
    song, _ = songs[name]
    notes, bpb = lead(song), song.beats_per_bar
    choruses = m.choruses(song)
    assert len(choruses) >= 2, f"{name}: one chorus only"
    first, second = (m.section_notes(notes, c, bpb) for c in choruses[:2])
    agreement = m.hook_agreement(first, second, HOOK_BARS * bpb)
    assert agreement >= 0.7, f"{name}: the hooks agree only {agreement:.2f}"


@pytest.mark.parametrize("name", PROMPTS)
def test_the_lead_bars_come_back(songs: dict[str, tuple[HeardSong, SongState]], name: str) -> None:
    song, _ = songs[name]
    # By rhythm and contour: a repeated section's line moved along the scale or re-sung on
    # the motif's rhythm (skills/melody/phrases.json `repeats`) is the motif come back.
    different, bars = m.lead_bar_contours(lead(song), song.beats_per_bar)
    assert different / bars < 0.5, f"{name}: {different} different bars of {bars}"


@pytest.mark.parametrize("name", PROMPTS)
def test_phrases_end_on_a_chord_tone(
    songs: dict[str, tuple[HeardSong, SongState]], name: str
) -> None:
    song, state = songs[name]
    ends = phrase_ends(lead(song), song)
    chord_tones = [n.pitch % 12 in sounding(state, n.start) for n in ends]
    assert len(chord_tones) >= 8, f"{name}: too few phrase ends to judge"
    share = sum(chord_tones) / len(chord_tones)
    assert share >= 0.8, f"{name}: {share:.0%} of phrase ends on a chord tone"


@pytest.mark.parametrize("name", PROMPTS)
def test_the_lead_keeps_to_a_singable_range_one_note_at_a_time(
    songs: dict[str, tuple[HeardSong, SongState]], name: str
) -> None:
    song, _ = songs[name]
    notes = lead(song)
    pitches = [n.pitch for n in notes]
    assert max(pitches) - min(pitches) <= 19, f"{name}: spans {max(pitches) - min(pitches)}"
    for a, b in itertools.pairwise(notes):
        assert a.start + a.length <= b.start + 1e-6, f"{name}: two notes at once at {b.start}"


@pytest.mark.parametrize("name", PROMPTS)
def test_the_lead_does_not_double_the_bass_or_the_chords_top_voice(
    songs: dict[str, tuple[HeardSong, SongState]], name: str
) -> None:
    song, _ = songs[name]
    notes = lead(song)
    for role in ("bass", "sub_bass", "chords", "keys"):
        for track in song.tracks_with_role(role):
            tops: dict[int, int] = {}
            for n in track.notes:
                tops[m.step(n.start)] = max(tops.get(m.step(n.start), 0), n.pitch)
            doubled = sum(tops.get(m.step(n.start)) == n.pitch for n in notes)
            assert doubled / len(notes) <= 0.15, f"{name}: the lead doubles the {role}"


def phrase_ends(notes: list[HeardNote], song: HeardSong) -> list[HeardNote]:
    """Notes followed by a breath of a beat or more, or by the end of their section."""
    bpb = song.beats_per_bar
    ends = []
    for section in song.sections:
        lo, hi = section.start_bar * bpb, (section.start_bar + section.bars) * bpb
        heard = [n for n in notes if lo <= n.start < hi]
        for note, after in zip(heard, [*heard[1:], None], strict=False):
            if after is None or after.start - (note.start + note.length) >= 1 - 1e-6:
                ends.append(note)
    return ends


def sounding(state: SongState, beat: float) -> frozenset[int]:
    """Pitch classes of the chord sounding at `beat` (song time, on the 16th grid)."""
    assert state.arrangement is not None and state.progression is not None
    at = round(beat * 4) / 4
    for section in state.arrangement.sections:
        for placed in chords_for_section(section, state.progression, state.beats_per_bar):
            if placed.start_beat <= at < placed.end_beat:
                return parse_chord(placed.chord.symbol).pitch_classes
    return frozenset()
