"""Where the tonic chord sounds, the harmony tracks play its root and third.

A tonic chord voiced by colour tones alone (Am9 as C-E-G-B), or left silent,
leaves the mode or the tonic to guesswork: music21, and an ear, then hear the
relative major or the key a fourth up.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from muse_tui.compose.arrangement import chords_for_section
from muse_tui.compose.harmony import song_key
from muse_tui.contracts import PipelineConfig, SongState
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages


def _compose(tmp_path: Path, prompt: str, seed: int = 1) -> SongState:
    engine = Orchestrator(product_stages(), tmp_path)
    pipeline = run_blocking(engine.run(prompt, seed=seed, config=PipelineConfig(approval_gates=[])))
    return pipeline.song_state


def _tonic_spans(song: SongState) -> list[tuple[float, float]]:
    """(start, end) beats of every stretch where the tonic chord sounds."""
    assert song.progression is not None and song.arrangement is not None
    tonic = song_key(song).tonic_pc
    spans = []
    for section in song.arrangement.sections:
        for placed in chords_for_section(section, song.progression, song.beats_per_bar):
            if _root_pc(placed.chord.symbol) == tonic:
                spans.append((placed.start_beat, placed.end_beat))
    return spans


def _root_pc(symbol: str) -> int:
    pc = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}[symbol[0]]
    return (pc + {"#": 1, "b": -1}.get(symbol[1:2], 0)) % 12


def _classes_in(song: SongState, roles: tuple[str, ...], start: float, end: float) -> set[int]:
    """Pitch classes the tracks of `roles` strike within [start, end)."""
    found = set()
    for track in song.tracks:
        if track.role not in roles:
            continue
        for region in track.regions:
            for note in region.notes:
                onset = region.start_beat + note.start_beat
                if start - 0.1 <= onset < end:
                    found.add(note.pitch % 12)
    return found


@pytest.mark.parametrize(
    ("prompt", "roles", "third"),
    [
        # power chords carry no third, but the I bars are no longer silent
        ("rock in A major with distorted guitar, 128", ("chords",), None),
        # a pad over Rhodes in a minor vamp: the bed holds A and C under the colour
        ("deep house in A minor, 120", ("pad",), 0),
    ],
)
def test_the_tonic_chord_sounds_its_root_and_third(
    tmp_path: Path, prompt: str, roles: tuple[str, ...], third: int | None
) -> None:
    song = _compose(tmp_path, prompt)
    tonic = song_key(song).tonic_pc
    heard = [_classes_in(song, roles, a, b) for a, b in _tonic_spans(song)]
    played = [classes for classes in heard if classes]
    assert len(played) >= 4, "the harmony plays over the tonic chord"
    wanted = {tonic} if third is None else {tonic, third}
    with_root_and_third = [c for c in played if wanted <= c]
    assert len(with_root_and_third) >= 0.9 * len(played)


def _lowest_in(song: SongState, role: str, start: float, end: float) -> int | None:
    """The lowest pitch the track of `role` strikes within [start, end)."""
    pitches = [
        note.pitch
        for track in song.tracks
        if track.role == role
        for region in track.regions
        for note in region.notes
        if start - 0.1 <= region.start_beat + note.start_beat < end
    ]
    return min(pitches) if pitches else None


def test_keys_voice_the_tonic_chord_from_its_root(tmp_path: Path) -> None:
    # The spread Fmaj7 had its E lowest and the V its E twice: the song was heard in C.
    song = _compose(tmp_path, "liquid dnb in F major, 174, with Rhodes")
    lowest = [_lowest_in(song, "keys", a, b) for a, b in _tonic_spans(song)]
    played = [p for p in lowest if p is not None]
    assert len(played) >= 4
    assert all(p % 12 == 5 for p in played)
