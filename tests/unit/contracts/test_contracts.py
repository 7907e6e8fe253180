"""The pipeline contract: exact JSON round-trips, camelCase on disk, errors that name the field."""

from __future__ import annotations

import json
import random
import re
from datetime import datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from muse_tui import contracts as c

RNG = random.Random(7)


def _id() -> str:
    return c.new_id(RNG)


def a_song() -> c.SongState:
    """A small but complete song: two tracks with regions, a bus, arrangement, progression."""
    drums = c.Track(
        id=_id(),
        name="Drums",
        role="drums",
        channel=9,
        drum_kit=0,
        regions=[
            c.Region(
                id=_id(),
                name="Verse beat",
                start_beat=0,
                length_beats=16,
                notes=[
                    c.Note(pitch=36, velocity=110, start_beat=0, duration_beats=0.25, channel=9)
                ],
                control_changes=[c.ControlChange(beat=12, controller=7, value=90, channel=9)],
            )
        ],
        effect_chain=c.EffectChain(
            id="fx-drums",
            target_id="drums",
            effects=[c.Effect(kind="compressor", name="Compressor", parameters={"ratio": 4.0})],
        ),
    )
    bass = c.Track(
        id=_id(),
        name="808",
        role="sub_bass",
        channel=1,
        program=38,
        regions=[
            c.Region(
                id=_id(),
                name="808",
                start_beat=0,
                length_beats=16,
                notes=[
                    c.Note(pitch=33, velocity=100, start_beat=0.5, duration_beats=1.5, channel=1)
                ],
                pitch_bends=[c.PitchBend(beat=1.75, value=-4096, channel=1)],
            )
        ],
        preset=c.PresetReference(
            id="sub-808-long",
            engine="TubeSynth",
            name="long 808 sub with glide",
            category="808 bass",
            gm_program=38,
            parameters={"glide_ms": 60, "decay": "long"},
        ),
    )
    return c.SongState(
        seed=42,
        title="Late night",
        genre="trap",
        tempo=140,
        key="A",
        mode="minor",
        tracks=[drums, bass],
        buses=[c.Bus(id="bus-reverb", name="Reverb")],
        arrangement=c.Arrangement(
            template="trap",
            sections=[
                c.Section(name="Intro", kind="intro", start_bar=0, bars=4, energy=0.2),
                c.Section(
                    name="Hook",
                    kind="hook",
                    start_bar=4,
                    bars=8,
                    energy=0.9,
                    active_roles=["drums", "sub_bass"],
                    transition="cut",
                ),
            ],
            energy_arc=[0.2, 0.2, 0.4, 0.6] + [0.9] * 8,
        ),
        progression=c.EnrichedProgression(
            key="A",
            mode="minor",
            chords=[
                c.ProgressionChord(symbol="Am", roman="i", voicing=[57, 60, 64], beats=8),
                c.ProgressionChord(
                    symbol="F", roman="VI", voicing=[57, 60, 65], beats=8, function="predominant"
                ),
            ],
        ),
        history=[
            c.HistoryEntry(
                id=_id(),
                timestamp="2026-11-22T02:00:00Z",
                user_text="3rd chord darker",
                changes=[
                    c.Change(
                        path="progression.chords[2].voicing", previous_value=[1], new_value=[2]
                    )
                ],
            )
        ],
    )


