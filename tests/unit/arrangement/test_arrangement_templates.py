"""The arrangement skill file: complete, and a broken copy says what to fix."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from muse_tui.compose.arrangement import arrange
from muse_tui.contracts.intent import ArrangementTemplateName
from muse_tui.knowledge import SkillFileError
from muse_tui.knowledge.arrangement import (
    TEMPLATES_FILE,
    arrangement_table,
)
from muse_tui.knowledge.loader import BUNDLED_SKILLS, load_table

TEMPLATES: list[str] = list(ArrangementTemplateName.__args__)  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    arrangement_table.reload()
    yield
    arrangement_table.reload()


@pytest.fixture
def broken_copy(tmp_path: Path) -> Callable[[Callable[[dict[str, Any]], object]], Path]:
    """Copy the skill file under tmp_path after `damage` edits its JSON; returns the root."""

    def copy(damage: Callable[[dict[str, Any]], object]) -> Path:
        data = json.loads((BUNDLED_SKILLS / TEMPLATES_FILE).read_text(encoding="utf-8"))
        damage(data)
        target = tmp_path / TEMPLATES_FILE
        target.parent.mkdir(parents=True)
        target.write_text(json.dumps(data), encoding="utf-8")
        return tmp_path

    return copy


def test_every_template_the_genre_dna_can_name_is_written() -> None:
    table = arrangement_table()
    assert set(table.templates) == set(TEMPLATES)
    assert [n for n, t in table.templates.items() if t.fallback] == ["generic_fallback"]


def test_the_core_forms_have_their_signature_sections() -> None:
    templates = arrangement_table().templates
    kinds = {name: {s.kind for s in t.sections} for name, t in templates.items()}
    assert {"verse", "pre_chorus", "chorus", "bridge"} <= kinds["pop_rnb"]
    assert {"build", "drop", "breakdown"} <= kinds["house_edm"]
    assert {"verse", "hook"} <= kinds["trap"]
    assert {"head", "solo"} <= kinds["jazz"]
    assert kinds["lo_fi"] <= {"intro", "loop", "outro"}
    assert templates["pop_rnb"].natural_bars == 64


def test_genre_words_pick_their_form_and_anything_else_falls_back() -> None:
    table = arrangement_table()
    assert table.template("House")[0] == "house"
    assert table.template("Drum & Bass")[0] == "dnb"
    assert table.template("lo-fi")[0] == "lo_fi"
    assert table.template("polka")[0] == "generic_fallback"


def test_an_unknown_genre_gets_the_marked_abab_fallback() -> None:
    song = arrange("sea shanty", ["drums", "bass", "chords"], rng=random.Random(1))
    assert song.is_fallback and song.template == "generic_fallback"
    assert [s.kind for s in song.sections if s.kind in ("verse", "chorus")][:4] == [
        "verse",
        "chorus",
        "verse",
        "chorus",
    ]


def test_a_too_short_section_names_the_file_and_the_field(broken_copy) -> None:
    root = broken_copy(lambda d: d["templates"]["pop_rnb"]["sections"][1].update(bars=2))

    with pytest.raises(SkillFileError) as error:
        load_table(TEMPLATES_FILE, type(arrangement_table()), root=root)
    message = str(error.value)
    assert "arrangement-templates.json" in message
    assert "templates.pop_rnb.sections.1.bars" in message


def test_a_misspelt_role_group_names_the_play_list(broken_copy) -> None:
    root = broken_copy(lambda d: d["templates"]["trap"]["sections"][0].update(play=["tops"]))

    with pytest.raises(SkillFileError, match=r"templates\.trap\.sections\.0\.play\.0"):
        arrangement_table(root)


@pytest.mark.parametrize(
    ("break_it", "named"),
    [
        (lambda d: d["templates"].pop("rock"), r"templates: .*missing templates: rock"),
        (
            lambda d: d["templates"]["jazz"].update(fallback=True),
            r"templates: .*only generic_fallback",
        ),
        (lambda d: d["sectionEnergy"].pop("bridge"), r"sectionEnergy: .*bridge"),
    ],
    ids=["a missing template", "a second fallback", "a section kind without an energy"],
)
def test_a_broken_table_is_refused_naming_what(
    broken_copy, break_it: Callable[[dict[str, Any]], object], named: str
) -> None:
    root = broken_copy(break_it)

    with pytest.raises(SkillFileError, match=named):
        arrangement_table(root)


def test_a_file_that_is_not_json_says_where(tmp_path: Path) -> None:
    target = tmp_path / TEMPLATES_FILE
    target.parent.mkdir(parents=True)
    target.write_text('{"templates": {', encoding="utf-8")

    with pytest.raises(SkillFileError, match=r"arrangement-templates\.json: not valid JSON"):
        arrangement_table(tmp_path)


def test_the_skills_folder_can_be_swapped_with_an_environment_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / TEMPLATES_FILE
    target.parent.mkdir(parents=True)
    shutil.copy(BUNDLED_SKILLS / TEMPLATES_FILE, target)
    data = json.loads(target.read_text(encoding="utf-8"))
    data["templates"]["trap"]["displayName"] = "Trap, house rules"
    target.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setenv("MUSE_SKILLS_DIR", str(tmp_path))

    assert arrangement_table().templates["trap"].display_name == "Trap, house rules"


def test_reload_reads_an_edited_file_again(tmp_path: Path) -> None:
    target = tmp_path / TEMPLATES_FILE
    target.parent.mkdir(parents=True)
    shutil.copy(BUNDLED_SKILLS / TEMPLATES_FILE, target)
    assert arrangement_table(tmp_path).templates["jazz"].sections[0].bars == 32

    data = json.loads(target.read_text(encoding="utf-8"))
    data["templates"]["jazz"]["sections"][0]["bars"] = 8
    target.write_text(json.dumps(data), encoding="utf-8")
    assert arrangement_table(tmp_path).templates["jazz"].sections[0].bars == 32
    arrangement_table.reload()
    assert arrangement_table(tmp_path).templates["jazz"].sections[0].bars == 8
