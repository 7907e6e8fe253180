"""The ledger serialises a song once and each region once: kept ones reuse their JSON."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from muse_tui.contracts import Contract, Region, SongState
from muse_tui.engine.event_order import OrderedEvents
from muse_tui.engine.ledger import RunLedger
from muse_tui.engine.protocols import NullSink
from muse_tui.store import checkpoint as checkpoint_module
from muse_tui.store.checkpoint import SongJson, song_path, song_to_json
from tests.io.songs import build_song, pipeline_for


def test_kept_songs_and_regions_are_serialised_once_and_new_ones_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serialised: list[Contract] = []
    real = checkpoint_module._compact_json

    def counted(contract: Contract) -> bytes:
        serialised.append(contract)
        return real(contract)

    def count(kind: type[Contract]) -> int:
        return sum(isinstance(contract, kind) for contract in serialised)

    monkeypatch.setattr(checkpoint_module, "_compact_json", counted)
    first = build_song()
    regions = sum(len(track.regions) for track in first.tracks)
    assert regions >= 2
    pipeline = pipeline_for(first)
    ledger = RunLedger(
        pipeline,
        OrderedEvents(NullSink()),
        tmp_path,
        clock=lambda: datetime(2026, 11, 23, tzinfo=UTC),
    )

    ledger.checkpoint(durable=False)
    ledger.checkpoint(durable=False)  # S7 and the finish keep S6's song
    ledger.flush()
    assert (count(SongState), count(Region)) == (1, regions)
    assert song_path(tmp_path).read_bytes() == first.to_json(indent=None).encode()

    second = first.model_copy(update={"tempo": 99.0})  # S5: new sounds, the same notes
    pipeline.song_state = second
    ledger.checkpoint(durable=False)
    ledger.flush()
    assert (count(SongState), count(Region)) == (2, regions)
    assert song_path(tmp_path).read_bytes() == second.to_json(indent=None).encode()

    track = second.tracks[0]
    moved = track.regions[0].model_copy(update={"start_beat": 8.0})
    edited = track.model_copy(update={"regions": [moved, *track.regions[1:]]})
    third = second.model_copy(update={"tracks": [edited, *second.tracks[1:]]})
    pipeline.song_state = third
    ledger.checkpoint(durable=False)
    ledger.flush()
    assert (count(SongState), count(Region)) == (3, regions + 1)
    assert song_path(tmp_path).read_bytes() == third.to_json(indent=None).encode()


def test_a_song_without_regions_is_its_plain_json() -> None:
    song = build_song().model_copy(update={"tracks": []})
    assert SongJson()(song) == song_to_json(song)
