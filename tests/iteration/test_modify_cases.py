"""The ten cases of P6-T6, on a real composed song: what a producer hears and sees change."""

from __future__ import annotations

from muse_tui.compose.effects import pre_delay_ms
from muse_tui.contracts import SongState
from muse_tui.engine.editing import modify, undo
from muse_tui.knowledge.sound import sound_catalog
from muse_tui.theory import parse_chord

from .conftest import RecordingGate, Session, fixed_clock


def _index(song: SongState, role: str) -> int:
    return next(i for i, t in enumerate(song.tracks) if t.role == role)


def _brightness(symbol: str, tonic_pc: int) -> float:
    """Mean place of the chord's notes on the circle of fifths from the tonic: lower is darker."""
    pcs = parse_chord(symbol).pitch_classes
    return sum(((pc - tonic_pc) * 7 + 5) % 12 - 5 for pc in pcs) / len(pcs)


def _without_history(song: SongState) -> SongState:
    return song.model_copy(update={"history": []})


async def test_1_third_chord_darker_changes_that_chord_and_what_plays_it(session: Session) -> None:
    before = session.pipeline.song_state
    drums = session.file_bytes("midi/drums.mid")
    keys = session.file_bytes("midi/keys.mid")

    result = await modify(
        session.pipeline,
        "3rd chord too bright, make darker",
        session_dir=session.folder,
        clock=fixed_clock,
    )

    after = result.song_state
    changed = [
        i
        for i, (a, b) in enumerate(
            zip(before.progression.chords, after.progression.chords, strict=True)
        )
        if a != b
    ]
    assert changed == [2]
    old, new = before.progression.chords[2].symbol, after.progression.chords[2].symbol
    tonic = parse_chord(before.progression.chords[0].symbol).root_pc
    assert _brightness(new, tonic) < _brightness(old, tonic), f"{old} → {new} is not darker"
    assert session.file_bytes("midi/keys.mid") != keys  # the chord part plays the new chord
    assert {"bass", "keys"} <= set(result.regenerated_components)
    assert session.file_bytes("midi/drums.mid") == drums
    assert "drums" in result.preserved_components
    assert result.cost == "moderate"
    paths = [c.path for c in result.history_entry.changes]
    assert "progression.chords[2].voicing" in paths
    assert all(p.startswith("progression.chords[2].") for p in paths if p.startswith("progression"))


async def test_2_simpler_bass_has_fewer_notes_and_nothing_else_moves(session: Session) -> None:
    before = session.pipeline.song_state
    untouched = {f: session.file_bytes(f"midi/{f}.mid") for f in ("drums", "keys", "lead", "pad")}

    result = await modify(session.pipeline, "Bass too busy, simplify", session_dir=session.folder)

    bass = _index(before, "bass")
    assert len(result.song_state.tracks[bass].notes) < 0.85 * len(before.tracks[bass].notes)
    assert result.song_state.progression == before.progression
    assert "midi/bass.mid" in result.updated_files
    for name, data in untouched.items():
        assert session.file_bytes(f"midi/{name}.mid") == data, f"{name} changed"
    assert result.cost == "moderate"
    assert result.regenerated_components == ["bass"]


async def test_3_warmer_pad_preset_changes_the_sound_not_the_notes(session: Session) -> None:
    before = session.pipeline.song_state
    pad = _index(before, "pad")
    other_files = {
        f: session.file_bytes(f"midi/{f}.mid") for f in ("drums", "bass", "keys", "lead")
    }

    result = await modify(session.pipeline, "Use a warmer pad preset", session_dir=session.folder)

    after = result.song_state.tracks[pad]
    assert after.preset != before.tracks[pad].preset
    entry = next(e for e in sound_catalog().entries if e.id == after.preset.id)
    assert "warm" in entry.tags or "warm" in entry.name
    assert after.regions == before.tracks[pad].regions
    assert {c.path for c in result.history_entry.changes} <= {
        f"tracks[{pad}].preset",
        f"tracks[{pad}].program",
    }
    assert result.cost == "cheap"
    assert "effects:pad" in result.regenerated_components  # the chain is re-checked for the sound
    assert not {"drums", "bass", "keys", "lead", "pad"} & set(result.regenerated_components)
    for name, data in other_files.items():
        assert session.file_bytes(f"midi/{name}.mid") == data


async def test_4_key_change_asks_first_then_moves_everything_but_the_drums(
    session: Session,
) -> None:
    before = session.pipeline.song_state
    gate = RecordingGate("yes")

    result = await modify(
        session.pipeline, "Change to F# minor", session_dir=session.folder, gate=gate
    )

    assert len(gate.asked) == 1
    question = gate.asked[0].reason
    assert question.startswith("Changing the key will regenerate the progression")
    assert all(part in question for part in ("bass", "keys", "lead")) and "Drums stays" in question
    after = result.song_state
    assert (after.key, after.mode) == ("F#", "minor")
    roots = [
        (parse_chord(b.symbol).root_pc - parse_chord(a.symbol).root_pc) % 12
        for a, b in zip(before.progression.chords, after.progression.chords, strict=True)
    ]
    assert roots == [3] * len(roots)  # Eb minor → F# minor: every chord up a minor third
    for role in ("bass", "keys", "lead", "pad"):
        i = _index(before, role)
        assert after.tracks[i].notes != before.tracks[i].notes, role
    drums = _index(before, "drums")
    assert after.tracks[drums].notes == before.tracks[drums].notes
    assert result.cost == "expensive"