def a_pipeline() -> c.ComposerPipeline:
    song = a_song()
    intent = c.PipelineIntent(
        genre=["trap"],
        tempo=140,
        key="A",
        mode="minor",
        mood=["dark"],
        raw_prompt="dark trap, 140, key of Am",
        duration=c.DurationRange(min=32, max=32),
        tempo_analysis=c.TempoAnalysis(
            bpm=140, source="explicit", perceived_bpm=140, confidence=1, reasoning="asked for 140"
        ),
        ambiguities=[c.Ambiguity(field="genre", reason="vague", severity="optional")],
    )
    pipeline = c.ComposerPipeline(
        pipeline_id=_id(),
        session_id=c.new_session_id(datetime(2026, 11, 22), RNG),
        raw_prompt=intent.raw_prompt,
        intent=intent,
        song_state=song,
        created_at="2026-11-22T02:00:00Z",
        updated_at="2026-11-22T02:00:01Z",
    )
    assert song.progression and song.arrangement
    pipeline.stages = {
        1: c.StageRecord(
            stage=1, name="Intent", status="completed", output=c.IntentOutput(intent=intent)
        ),
        2: c.StageRecord(
            stage=2,
            name="Harmony",
            status="completed",
            retry_count=1,
            attempt_errors=[c.StageError(code="TIMEOUT", message="took too long")],
            output=c.HarmonyOutput(
                progression=song.progression, progression_file_path="progression/main.progression"
            ),
        ),
        3: c.StageRecord(
            stage=3, name="Arrangement", output=c.ArrangementOutput(arrangement=song.arrangement)
        ),
        4: c.StageRecord(
            stage=4,
            name="Parts",
            output=c.PartsOutput(
                tracks=[
                    c.TrackGenerationResult(
                        track_id=song.tracks[0].id,
                        role="drums",
                        pattern=c.PatternSummary(note_count=1, bars=4),
                    )
                ]
            ),
        ),
        7: c.StageRecord(
            stage=7,
            name="Validation",
            output=c.ValidationOutput(
                quality_report=c.QualityScore(
                    harmony=0.8, rhythm=0.7, arrangement=0.9, vibe=0.6, composite=0.75, passed=True
                ),
                passed=True,
            ),
        ),
    }
    pipeline.alternatives = [
        c.AlternativeSet(
            id=_id(),
            element=c.TrackElement(track_id=song.tracks[1].id, role="sub_bass"),
            variants=[c.Alternative(label="A (default)", description="as composed", score=0.8)],
            generated_at="2026-11-22T02:00:02Z",
        )
    ]
    return pipeline


def test_a_whole_pipeline_round_trips_exactly_through_json() -> None:
    pipeline = a_pipeline()
    text = pipeline.to_json()
    again = c.ComposerPipeline.from_json(text)
    assert again == pipeline
    assert again.to_json() == text


def test_json_on_disk_is_camel_case() -> None:
    data = json.loads(a_pipeline().to_json())
    assert {"pipelineId", "sessionId", "rawPrompt", "songState", "currentStage"} <= data.keys()
    assert "startBeat" in json.dumps(data["songState"]["tracks"][0]["regions"][0]["notes"][0])
    assert not [key for key in _keys(data) if "_" in key]


def _keys(value: Any) -> list[str]:
    """Every key of nested JSON, except the free-form parameter dicts of presets and effects."""
    if isinstance(value, list):
        return [k for item in value for k in _keys(item)]
    if not isinstance(value, dict):
        return []
    return [
        k
        for key, item in value.items()
        for k in [key, *([] if key == "parameters" else _keys(item))]
    ]


def test_python_accepts_both_spellings() -> None:
    by_name = c.Note(pitch=60, velocity=90, start_beat=1, duration_beats=0.5)
    by_alias = c.Note.model_validate(
        {"pitch": 60, "velocity": 90, "startBeat": 1, "durationBeats": 0.5}
    )
    assert by_name == by_alias


