"""Guessing the key of some notes (Krumhansl–Schmuckler correlation with key profiles)."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import mul

from muse_tui.theory.key import Key, tonic_name

# How strongly each degree (semitones above the tonic) belongs to a key. Aarden–Essen
# is music21's default for analyze("key"); the values are those published with
# Humdrum's keycor (https://extras.humdrum.org/man/keycor/).
KEY_PROFILES: dict[str, dict[str, tuple[float, ...]]] = {
    "aarden": {
        "major": (17.7661, 0.145624, 14.9265, 0.160186, 19.8049, 11.3587,
                  0.291248, 22.062, 0.145624, 8.15494, 0.232998, 4.95122),
        "minor": (18.2648, 0.737619, 14.0499, 16.8599, 0.702494, 14.4362,
                  0.702494, 18.6161, 4.56621, 1.93186, 7.37619, 1.75623),
    },
    "krumhansl": {
        "major": (6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88),
        "minor": (6.33, 2.68, 3.52, 5.38, 2.60, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17),
    },
    "temperley": {
        "major": (0.748, 0.060, 0.488, 0.082, 0.670, 0.460,
                  0.096, 0.715, 0.104, 0.366, 0.057, 0.400),
        "minor": (0.712, 0.084, 0.474, 0.618, 0.049, 0.460,
                  0.105, 0.747, 0.404, 0.067, 0.133, 0.330),
    },
}  # fmt: skip


@dataclass(frozen=True)
class KeyEstimate:
    """The most likely key; confidence is its profile correlation, floored at 0."""

    tonic_pc: int
    tonic_name: str
    mode: str
    confidence: float

    @property
    def key(self) -> Key:
        return Key(self.tonic_name, self.mode)


def detect_key(notes: Iterable[int | tuple[int, float]], profile: str = "aarden") -> KeyEstimate:
    """The key that best fits some notes, each a MIDI number or a (MIDI, duration) pair.

    Longer notes count for more. The pitch-class weights are correlated with
    every major and minor key profile and the best correlation wins.
    """
    if profile not in KEY_PROFILES:
        raise ValueError(f"unknown key profile {profile!r}; use one of {', '.join(KEY_PROFILES)}")
    weights = [0.0] * 12
    for item in notes:
        pitch, duration = (item, 1.0) if isinstance(item, int) else item
        if duration < 0:
            raise ValueError(f"note {pitch} has a negative duration {duration}")
        weights[pitch % 12] += duration
    if not any(weights):
        raise ValueError("no sounding notes to find a key in")
    best: tuple[float, int, str] | None = None
    centred = _centred(weights)
    for mode in ("major", "minor"):
        for tonic in range(12):
            score = _correlation_with(centred, _rotated_profile(profile, mode, tonic))
            if best is None or score > best[0]:
                best = (score, tonic, mode)
    assert best is not None
    score, tonic, mode = best
    return KeyEstimate(tonic, tonic_name(tonic, mode), mode, max(0.0, min(1.0, score)))


_Centred = tuple[tuple[float, ...], float]  # deviations from the mean, their sum of squares


def _centred(values: Sequence[float]) -> _Centred:
    mean = sum(values) / len(values)
    deviations = tuple(v - mean for v in values)
    return deviations, sum(d * d for d in deviations)


@functools.cache
def _rotated_profile(profile: str, mode: str, tonic: int) -> _Centred:
    """A key profile turned to `tonic`, centred once: 24 of them serve every guess."""
    shape = KEY_PROFILES[profile][mode]
    return _centred([shape[(pc - tonic) % 12] for pc in range(12)])


def _correlation_with(xs: _Centred, ys: _Centred) -> float:
    """Pearson correlation of two centred series; 0 when either side is flat."""
    (dx, x_squares), (dy, y_squares) = xs, ys
    spread = math.sqrt(x_squares * y_squares)
    if spread == 0:
        return 0.0
    return sum(map(mul, dx, dy)) / spread  # the same products, summed in the same order
