"""Shared builders for the arrangement tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from muse_tui.contracts.intent import GenreDNAVector
from muse_tui.contracts.song import EnrichedProgression, HarmonicFunction, ProgressionChord

_POP_CHORDS = [
    ("C", "I", [60, 64, 67], "tonic"),
    ("G", "V", [59, 62, 67], "dominant"),
    ("Am", "vi", [57, 60, 64], "tonic"),
    ("F", "IV", [57, 60, 65], "predominant"),
]


@pytest.fixture
def progression() -> Callable[..., EnrichedProgression]:
    """A progression of `count` chords (I V vi IV repeating), each `beats` long."""

    def build(
        count: int = 4,
        beats: float | Sequence[float] = 4.0,
        functions: Sequence[HarmonicFunction] | None = None,
    ) -> EnrichedProgression:
        lengths = [beats] * count if isinstance(beats, int | float) else list(beats)
        chords = []
        for i in range(count):
            symbol, roman, voicing, function = _POP_CHORDS[i % len(_POP_CHORDS)]
            chords.append(
                ProgressionChord(
                    symbol=symbol,
                    roman=roman,
                    voicing=voicing,
                    beats=lengths[i],
                    function=functions[i] if functions else function,
                )
            )
        return EnrichedProgression(key="C", mode="major", chords=chords)

    return build


@pytest.fixture
def genre_dna() -> Callable[..., GenreDNAVector]:
    """Genre DNA naming an arrangement template, with plausible everything else."""

    def build(template: str = "house_edm", energy: float = 0.6) -> GenreDNAVector:
        return GenreDNAVector(
            genre=template,
            display_name=template,
            tempo_range=(90, 130),
            tempo_default=120,
            swing=54,
            preferred_modes=["minor"],
            preferred_keys=["A"],
            harmonic_vocabulary=["i", "iv", "v"],
            harmonic_complexity=0.3,
            drum_family="four_on_floor",
            bass_style="octave",
            chord_rhythm="stabs",
            roles=["drums", "bass", "chords", "pad", "lead"],
            arrangement_template=template,  # type: ignore[arg-type]
            energy=energy,
        )

    return build
