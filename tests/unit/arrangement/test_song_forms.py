"""Songs composed in real forms (issue 28): jazz in 32-bar AABA choruses, the blues in
12-bar choruses, and a form asked in words, read back from the composed song."""

from __future__ import annotations

from pathlib import Path

import mido
import pytest

from muse_tui.compose.arrangement import chords_in_song
from muse_tui.contracts import PipelineConfig, Section, SongState
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages
from muse_tui.theory import parse_chord
from muse_tui.theory.key import key_of, tonic_name

pytestmark = pytest.mark.slow

PROMPTS = {
    "jazz": "jazz standard in Bb",
    "bebop": "bebop, 220 BPM",
    "waltz": "jazz waltz in 3/4 with brushes",
    "chicago": "Chicago blues in E, shuffle",
    "slow_blues": "slow blues in 12/8, G",
    "trailer": "epic trailer, V-C-V-C-B-C",
    "drops": "pop with a breakdown and two drops",
    "lofi_up": "lo-fi hip hop, key change up for the last loop",
}


@pytest.fixture(scope="module")
def songs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[SongState, Path]]:
    engine = Orchestrator(product_stages(), tmp_path_factory.mktemp("forms"))
    composed = {}
    for name, prompt in PROMPTS.items():
        pipeline = run_blocking(
            engine.run(prompt, seed=1, config=PipelineConfig(approval_gates=[]))
        )
        assert pipeline.status in ("completed", "partial"), prompt
        composed[name] = (pipeline.song_state, engine.sessions_root / pipeline.session_id)
    return composed


def bar_roots(song: SongState, section: Section) -> list[list[int]]:
    """The root pitch class of every chord, bar by bar, in the section."""
    bar_beats = song.section_meter(section).beats_per_bar
    origin = song.bar_beat(section.start_bar)
    bars: list[list[int]] = [[] for _ in range(section.bars)]
    for placed in chords_in_song(song, section, song.progression):
        bar = int((placed.start_beat - origin + 1e-6) // bar_beats)
        bars[bar].append(parse_chord(placed.chord.symbol).root_pc)
    return bars


@pytest.mark.parametrize("name", ["jazz", "bebop", "waltz"])
def test_jazz_plays_a_32_bar_aaba_head_solo_choruses_and_the_head_out(
    songs: dict[str, tuple[SongState, Path]], name: str
) -> None:
    song, _ = songs[name]
    body = [s for s in song.arrangement.sections if s.kind != "outro"]
    assert body[0].name == "Head" and body[-1].name == "Head Out"
    assert {s.bars for s in body} == {32}, [(s.name, s.bars) for s in body]
    assert [s.kind for s in body[1:-1]] and {s.kind for s in body[1:-1]} == {"solo"}
    head = body[0]
    roots = bar_roots(song, head)
    a, bridge = roots[0:8], roots[16:24]
    assert a != bridge  # the bridge departs from the A's changes
    tonic = roots[0][0]
    for end in (8, 16, 32):  # every A ends on a dominant leading back to its first chord
        last = roots[end - 1][-1]
        assert (last - tonic) % 12 in (7, 1), (name, end, roots[end - 1])
    for solo in body[1:]:  # each chorus is the whole form again (the last may end home)
        assert bar_roots(song, solo)[:-1] == roots[:-1]


def test_a_jazz_waltz_keeps_its_meter(songs: dict[str, tuple[SongState, Path]]) -> None:
    song, session = songs["waltz"]
    assert tuple(song.time_signature) == (3, 4)
    meters = {
        (m.numerator, m.denominator)
        for m in mido.MidiFile(session / "midi" / "full-arrangement.mid").tracks[0]
        if m.type == "time_signature"
    }
    assert meters == {(3, 4)}


@pytest.mark.parametrize("name", ["chicago", "slow_blues"])
def test_blues_choruses_follow_the_blues_form_bar_by_bar(
    songs: dict[str, tuple[SongState, Path]], name: str
) -> None:
    song, _ = songs[name]
    key = key_of(song.progression.key, song.progression.mode)
    one, four, five = key.tonic_pc, (key.tonic_pc + 5) % 12, (key.tonic_pc + 7) % 12
    choruses = [s for s in song.arrangement.sections if s.kind in ("head", "solo")]
    seconds = choruses[0].bars * song.beats_per_bar * 60 / song.tempo
    assert len(choruses) >= 3 or (len(choruses) == 2 and seconds >= 60)  # a slow 16-bar form
    assert {s.bars for s in choruses} <= {8, 12, 16}
    assert len({s.bars for s in choruses}) == 1
    for chorus in choruses:
        roots = [bar[0] for bar in bar_roots(song, chorus)]
        if chorus.bars == 12:
            assert roots[0] == roots[2] == roots[3] == one  # bar 2 may be the quick change
            assert roots[4] == four and roots[8] == five
            assert roots[10] == one and roots[11] == five  # the turnaround
        else:
            assert roots[0] == one and four in roots and roots[-1] == five
    assert song.arrangement.sections[-1].kind == "outro"
    assert bar_roots(song, song.arrangement.sections[-1])[-1][-1] == one  # the button


def test_slow_blues_stays_in_12_8(songs: dict[str, tuple[SongState, Path]]) -> None:
    assert tuple(songs["slow_blues"][0].time_signature) == (12, 8)


def test_a_form_asked_in_letters_is_the_form(songs: dict[str, tuple[SongState, Path]]) -> None:
    kinds = [s.kind for s in songs["trailer"][0].arrangement.sections]
    # The cinematic template frames it with its own intro and tail.
    assert kinds == ["intro", "verse", "chorus", "verse", "chorus", "bridge", "chorus", "outro"]


def test_a_breakdown_and_two_drops_are_played(songs: dict[str, tuple[SongState, Path]]) -> None:
    kinds = [s.kind for s in songs["drops"][0].arrangement.sections]
    assert kinds.count("drop") == 2
    assert kinds.count("breakdown") == 1


def test_the_last_loop_is_a_whole_step_up(songs: dict[str, tuple[SongState, Path]]) -> None:
    song, _ = songs["lofi_up"]
    loops = [s for s in song.arrangement.sections if s.kind == "loop"]
    first, last = loops[0], loops[-1]
    assert last.key_shift == 2 and first.key_shift == 0
    home = key_of(song.progression.key, song.progression.mode)
    up = key_of(tonic_name(home.tonic_pc + 2, home.mode), home.mode)
    assert bar_roots(song, last)[0][0] == up.tonic_pc

    def pitched_notes(section: Section) -> list[int]:
        start, end = song.bar_beat(section.start_bar), song.bar_beat(section.end_bar)
        return [
            note.pitch % 12
            for track in song.tracks
            if track.role not in ("drums", "percussion")
            for region in track.regions
            if start <= region.start_beat < end
            for note in region.notes
        ]

    heard = pitched_notes(last)
    assert heard
    in_new_key = sum(1 for pc in heard if pc in up.pitch_classes) / len(heard)
    assert in_new_key >= 0.9, in_new_key
    old_only = set(home.pitch_classes) - set(up.pitch_classes)
    assert sum(1 for pc in heard if pc in old_only) / len(heard) <= 0.1
