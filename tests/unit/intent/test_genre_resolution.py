"""The prompt's genre understood (issue 13): multi-word genres beat single words, a genre
named outright beats a mood's or a tempo word's hint, and each genre plays its own drums.

Every prompt of the listening set (bench/prompts/listening.json) resolves to a genre it
accepts, and the misreads of session 5 are pinned one by one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from muse_tui.compose.intent import decompose

LISTENING = Path(__file__).parents[3] / "bench" / "prompts" / "listening.json"


def listening_prompts() -> list[tuple[str, list[str]]]:
    prompts = json.loads(LISTENING.read_text(encoding="utf-8"))["prompts"]
    return [(p["prompt"], p["genre"]) for p in prompts]


@pytest.mark.parametrize(("prompt", "accepted"), listening_prompts())
def test_every_listening_prompt_gets_a_genre_it_names(prompt: str, accepted: list[str]) -> None:
    assert decompose(prompt).intent.genre[0] in accepted


@pytest.mark.parametrize(
    ("prompt", "genre", "family"),
    [
        # Multi-word genres claim their words before a single word does.
        ("ambient techno, 126 BPM, D minor", "techno", "techno"),
        ("dub techno in C minor", "techno", "techno"),
        ("Indian fusion with sitar and tabla, E minor, 96", "indian_fusion", "tabla"),
        ("tropical house with marimba, 110, G major", "tropical_house", "tropical_house"),
        ("chicago blues shuffle in A", "blues", "blues"),
        ("rhythm and blues, 90 BPM", "rnb", "rnb"),
        # A genre named as a style is what the song is played in.
        ("Dilla-style lo-fi beat in F major with Rhodes", "dilla", "dilla"),
        # Trance is EDM's four-on-the-floor family, not techno's.
        ("trance in A minor, 138, pluck lead", "edm", "edm"),
        ("blues in E major with organ and guitar, 80 BPM", "blues", "blues"),
        ("sad piano ballad in E major, 70 BPM", "ballad", "ballad"),
        ("power ballad in D major", "ballad", "ballad"),
    ],
)
def test_a_named_genre_and_its_drums(prompt: str, genre: str, family: str) -> None:
    intent = decompose(prompt).intent
    assert intent.genre[0] == genre
    assert intent.genre_dna is not None and intent.genre_dna.drum_family == family


def test_ambient_techno_keeps_the_techno_pulse() -> None:
    """Ambient colours techno; it no longer meets it at half time (a half-time kit)."""
    intent = decompose("ambient techno, 126 BPM, D minor").intent
    assert intent.tempo == 126
    assert intent.tempo_analysis is not None and not intent.tempo_analysis.half_time


@pytest.mark.parametrize(
    ("prompt", "genre"),
    [
        # "ballad" alone is a slow tempo word: with a genre named, that genre leads.
        ("Neo soul ballad in Db major, 68 bpm, romantic", "neo_soul"),
        ("R&B ballad in Eb", "rnb"),
        ("slow jazz ballad in Eb, brushes, upright bass", "jazz"),
        # A sad mood hints R&B, but the ballad says more.
        ("Sad piano ballad, 70 bpm, C minor", "ballad"),
    ],
)
def test_a_ballad_word_slows_the_genre_it_is_written_with(prompt: str, genre: str) -> None:
    assert decompose(prompt).intent.genre[0] == genre


def test_a_style_genre_is_not_a_modifier_of_the_next() -> None:
    """'Dilla-style lo-fi': both at full weight, the first named leads."""
    intent = decompose("Dilla-style lo-fi beat").intent
    assert intent.genre == ["dilla", "lo_fi"]
    dna = intent.genre_dna
    assert dna is not None and dna.blend["dilla"] == dna.blend["lo_fi"]


def test_a_compound_genre_still_colours_the_next() -> None:
    """'jazz house' stays house coloured by jazz (the spec case)."""
    dna = decompose("jazz house, 122 BPM").intent.genre_dna
    assert dna is not None and dna.blend["house"] > dna.blend["jazz"]
