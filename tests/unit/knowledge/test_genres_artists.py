"""The genre DNA, artist map and intent lexicon in `skills/harmony/`: complete, consistent, and
a hand-edited mistake is reported by file and field instead of crashing the studio."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from muse_tui.compose.intent import decompose
from muse_tui.contracts.intent import ArrangementTemplateName
from muse_tui.knowledge import (
    SkillFileError,
    artist_table,
    genre_table,
    intent_lexicon,
    reload_intent_knowledge,
)
from muse_tui.knowledge.artists import ARTIST_FILE
from muse_tui.knowledge.genres import GENRE_FILE, MODES
from muse_tui.knowledge.instruments import INSTRUMENTS_FILE
from muse_tui.knowledge.lexicon import LEXICON_FILE

CATEGORIES = ("hip_hop", "rnb", "electronic", "jazz", "pop", "rock", "latin_afro")
TEMPLATES: tuple[str, ...] = ArrangementTemplateName.__args__  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _fresh_tables() -> Iterator[None]:
    reload_intent_knowledge()
    yield
    reload_intent_knowledge()


def edit(root: Path, name: str, change: Callable[[dict[str, Any]], None]) -> None:
    path = root / name
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def test_there_are_at_least_24_genres_with_vocabulary_the_generators_know() -> None:
    genres = genre_table().genres
    assert len(genres) >= 24
    for genre_id, dna in genres.items():
        assert dna.genre == genre_id
        assert dna.arrangement_template in TEMPLATES
        assert set(dna.preferred_modes) <= set(MODES)
        assert dna.tempo_range[0] <= dna.tempo_default <= dna.tempo_range[1]
        assert 50 <= dna.swing <= 75


def test_the_genres_a_producer_names_most_are_there() -> None:
    expected = {
        "trap", "drill", "boom_bap", "hip_hop", "lo_fi", "neo_soul", "rnb", "pop", "house",
        "deep_house", "techno", "uk_garage", "dubstep", "dnb", "ambient", "jazz", "jazz_fusion",
        "gospel", "funk", "disco", "rock", "indie", "afrobeats", "amapiano", "reggaeton",
        "dembow", "latin", "bossa_nova", "synthwave", "future_bass", "trip_hop", "cinematic",
    }  # fmt: skip
    assert expected <= set(genre_table().genres)


def test_there_are_at_least_100_artists_across_every_category() -> None:
    artists = artist_table().artists
    per_category = Counter(entry.category for entry in artists.values())
    print(f"\nartists: {len(artists)} {dict(per_category)}")
    assert len(artists) >= 100
    for category in CATEGORIES:
        assert per_category[category] >= 8, category


def test_every_artist_maps_to_a_known_genre_with_a_tempo_and_traits() -> None:
    genres = genre_table()
    for name, entry in artist_table().artists.items():
        assert entry.genre in genres, name
        assert entry.tempo[0] <= entry.tempo[1], name
        assert entry.traits, name


def test_the_spec_example_artists_are_mapped() -> None:
    artists = artist_table()
    assert artists.get("Frank Ocean").genre == "neo_soul"
    assert artists.get("Frank Ocean").tempo == (60, 75)
    assert artists.get("Burial").genre == "uk_garage"
    assert artists.get("Burial").tempo == (130, 140)


def test_every_genre_can_be_named_and_has_usual_moods() -> None:
    lexicon = intent_lexicon()
    for genre_id in genre_table().genres:
        assert lexicon.genre_aliases[genre_id]
        assert lexicon.genre_moods[genre_id]


def test_the_tables_load_from_another_folder_by_environment(
    skills_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    edit(skills_copy, GENRE_FILE, lambda d: d["genres"]["trap"].update(tempoDefault=150))
    monkeypatch.setenv("MUSE_SKILLS_DIR", str(skills_copy))
    assert genre_table().get("trap").tempo_default == 150
    assert decompose("trap beat").intent.tempo == 150


def test_reload_reads_an_edited_file_again(skills_copy: Path) -> None:
    assert genre_table(skills_copy).get("house").tempo_default == 124
    edit(skills_copy, GENRE_FILE, lambda d: d["genres"]["house"].update(tempoDefault=126))
    assert genre_table(skills_copy).get("house").tempo_default == 124  # cached
    reload_intent_knowledge()
    assert genre_table(skills_copy).get("house").tempo_default == 126


def _break_drum_family(d: dict[str, Any]) -> None:
    d["genres"]["trap"]["drumFamily"] = "trapp"


def _break_tempo(d: dict[str, Any]) -> None:
    d["genres"]["house"]["tempoDefault"] = 200


def _break_mode(d: dict[str, Any]) -> None:
    d["genres"]["jazz"]["preferredModes"] = ["dorain"]


def _break_artist_genre(d: dict[str, Any]) -> None:
    d["artists"]["Burial"]["genre"] = "funeral_doom"


def _break_artist_mood(d: dict[str, Any]) -> None:
    d["artists"]["Frank Ocean"]["moods"] = ["sleepy-ish"]


def _break_artist_tempo(d: dict[str, Any]) -> None:
    d["artists"]["Nujabes"]["tempo"] = [95, 80]


def _break_pattern(d: dict[str, Any]) -> None:
    d["constraints"]["no reverb"]["patterns"] = ["no (reverb"]


def _break_role(d: dict[str, Any]) -> None:
    d["instruments"]["piano"]["role"] = "ivories"


def _break_hint(d: dict[str, Any]) -> None:
    d["moods"]["warm"]["genreHints"] = ["neo_soul", "cosy_core"]


@pytest.mark.parametrize(
    ("name", "change", "field"),
    [
        (GENRE_FILE, _break_drum_family, "genres.trap.drumFamily"),
        (GENRE_FILE, _break_tempo, "genres.house"),
        (GENRE_FILE, _break_mode, "genres.jazz.preferredModes"),
        (ARTIST_FILE, _break_artist_genre, "artists.Burial.genre"),
        (ARTIST_FILE, _break_artist_mood, "artists.Frank Ocean.moods"),
        (ARTIST_FILE, _break_artist_tempo, "artists.Nujabes"),
        (LEXICON_FILE, _break_pattern, "constraints.no reverb.patterns"),
        (INSTRUMENTS_FILE, _break_role, "instruments.piano.role"),
        (LEXICON_FILE, _break_hint, "moods.warm.genreHints"),
    ],
)
def test_a_broken_file_is_reported_by_file_and_field(
    skills_copy: Path, name: str, change: Callable[[dict[str, Any]], None], field: str
) -> None:
    edit(skills_copy, name, change)
    with pytest.raises(SkillFileError) as caught:
        artist_table(skills_copy)  # loads all three, checked against each other
    message = str(caught.value)
    assert Path(name).name in message
    assert field in message


def test_a_file_that_is_not_json_says_where(skills_copy: Path) -> None:
    (skills_copy / LEXICON_FILE).write_text('{"version": 1,\n  "moods": {,}}', encoding="utf-8")
    with pytest.raises(SkillFileError, match=r"intent-lexicon\.json: not valid JSON at line 2"):
        intent_lexicon(skills_copy)


def test_a_missing_file_is_named(skills_copy: Path) -> None:
    (skills_copy / ARTIST_FILE).unlink()
    with pytest.raises(SkillFileError, match=r"artist-genre-map\.json: the file is missing"):
        artist_table(skills_copy)


def test_decompose_reports_a_broken_file_as_a_skill_file_error(skills_copy: Path) -> None:
    edit(skills_copy, GENRE_FILE, _break_drum_family)
    with pytest.raises(SkillFileError):
        decompose("trap beat", root=skills_copy)
