"""Issue 31: "more swing" on a straight pop song swings it as a producer means it.

The straight song's every second 16th must land where MPC swing of 58–62% puts
it (`skills/rhythm/swing.json`: Roger Linn's settings), read from the MIDI
files; the notes on the 8ths stay where they were.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from muse_tui.engine.editing import modify
from muse_tui.engine.protocols import AutoApprove

from .harness import _clock, compose_songs, stems, table

pytestmark = pytest.mark.slow
PAIR = 0.5  # MPC swing moves the second 16th of each 8th


def _in_pair(beat: float) -> float:
    return round(beat % PAIR, 3)


def _off_eighth(beat: float) -> float:
    return min(beat % PAIR, PAIR - beat % PAIR)


def test_more_swing_on_straight_pop_lands_between_58_and_62_percent(tmp_path: Path) -> None:
    song = compose_songs(tmp_path, {"pop": table()["songs"]["pop"]})["pop"]
    before = stems(song.folder)
    result = asyncio.run(
        modify(
            song.pipeline, "more swing", session_dir=song.folder, gate=AutoApprove(), clock=_clock
        )
    )
    assert result.status == "applied", result.summary
    after = stems(song.folder)
    for stem, old in before.items():
        new = after[stem]
        late = [n for n in old if abs(_in_pair(n[0]) - 0.25) < 0.015]  # straight second 16ths
        swung = [n for n in new if 0.58 * PAIR - 0.005 <= _in_pair(n[0]) <= 0.62 * PAIR + 0.005]
        still = [n for n in new if abs(_in_pair(n[0]) - 0.25) < 0.015]
        assert len(swung) >= len(late) and not still, f"{stem}: {len(late)} → {len(swung)}"
        eighths = sorted(n[:2] for n in old if _off_eighth(n[0]) < 0.015)
        kept = sorted(n[:2] for n in new if _off_eighth(n[0]) < 0.015)
        moved = [a for a, b in zip(eighths, kept, strict=True) if abs(a[0] - b[0]) > 0.005]
        assert len(kept) == len(eighths) and not moved, f"{stem}: notes on the 8ths moved"
