"""Reproducible randomness: every generator gets its own RNG from (seed, what, variant)."""

from __future__ import annotations

import hashlib
import random


def derive_rng(seed: int, *parts: object) -> random.Random:
    """An RNG determined only by the seed and the parts naming what it is for.

    Uses SHA-256 rather than `hash()` so the stream is the same in every process
    (Python salts `hash()` of strings per run).
    """
    material = "\x1f".join([str(seed), *(str(p) for p in parts)]).encode("utf-8")
    return random.Random(int.from_bytes(hashlib.sha256(material).digest()[:8], "big"))
