"""Checkpoint files: exactly what the contracts serialise, the previous ones kept, written whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from muse_tui.contracts import ComposerPipeline, SongState, SoundsOutput, StageRecord
from muse_tui.store.atomic import WriteFailed, leftover_temp_files, write_atomic_files
from muse_tui.store.checkpoint import (
    load_checkpoint,
    pipeline_path,
    song_path,
    write_checkpoint,
)
from tests.io.disk import full_disk_for
from tests.io.songs import build_song, pipeline_for, presets_for, three_sections


def _pipeline(song: SongState | None = None) -> ComposerPipeline:
    """A finished pipeline whose stage 5 output holds presets with free-form parameters."""
    song = song or build_song(arrangement=three_sections(verse_transition="fade"))
    pipeline = pipeline_for(song)
    presets = presets_for(song)
    if presets:  # a parameter that looks like a song must stay a parameter
        empty_song = SongState().model_dump(mode="json", by_alias=True)
        odd = presets[0].preset.model_copy(update={"parameters": {"songState": empty_song}})
        presets[0] = presets[0].model_copy(update={"preset": odd})
    sounds = SoundsOutput(presets=presets, effect_chains=[])
    stages = dict(pipeline.stages)
    stages[5] = StageRecord(stage=5, name="Sounds", status="completed", output=sounds)
    return pipeline.model_copy(update={"stages": stages})


@pytest.mark.parametrize("empty", [False, True])
def test_the_state_files_are_the_contracts_compact_json(tmp_path: Path, empty: bool) -> None:
    pipeline = _pipeline(SongState() if empty else None)
    write_checkpoint(tmp_path, pipeline)
    assert song_path(tmp_path).read_text() == pipeline.song_state.to_json(indent=None)
    assert pipeline_path(tmp_path).read_text() == pipeline.to_json(indent=None)
    assert load_checkpoint(tmp_path) == pipeline


def test_the_previous_checkpoint_is_kept_as_backup(tmp_path: Path) -> None:
    first = _pipeline()
    second = first.model_copy(update={"current_stage": 6})
    write_checkpoint(tmp_path, first)
    write_checkpoint(tmp_path, second)
    backup = pipeline_path(tmp_path).with_name("pipeline-state.json.bak")
    assert backup.read_text() == first.to_json(indent=None)
    assert load_checkpoint(tmp_path) == second
    assert leftover_temp_files(tmp_path) == []


def test_files_written_together_are_each_whole_and_a_failure_leaves_no_temp_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, two = tmp_path / "a" / "one.txt", tmp_path / "a" / "two.txt"
    assert write_atomic_files([(one, "first"), (two, b"second")]) == [5, 6]
    assert (one.read_text(), two.read_text()) == ("first", "second")

    full_disk_for(monkeypatch, "two.txt")
    with pytest.raises(WriteFailed, match=r"could not write .*two\.txt: No space left"):
        write_atomic_files([(one, "third"), (two, "fourth")])
    assert two.read_text() == "second", "the file that failed keeps its old self"
    assert leftover_temp_files(tmp_path) == []
