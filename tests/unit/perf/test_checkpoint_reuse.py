"""The ledger serialises a song once: a kept song reuses its JSON, a new song is written anew."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from muse_tui.contracts import SongState
from muse_tui.engine import ledger as ledger_module
from muse_tui.engine.event_order import OrderedEvents
from muse_tui.engine.ledger import RunLedger
from muse_tui.engine.protocols import NullSink
from muse_tui.store.checkpoint import song_path
from tests.io.songs import build_song, pipeline_for


def test_a_kept_song_is_serialised_once_and_a_new_one_written_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serialised: list[SongState] = []
    real = ledger_module.song_to_json

    def counted(song: SongState) -> bytes:
        serialised.append(song)
        return real(song)

    monkeypatch.setattr(ledger_module, "song_to_json", counted)
    first = build_song()
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
    assert serialised == [first]
    assert song_path(tmp_path).read_bytes() == first.to_json(indent=None).encode()

    second = first.model_copy(update={"tempo": 99.0})
    pipeline.song_state = second
    ledger.checkpoint(durable=False)
    ledger.flush()
    assert [s is second for s in serialised] == [False, True]
    assert song_path(tmp_path).read_bytes() == second.to_json(indent=None).encode()
