"""Each genre's bass plays its idiom, heard in the written MIDI file."""

from __future__ import annotations

import itertools
from collections import Counter
from statistics import median

import pytest

from muse_tui.contracts import EnrichedProgression, ProgressionChord
from tests.unit.parts.songs import intent, song, write_song

from .heard import Heard, compose


def _on_steps(heard: Heard, steps: set[int]) -> float:
    """Share of the bass's onsets that fall on these 16th steps of the bar."""
    notes = heard.bass().notes
    per_bar = heard.steps_per_bar
    return sum(1 for n in notes if n.step % per_bar in steps) / len(notes)


def _bars_with(heard: Heard, step: int) -> float:
    """Share of the bars with bass notes that have one starting on this 16th step."""
    per_bar = heard.steps_per_bar
    bars = {n.step // per_bar for n in heard.bass().notes}
    hit = {n.step // per_bar for n in heard.bass().notes if n.step % per_bar == step}
    return len(hit) / len(bars)


OFFBEATS = {2, 6, 10, 14}
BEATS = {0, 4, 8, 12}


def test_house_bass_sits_on_the_offbeats_between_the_kicks() -> None:
    heard = compose("house, 124 BPM, A minor")
    assert _on_steps(heard, OFFBEATS) >= 0.75
    on_kicks = sum(1 for n in heard.bass().notes if n.step in heard.kick_steps)
    assert on_kicks / len(heard.bass().notes) <= 0.2


def _moving_bars(heard: Heard, kind: str) -> int:
    """Bars of the first section of `kind` in which the bass plays more than one pitch."""
    per_bar = heard.steps_per_bar
    section = next(s for s in heard.song.arrangement.sections if s.kind == kind)
    bars: dict[int, set[int]] = {}
    for note in heard.bass().notes:
        if section.start_bar <= note.step // per_bar < section.start_bar + section.bars:
            bars.setdefault(note.step // per_bar, set()).add(note.pitch)
    return sum(1 for pitches in bars.values() if len(pitches) > 1)


def test_deep_house_bass_moves_inside_its_offbeat_groove() -> None:
    """The offbeat line keeps its place between the kicks, but a groove section is not one
    stab shape repeated: an octave pop or a fifth on a later offbeat, a dead note, an approach
    into the change. Over eight songs, before: no groove section had two bars with more than
    one pitch (every bar four roots); now six do."""
    prompt = "deep house, 122, late night, Kerri Chandler vibes"
    songs = [compose(prompt, seed) for seed in range(1, 9)]
    assert sum(_moving_bars(heard, "verse") >= 2 for heard in songs) >= 5
    assert all(_on_steps(heard, OFFBEATS) >= 0.6 for heard in songs)


def test_boom_bap_bass_doubles_the_kick() -> None:
    heard = compose("boom bap, 90 BPM, D minor")
    notes = heard.bass().notes
    assert sum(1 for n in notes if n.step in heard.kick_steps) / len(notes) >= 0.8


def test_bossa_bass_anticipates_the_next_bar_on_the_and_of_four() -> None:
    heard = compose("bossa nova in F major, 130 BPM")
    assert heard.bass().name == "Upright Bass"
    assert _bars_with(heard, 14) >= 0.6
    assert _on_steps(heard, {6, 14}) >= 0.6  # half notes, each an 8th early


@pytest.mark.parametrize("prompt", ["trap in F minor, 140 BPM", "drill in G minor, 142 BPM"])
def test_808s_glide_with_pitch_bends_that_come_back(prompt: str) -> None:
    eight_o_eight = compose(prompt).bass()
    assert eight_o_eight.name == "808"
    values = [v for _, v in eight_o_eight.bends]
    assert sum(1 for v in values if v != 0) >= 20
    assert values[-1] == 0


def test_drill_808s_slide_between_octaves_and_fifths() -> None:
    notes = compose("drill in G minor, 142 BPM").bass().notes
    leaps = Counter(abs(b.pitch - a.pitch) for a, b in itertools.pairwise(notes))
    assert leaps[12] + leaps[7] + leaps[5] >= len(notes) * 0.2


def test_amapiano_has_a_log_drum_playing_syncopated_sliding_bass() -> None:
    heard = compose("amapiano, 113 BPM, A minor")
    log_drum = heard.bass()
    assert log_drum.name == "Log Drum" and len(log_drum.notes) >= 50
    assert _on_steps(heard, BEATS) <= 0.35  # between the kicks, not on them
    assert any(v != 0 for _, v in log_drum.bends)


def test_reggae_one_drop_bass_leaves_beat_one_empty() -> None:
    heard = compose("reggae in G major, 75 BPM")
    assert _bars_with(heard, 0) <= 0.25


def test_funk_slap_bass_pops_octaves_in_sixteenths() -> None:
    heard = compose("funk in E minor, 108 BPM")
    notes = heard.bass().notes
    odd = sum(1 for n in notes if n.step % 2)
    octaves = sum(1 for a, b in itertools.pairwise(notes) if b.pitch - a.pitch == 12)
    assert odd / len(notes) >= 0.2 and octaves >= len(notes) * 0.1


def test_jazz_bass_walks_in_quarter_notes() -> None:
    heard = compose("jazz in Bb major, 160 BPM")
    # Quarter notes, and in the hotter solo choruses a swung skip note into a beat (the
    # '&' of a beat, played late by the swing: steps 2-3, 6-7, 10-11, 14-15), nothing else.
    assert _on_steps(heard, BEATS) >= 0.85
    assert _on_steps(heard, BEATS | {2, 3, 6, 7, 10, 11, 14, 15}) >= 0.98
    notes = heard.bass().notes
    assert sum(1 for a, b in itertools.pairwise(notes) if a.pitch == b.pitch) < len(notes) * 0.25


def test_techno_bass_rolls_between_the_kicks() -> None:
    assert _on_steps(compose("techno, 130 BPM, A minor"), BEATS) <= 0.1


def test_country_bass_plays_boom_on_one_and_three() -> None:
    assert _on_steps(compose("country in G major, 110 BPM"), {0, 8}) >= 0.8


def test_metal_bass_chugs_in_sixteenths() -> None:
    notes = compose("metal in E minor, 160 BPM").bass().notes
    gaps = [b.start - a.start for a, b in itertools.pairwise(notes)]
    assert median(gaps) <= 0.3


def test_reggaeton_808_rides_the_tresillo() -> None:
    heard = compose("reggaeton in A minor, 95 BPM")
    assert _on_steps(heard, {0, 3, 6, 8, 11, 12, 14}) >= 0.85


def test_dnb_reese_holds_long_notes() -> None:
    notes = compose("drum and bass in F minor, 174 BPM").bass().notes
    assert median(n.length for n in notes) >= 1.0


CADENCE = [("Ab", "VI", [60, 63, 68]), ("Bb", "VII", [58, 62, 65]), ("Cm", "i", [60, 63, 67])]


@pytest.mark.parametrize("style", ["offbeat", "bossa", "walking", "boom_chick", "one_drop"])
def test_each_section_ends_on_the_tonic_when_its_last_chord_holds_it(style: str) -> None:
    chords = [
        ProgressionChord(symbol=s, roman=r, voicing=v, beats=b)
        for (s, r, v), b in zip(CADENCE, (4, 4, 8), strict=True)
    ]
    the_song = song().model_copy(
        update={"progression": EnrichedProgression(key="C", mode="minor", chords=chords)}
    )
    tracks = write_song(intent("rock", bass=style, roles=["drums", "bass"]), the_song)
    bass = next(t for t in tracks if t.role == "bass")
    endings = [region.notes[-1].pitch % 12 for region in bass.regions if region.notes]
    assert endings and all(pc == 0 for pc in endings), endings
