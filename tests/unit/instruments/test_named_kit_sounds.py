"""A hand-percussion sound the producer names plays on its own track; the kit leaves it there."""

from __future__ import annotations

from pathlib import Path

import pytest

from muse_tui.theory.drums import VOICE_PITCHES

from .heard import compose


@pytest.mark.parametrize(
    ("prompt", "voice"),
    [
        ("phonk with cowbell, 130 BPM, C# minor", "cowbell"),  # the phonk kit plays one too
        ("deep house with shaker, 122 BPM, F minor", "shaker"),
    ],
)
def test_a_named_sound_is_played_once_on_its_own_track(
    tmp_path: Path, prompt: str, voice: str
) -> None:
    song, _ = compose(tmp_path, prompt)
    drums = next(t for t in song.tracks if t.role == "drums")
    percussion = next(t for t in song.tracks if t.role == "percussion")
    pitch = VOICE_PITCHES[voice]
    assert any(n.pitch == pitch for n in percussion.notes), f"no {voice} on its track"
    assert not any(n.pitch == pitch for n in drums.notes), f"the kit doubles the {voice}"
