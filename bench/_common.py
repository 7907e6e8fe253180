"""Shared helpers for the benchmark scripts: run N times, print the median."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_ms(run: Callable[[], object], *, repeat: int, warmup: int = 1) -> float:
    """Median wall time of `run` in milliseconds over `repeat` runs after `warmup` runs."""
    for _ in range(warmup):
        run()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def report(label: str, value_ms: float, target_ms: float) -> bool:
    ok = value_ms < target_ms
    print(
        f"{label:<58} {value_ms:8.1f} ms   target < {target_ms:g} ms   {'ok' if ok else 'MISSED'}"
    )
    return ok
