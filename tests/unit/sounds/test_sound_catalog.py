"""The sound skill files: honest names, user entries merged in, clear errors when broken."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from muse_tui.compose.sounds import assign_sounds
from muse_tui.knowledge.loader import BUNDLED_SKILLS, SkillFileError
from muse_tui.knowledge.sound import (
    CATALOG_FILE,
    EFFECTS_FILE,
    USER_CATALOG_FILE,
    effects_table,
    reload,
    sound_catalog,
)
from tests.unit.sounds.songs import band, intent_for

#: Plugin instruments that ship with MPC Beats; any other engine must be described.
STOCK_ENGINES = {"TubeSynth", "Bassline", "Electric", "DrumSynth"}


@pytest.fixture(autouse=True)
def fresh_tables() -> Iterator[None]:
    reload()
    yield
    reload()


@pytest.fixture
def skills(skills_copy: Path) -> Path:
    """A private copy of the skill files to edit (kit roles come from the rhythm files)."""
    return skills_copy


def raw_catalog() -> dict:
    return json.loads((BUNDLED_SKILLS / CATALOG_FILE).read_text(encoding="utf-8"))


def test_no_sound_name_claims_a_product_without_saying_where_it_comes_from() -> None:
    for entry in raw_catalog()["entries"]:
        where = entry["id"]
        assert entry["source"].strip(), where
        assert entry["engineSource"].strip(), where
        if entry["source"] == "described":
            assert not entry["name"][0].isupper(), f"{where}: a description, not a product name"
            assert len(entry["name"].split()) >= 3, where
        else:
            assert len(entry["source"]) >= 6, f"{where}: the source must name where it is from"
        if entry["engine"] in STOCK_ENGINES:
            assert entry["engineSource"] == "MPC Beats stock plugin list", where
        else:
            assert entry["engineSource"] == "described", where
            assert entry["engine"][0].islower(), f"{where}: {entry['engine']!r} looks like a name"


def test_effect_names_are_sourced_or_described() -> None:
    raw = json.loads((BUNDLED_SKILLS / EFFECTS_FILE).read_text(encoding="utf-8"))
    for kind, unit in raw["units"].items():
        if unit["source"] == "described":
            assert unit["name"][0].islower(), kind
        else:
            assert unit["name"].startswith("AIR "), kind
            assert "MPC Beats" in unit["source"], kind


def test_the_catalog_covers_every_role_with_a_fallback_sound() -> None:
    catalog = sound_catalog()

    assert len(catalog.entries) >= 60
    assert len({e.id for e in catalog.entries}) == len(catalog.entries)


def test_a_user_catalog_replaces_and_adds_sounds(skills: Path) -> None:
    bundled = next(e for e in sound_catalog().entries if e.id == "chords.tine-ep")
    mine = {
        **bundled.model_dump(by_alias=True),
        "name": "my own sampled suitcase piano with a slow tremolo",
    }
    new = {
        "id": "user.toy-piano",
        "roles": ["keys"],
        "genres": ["lo_fi"],
        "engine": "keygroup program (my toy piano samples)",
        "engineSource": "described",
        "name": "detuned toy piano recorded on a phone",
        "category": "toy piano",
        "gmProgram": 8,
        "source": "described",
        "tags": ["dusty", "nostalgic"],
    }
    (skills / USER_CATALOG_FILE).write_text(json.dumps({"entries": [mine, new]}), encoding="utf-8")

    catalog = sound_catalog(skills)

    ids = [e.id for e in catalog.entries]
    assert ids.count("chords.tine-ep") == 1
    assert next(e for e in catalog.entries if e.id == "chords.tine-ep").name.startswith("my own")
    assert "user.toy-piano" in ids
    plan = assign_sounds(
        band(("keys",), genre="lo_fi"),
        intent_for("lo_fi", requests=["toy piano"]),
        random.Random(1),
        catalog=catalog,
    )
    assert plan.presets[0].preset.id == "user.toy-piano"


def test_a_user_catalog_can_live_anywhere(skills: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "config" / "my-sounds.json"
    elsewhere.parent.mkdir()
    elsewhere.write_text('{"entries": []}', encoding="utf-8")

    assert len(sound_catalog(skills, user_catalog=elsewhere).entries) == len(
        sound_catalog(skills).entries
    )


def test_a_broken_catalog_names_the_file_and_the_field(skills: Path) -> None:
    raw = raw_catalog()
    del raw["entries"][3]["gmDrumKit"]
    (skills / CATALOG_FILE).write_text(json.dumps(raw), encoding="utf-8")

    with pytest.raises(SkillFileError) as caught:
        sound_catalog(skills)

    message = str(caught.value)
    assert "catalog.json" in message
    assert "entries.3" in message and "gmDrumKit" in message


def test_an_invented_preset_name_without_a_source_is_refused(skills: Path) -> None:
    entry = {**raw_catalog()["entries"][0], "id": "user.fake", "name": "Tube Pad 04"}
    (skills / USER_CATALOG_FILE).write_text(json.dumps({"entries": [entry]}), encoding="utf-8")

    with pytest.raises(SkillFileError) as caught:
        sound_catalog(skills)

    assert "user-catalog.json" in str(caught.value)
    assert "Tube Pad 04" in str(caught.value)


def test_a_catalog_that_is_not_json_says_where(skills: Path) -> None:
    (skills / CATALOG_FILE).write_text('{"entries": [', encoding="utf-8")

    with pytest.raises(SkillFileError, match=r"catalog\.json: not valid JSON at line 1"):
        sound_catalog(skills)


def test_a_broken_effects_file_names_the_role_and_kind(skills: Path) -> None:
    raw = json.loads((skills / EFFECTS_FILE).read_text(encoding="utf-8"))
    raw["roleChains"]["drums"]["inserts"][0]["kind"] = "flanger"
    (skills / EFFECTS_FILE).write_text(json.dumps(raw), encoding="utf-8")

    with pytest.raises(SkillFileError) as caught:
        effects_table(skills)

    assert "effects.json" in str(caught.value)
    assert "roleChains.drums" in str(caught.value) and "flanger" in str(caught.value)


def test_reload_reads_an_edited_file(skills: Path) -> None:
    before = len(sound_catalog(skills).entries)
    raw = json.loads((skills / CATALOG_FILE).read_text(encoding="utf-8"))
    raw["entries"] = [e for e in raw["entries"] if e["id"] != "chords.tine-ep"]
    (skills / CATALOG_FILE).write_text(json.dumps(raw), encoding="utf-8")

    assert len(sound_catalog(skills).entries) == before
    reload()
    assert len(sound_catalog(skills).entries) == before - 1
