"""Python's cyclic garbage collector, paused while a run computes.

A 64-bar compose allocates some 25,000 objects the collector tracks (notes,
tuples, lists) and frees them all by reference counting; the collector's passes
over them found next to nothing yet cost ~3.6 ms a compose (25 young passes, 2
middle ones and, one run in five, a full one). Paused, one young pass over what
the run keeps remains (~1.6 ms). What a compose leaves in cycles is a few
closures: 66 objects for 64 bars, 132 for 512. They wait for the collector's
next pass once it runs again.

The pause covers a run's stages. It is lifted while the run waits for a person
at a gate (`Gates`), where the studio goes on running. Runs may overlap (the
studio composes an alternative while a run is open): the collector is off while
any run computes, and it comes back on when none does, if it was on before.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class _Computing:
    """How many runs are computing now; the collector is off while any is."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._runs = 0
        self._was_enabled = False

    def enter(self) -> None:
        with self._lock:
            if not self._runs:
                self._was_enabled = gc.isenabled()
                gc.disable()
            self._runs += 1

    def leave(self) -> None:
        with self._lock:
            self._runs -= 1
            if not self._runs and self._was_enabled:
                gc.enable()


_COMPUTING = _Computing()


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off for the block: a run's stages (see the module)."""
    _COMPUTING.enter()
    try:
        yield
    finally:
        _COMPUTING.leave()


@contextmanager
def collector_lifted() -> Iterator[None]:
    """Inside `collector_paused`: this run stops counting for the block (it waits on a person)."""
    _COMPUTING.leave()
    try:
        yield
    finally:
        _COMPUTING.enter()
