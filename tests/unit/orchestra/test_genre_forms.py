"""A genre's form is heard in the MIDI file: who plays in its signature section."""

from __future__ import annotations

import pytest

from .heard import compose


@pytest.mark.parametrize(("prompt", "seed"), [("roots reggae, one drop, 75 BPM, G major", 2),
                                              ("reggae in A minor, 80 BPM", 5)])  # fmt: skip
def test_reggae_strips_to_drums_and_bass_for_a_dub_break_before_the_last_chorus(
    prompt: str, seed: int
) -> None:
    """Before, reggae took the afrobeats form, whose break left the one drop alone for four
    bars. Now the band drops out to the riddim, drums and bass, and comes back whole."""
    heard = compose(prompt, seed)
    sections = heard.song.arrangement.sections
    (index,) = [i for i, s in enumerate(sections) if s.name == "Dub Break"]
    dub, after = sections[index], sections[index + 1]
    assert after.kind == "chorus" and sections[-1].kind == "outro"

    def playing(section) -> set[str]:
        beats = heard.song.beats_per_bar
        start, end = section.start_bar * beats, (section.start_bar + section.bars) * beats
        return {p.role for p in heard.parts if any(start <= n.start < end for n in p.notes)}

    assert playing(dub) == {"drums", "bass"}
    assert playing(after) >= {"drums", "bass", "chords", "lead"}
