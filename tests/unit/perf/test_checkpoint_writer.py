"""The checkpoint writer: the newest checkpoint lands, durably if any it replaced was, and a
failed write reaches the run once, in the context the checkpoint was taken in."""

from __future__ import annotations

import contextvars
import threading

import pytest

from muse_tui.engine.checkpoint_writer import CheckpointWriter

WHERE: contextvars.ContextVar[str] = contextvars.ContextVar("where", default="outside")


def test_a_waiting_checkpoint_gives_way_to_a_newer_one_and_keeps_its_sync() -> None:
    writer = CheckpointWriter()
    started, release, written = threading.Event(), threading.Event(), []

    def slow(durable: bool) -> None:
        started.set()
        release.wait(5)
        written.append(("first", durable))

    writer.submit(slow, durable=False)
    assert started.wait(5)  # now writing: the two below wait behind it
    writer.submit(lambda d: written.append(("second", d)), durable=True)
    writer.submit(lambda d: written.append(("third", d)), durable=False)
    release.set()
    writer.flush()
    assert written == [("first", False), ("third", True)]


def test_a_failed_write_is_raised_once_at_the_next_checkpoint() -> None:
    writer = CheckpointWriter()

    def full_disk(durable: bool) -> None:
        raise OSError(28, "No space left on device")

    writer.submit(full_disk, durable=True)
    with pytest.raises(OSError, match="No space"):
        writer.flush()
    writer.flush()  # raised once: a later checkpoint may succeed
    landed: list[bool] = []
    writer.submit(landed.append, durable=False)
    writer.flush()
    assert landed == [False]


def test_the_write_runs_in_the_context_of_the_checkpoint() -> None:
    writer = CheckpointWriter()
    seen: list[str] = []
    token = WHERE.set("inside a session change")
    try:
        writer.submit(lambda d: seen.append(WHERE.get()), durable=False)
    finally:
        WHERE.reset(token)
    writer.flush()
    assert seen == ["inside a session change"]