async def test_4_key_change_declined_changes_nothing(session: Session) -> None:
    files = session.fingerprints()

    result = await modify(
        session.pipeline, "Change to F# minor", session_dir=session.folder, gate=RecordingGate("no")
    )

    assert result.status == "declined"
    assert result.song_state == session.pipeline.song_state
    assert session.fingerprints() == files


async def test_5_tempo_change_retimes_delays_and_regenerates_the_groove(session: Session) -> None:
    before = session.pipeline.song_state
    gate = RecordingGate("yes")

    result = await modify(
        session.pipeline, "Slow it down to 80 BPM", session_dir=session.folder, gate=gate
    )

    after = result.song_state
    assert after.tempo == 80 and gate.asked
    lead = after.tracks[_index(after, "lead")]
    delay = next(e for e in lead.effect_chain.effects if e.kind == "delay")
    assert delay.parameters["time_ms"] == 750.0  # a quarter note at 80 BPM
    reverb = after.buses[0].effect_chain.effects[0]
    assert reverb.parameters["pre_delay_ms"] == round(pre_delay_ms(80), 2)
    assert {"drums", "bass"} <= set(result.regenerated_components)
    keys = _index(before, "keys")
    assert after.tracks[keys].notes == before.tracks[keys].notes  # beats stay where they were


async def test_6_undo_puts_the_chord_and_its_files_back(session: Session) -> None:
    original = {f: session.file_bytes(f) for f in ("midi/keys.mid", "progression/main.progression")}
    changed = await modify(
        session.pipeline, "3rd chord too bright, make darker", session_dir=session.folder
    )

    result = await modify(changed.pipeline, "undo that", session_dir=session.folder)

    assert result.status == "undone"
    assert _without_history(result.song_state) == _without_history(session.pipeline.song_state)
    assert result.song_state.history[0].undone  # kept, marked undone
    for name, data in original.items():
        assert session.file_bytes(name) == data


async def test_7_undo_three_unwinds_every_change_and_keeps_the_log(session: Session) -> None:
    midi = {
        f: session.file_bytes(f"midi/{f}.mid") for f in ("drums", "bass", "keys", "lead", "pad")
    }
    pipeline = session.pipeline
    for text in (
        "3rd chord too bright, make darker",
        "Bass too busy, simplify",
        "more swing on the drums",
    ):
        pipeline = (await modify(pipeline, text, session_dir=session.folder)).pipeline

    result = undo(pipeline, steps=3, session_dir=session.folder)

    assert _without_history(result.song_state) == _without_history(session.pipeline.song_state)
    assert result.pipeline.intent == session.pipeline.intent
    assert [e.undone for e in result.song_state.history] == [True, True, True]
    assert result.entries[0].user_text == "more swing on the drums"  # newest first
    for name, data in midi.items():
        assert session.file_bytes(f"midi/{name}.mid") == data, name


async def test_8_global_warmth_keeps_the_bass_brightness(session: Session) -> None:
    bright = await modify(session.pipeline, "make the bass brighter", session_dir=session.folder)

    result = await modify(bright.pipeline, "Make it warmer", session_dir=session.folder)

    song = result.song_state
    for track in song.tracks:
        eq = next(e for e in track.effect_chain.effects if e.kind == "eq")
        assert eq.parameters["low_mid_db"] > 0, track.role
    assert next(e for e in song.buses[0].effect_chain.effects if e.kind == "eq")
    bass_eq = next(
        e for e in song.tracks[_index(song, "bass")].effect_chain.effects if e.kind == "eq"
    )
    assert bass_eq.parameters["air_db"] > 0  # warm (low mids) and bright (air) combine


async def test_8_the_latest_instruction_wins_on_the_same_band(session: Session) -> None:
    bright = await modify(session.pipeline, "make it brighter", session_dir=session.folder)

    result = await modify(bright.pipeline, "make the bass darker", session_dir=session.folder)

    song = result.song_state
    air = {
        t.role: next(e for e in t.effect_chain.effects if e.kind == "eq").parameters["air_db"]
        for t in song.tracks
    }
    assert air["bass"] < 0 and air["keys"] > 0


async def test_9_praise_changes_nothing_and_adds_no_history(session: Session) -> None:
    files = session.fingerprints()

    result = await modify(session.pipeline, "The bass sounds great", session_dir=session.folder)

    assert result.status == "no_change"
    assert result.history_entry is None and result.song_state.history == []
    assert "nothing changed" in result.summary.lower()
    assert session.fingerprints() == files


async def test_10_genre_change_cascades_through_nearly_everything(session: Session) -> None:
    before = session.pipeline.song_state
    gate = RecordingGate("yes")

    result = await modify(
        session.pipeline,
        "change the genre from neo soul to trap",
        session_dir=session.folder,
        gate=gate,
    )

    assert gate.asked and result.cost == "expensive"
    regenerated = set(result.regenerated_components)
    assert {"progression", "drums", "bass"} <= regenerated
    assert any(c.startswith("preset:") for c in regenerated)
    assert any(c.startswith("effects:") for c in regenerated)
    after = result.song_state
    assert after.genre == "trap" and result.pipeline.intent.genre_dna.drum_family == "trap"
    drums = _index(before, "drums")
    assert after.tracks[drums].notes != before.tracks[drums].notes
    assert (
        after.arrangement.total_bars == before.arrangement.total_bars
    )  # the form keeps its length
