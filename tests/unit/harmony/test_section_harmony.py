"""Sections with harmony of their own, heard on the MIDI file.

A pop song's verse, pre-chorus, chorus and bridge each play their own chords: the
verse answers the chorus with a different set, the pre-chorus ends on the dominant,
the bridge starts away from the tonic; a key change moves them all.
"""

from __future__ import annotations

from pathlib import Path

import mido
import pytest

from muse_tui.compose.intent.decompose import decompose
from muse_tui.compose.section_harmony import _heard, _heard_apart, song_progression
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import PipelineConfig
from muse_tui.engine.orchestrator import Orchestrator, run_blocking
from muse_tui.engine.registry import product_stages
from muse_tui.theory import Key, parse_chord

PROMPT = "pop song in C major with piano, bass, drums and a bridge"


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sections")
    engine = Orchestrator(product_stages(), root)
    pipeline = run_blocking(
        engine.run(PROMPT, seed=3, config=PipelineConfig(approval_gates=[]), answers={"bars": "64"})
    )
    assert pipeline.status == "completed"
    return root / pipeline.session_id


def _sections_and_bars(
    session: Path,
) -> tuple[list[tuple[str, int, int]], dict[int, frozenset[int]]]:
    """Markers as (name, first bar, end bar) and each bar's sounding pitch classes (no drums)."""
    midi = mido.MidiFile(session / "midi" / "full-arrangement.mid")
    ppq, markers, bars, end = midi.ticks_per_beat, [], {}, 0
    for track in midi.tracks:
        tick = 0
        for msg in track:
            tick += msg.time
            end = max(end, tick)
            if msg.type == "marker":
                markers.append((tick // (4 * ppq), msg.text))
            elif msg.type == "note_on" and msg.velocity and msg.channel != 9:
                bars.setdefault(tick // (4 * ppq), set()).add(msg.note % 12)
    markers.sort()
    total = end // (4 * ppq)
    spans = [
        (name, start, markers[i + 1][0] if i + 1 < len(markers) else total)
        for i, (start, name) in enumerate(markers)
    ]
    return spans, {b: frozenset(pcs) for b, pcs in bars.items()}


def _kind_harmony(session: Path, kind: str) -> set[frozenset[int]]:
    spans, bars = _sections_and_bars(session)
    return {
        bars[b]
        for name, start, end in spans
        if name.lower().startswith(kind)
        for b in range(start, end)
        if b in bars
    }


def test_the_verse_and_the_chorus_play_different_chords(session: Path) -> None:
    verse, chorus = _kind_harmony(session, "verse"), _kind_harmony(session, "chorus")
    assert verse and chorus
    shared = len(verse & chorus) / len(verse | chorus)
    assert shared < 0.5, (verse, chorus)


def test_the_bridge_departs_and_the_pre_chorus_builds(session: Path) -> None:
    state = (session / "state" / "song-state.json").read_text()
    assert '"bridge"' in state and '"pre_chorus"' in state
    intent = decompose(PROMPT).intent
    progression = song_progression(intent, derive_rng(1, "x"))
    bridge, pre = progression.sections["bridge"], progression.sections["pre_chorus"]
    assert parse_chord(bridge.chords[0].symbol).root_pc != 0  # not on C, the tonic
    assert parse_chord(pre.chords[-1].symbol).root_pc in (7, 5)  # lands on G (V) or F (IV)
    assert bridge.name == "bridge" and pre.name == "pre_chorus"


def test_explicit_chords_are_never_replaced() -> None:
    intent = decompose("pop song, chords C G Am F").intent
    progression = song_progression(intent, derive_rng(1, "x"))
    assert progression.source == "explicit" and progression.sections == {}


def test_every_section_kind_rides_along_a_key_change(tmp_path: Path, session: Path) -> None:
    import asyncio

    from muse_tui.engine.editing import modify
    from muse_tui.store.checkpoint import load_checkpoint

    pipeline = load_checkpoint(session)
    result = asyncio.run(modify(pipeline, "transpose up two semitones"))
    moved = result.song_state.progression
    before = pipeline.song_state.progression
    assert moved is not None and before is not None and moved.sections
    for kind, own in moved.sections.items():
        old = before.sections[kind]
        for new_chord, old_chord in zip(own.chords, old.chords, strict=True):
            shift = (
                parse_chord(new_chord.symbol).root_pc - parse_chord(old_chord.symbol).root_pc
            ) % 12
            assert shift == 2, (kind, old_chord.symbol, new_chord.symbol)


def test_every_numeral_of_the_section_harmony_file_is_a_chord() -> None:
    from muse_tui.knowledge.section_harmony import section_harmony_table
    from muse_tui.theory import Key, parse_roman

    table = section_harmony_table()
    keys = {"major": Key("C", "major"), "minor": Key("A", "minor")}
    for lists in (table.answers, table.builds, table.departures):
        for third, options in lists.items():
            for option in options:
                for numeral in option.chords:
                    assert parse_roman(numeral, keys[third]).pitch_classes, numeral


def test_a_lofi_b_loop_plays_other_chords_than_the_a_loop_on_the_midi_file(
    tmp_path: Path,
) -> None:
    # The lo-fi form's "Loop B" plays a verse's answer (harmonyOf): a beat tape's B side.
    engine = Orchestrator(product_stages(), tmp_path)
    run = run_blocking(
        engine.run(
            "lo-fi hip hop with rhodes, F# major", seed=1, config=PipelineConfig(approval_gates=[])
        )
    )
    assert run.status == "completed"
    spans, bars = _sections_and_bars(tmp_path / run.session_id)
    heard = {name: {bars.get(b) for b in range(start, end)} - {None} for name, start, end in spans}

    assert heard["Loop A"] and heard["Loop B"]
    assert heard["Loop A"] != heard["Loop B"]


def test_chords_a_third_apart_are_heard_as_one_harmony_once_extended() -> None:
    # Fmaj7 and Am7 share three notes: an answer of Am7 alone echoes a main loop on Fmaj7.
    # A triad is heard with the 7th the genre adds, and with its 9th in a 9th-colouring genre.
    key = Key("F", "major")
    main = [parse_chord("Fmaj7").pitch_classes]

    assert _heard("iii", key) == parse_chord("Am7").pitch_classes
    assert _heard("iii", key, rich=True) == parse_chord("Am7b9").pitch_classes  # the key's 9th
    assert not _heard_apart([_heard("iii", key)], main)
    assert _heard_apart([_heard("ii", key), _heard("iii", key)], main)  # Gm7 is other
    assert _heard_apart([_heard("V", key)], main)  # C7 shares only C with Fmaj7
