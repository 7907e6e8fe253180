"""The rival-writer fingerprint stays small however many sessions one process touches."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from muse_tui.store import transaction
from muse_tui.store.transaction import SessionChanged, note_checkpoint, refuse_if_changed


def test_many_sessions_noted_keep_digests_not_checkpoints(tmp_path: Path) -> None:
    checkpoint = b"{" + b" " * 50_000 + b"}"
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for number in range(150):  # a long studio session: 150 songs composed
            note_checkpoint(tmp_path / f"session-{number}", checkpoint + b"%d" % number)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 1_000_000, f"{grown:,} bytes kept for 150 sessions"


def test_a_rival_write_is_still_seen_after_other_sessions_were_noted(tmp_path: Path) -> None:
    folder = tmp_path / "session-a"
    (folder / "state").mkdir(parents=True)
    (folder / "state" / "pipeline-state.json").write_bytes(b"{}")
    note_checkpoint(folder, b"{}")
    for number in range(3):
        note_checkpoint(tmp_path / f"other-{number}", b"{}")
    refuse_if_changed(folder)  # unchanged: no refusal
    (folder / "state" / "pipeline-state.json").write_bytes(b'{"rival": 1}')
    try:
        refuse_if_changed(folder)
    except SessionChanged:
        pass
    else:
        raise AssertionError("the rival's write went unseen")


def test_the_sessions_remembered_are_bounded(tmp_path: Path) -> None:
    for number in range(transaction.MOST_SESSIONS_SEEN + 50):
        note_checkpoint(tmp_path / f"s-{number}", b"{}")
    assert len(transaction._seen) <= transaction.MOST_SESSIONS_SEEN