@pytest.mark.parametrize(
    ("model", "data", "field"),
    [
        (c.Note, {"pitch": 128, "velocity": 90, "startBeat": 0, "durationBeats": 1}, "pitch"),
        (c.Note, {"pitch": 60, "velocity": 0, "startBeat": 0, "durationBeats": 1}, "velocity"),
        (c.Note, {"pitch": 60, "velocity": 9, "startBeat": 0, "durationBeats": 0}, "durationBeats"),
        (c.Track, {"id": "not-a-uuid", "name": "x", "role": "drums", "channel": 9}, "id"),
        (
            c.Track,
            {
                "id": "0" * 8 + "-0000-4000-8000-" + "0" * 12,
                "name": "x",
                "role": "kazoo",
                "channel": 1,
            },
            "role",
        ),
        (c.StageRecord, {"stage": 9, "name": "x"}, "stage"),
        (c.PipelineConfig, {"approvalGates": "2"}, "approvalGates"),
        (c.CreativityDials, {"harmonic": 1.5}, "harmonic"),
    ],
)
def test_invalid_data_names_the_field(
    model: type[c.Contract], data: dict[str, Any], field: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    assert field in str(caught.value)


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(ValidationError, match="tempoo"):
        c.SongState.model_validate({"tempoo": 120})


def test_stage_outputs_are_told_apart_by_stage_number() -> None:
    record = c.StageRecord.model_validate(
        {
            "stage": 6,
            "name": "Assembly",
            "output": {"stage": 6, "assembledFilePath": "a", "trackFilePaths": []},
        }
    )
    assert isinstance(record.output, c.AssemblyOutput)
    with pytest.raises(ValidationError, match="progression"):
        c.StageRecord.model_validate({"stage": 2, "name": "Harmony", "output": {"stage": 2}})


def test_pipeline_config_defaults() -> None:
    config = c.PipelineConfig()
    assert config.max_retries_per_stage == 3
    assert config.pipeline_timeout_ms == 300_000
    assert config.stage_timeout_ms == 60_000
    assert config.parallel_midi_generation is True
    assert config.enable_quality_gate is False
    assert config.enable_playback is False
    assert config.enable_checkpoints is True
    assert config.approval_gates == [2]
    assert config.alternative_count == 3
    assert config.skip_stages == []


def test_ids() -> None:
    assert re.fullmatch(r"session-20261122-[0-9a-z]{6}", c.new_session_id(datetime(2026, 11, 22)))
    assert c.new_id(random.Random(1)) == c.new_id(random.Random(1))
    assert c.new_id() != c.new_id()
    with pytest.raises(ValidationError, match="session id"):
        c.ComposerPipeline(
            pipeline_id=c.new_id(),
            session_id="../../etc",
            raw_prompt="",
            created_at="",
            updated_at="",
        )


def test_duplicate_ids_in_a_song_are_refused() -> None:
    song = a_song()
    clone = song.tracks[0].model_copy(update={"role": "percussion"})
    with pytest.raises(ValidationError, match="duplicate id"):
        c.SongState.model_validate({**song.model_dump(), "tracks": [*song.tracks, clone]})


def test_arrangement_sections_must_be_contiguous() -> None:
    with pytest.raises(ValidationError, match="starts at bar 5, expected 4"):
        c.Arrangement(
            template="x",
            sections=[
                c.Section(name="A", kind="verse", start_bar=0, bars=4, energy=0.5),
                c.Section(name="B", kind="chorus", start_bar=5, bars=4, energy=0.9),
            ],
        )


def test_track_notes_are_placed_in_song_time() -> None:
    song = a_song()
    region = song.tracks[0].regions[0].model_copy(update={"id": c.new_id(), "start_beat": 16})
    track = song.tracks[0].model_copy(update={"regions": [song.tracks[0].regions[0], region]})
    assert [n.start_beat for n in track.notes] == [0, 16]


notes = st.builds(
    lambda **fields: c.Note(**fields),  # not c.Note itself: its signature lists the aliases
    pitch=st.integers(0, 127),
    velocity=st.integers(1, 127),
    start_beat=st.floats(0, 1e4, allow_nan=False),
    duration_beats=st.floats(1e-3, 64, allow_nan=False),
    channel=st.integers(0, 15),
)


@given(st.lists(notes, max_size=20))
def test_any_region_round_trips(region_notes: list[c.Note]) -> None:
    region = c.Region(
        id=c.new_id(random.Random(0)), name="r", start_beat=0, length_beats=4, notes=region_notes
    )
    assert c.Region.from_json(region.to_json()) == region
