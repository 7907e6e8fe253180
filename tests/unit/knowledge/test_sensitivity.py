"""The default sensitivity map is data: skills/iteration/sensitivity.json."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from muse_tui.knowledge import BUNDLED_SKILLS, SkillFileError, sensitivity_map
from muse_tui.knowledge.sensitivity import SENSITIVITY_FILE


def test_the_bundled_map_says_what_each_part_listens_to() -> None:
    table = sensitivity_map()
    assert "key" not in table["drums"].sensitive_to
    assert {"key", "progression"} <= set(table["bass"].sensitive_to)
    assert table["progression"].regeneration_cost == "expensive"
    assert table["preset"].regeneration_stage == 5
    assert set(table) == {
        "drums",
        "bass",
        "chords",
        "lead",
        "preset",
        "effectChain",
        "arrangement",
        "progression",
    }


def _broken(tmp_path: Path, name: str, entry: dict[str, object]) -> Path:
    root = tmp_path / "skills"
    shutil.copytree(BUNDLED_SKILLS, root)
    path = root / SENSITIVITY_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    data["components"][name] = entry
    path.write_text(json.dumps(data), encoding="utf-8")
    return root


def test_an_unknown_component_is_named_with_its_file(tmp_path: Path) -> None:
    entry = {"sensitiveTo": ["key"], "regenerationCost": "cheap", "regenerationStage": 4}
    root = _broken(tmp_path, "horns", entry)
    with pytest.raises(SkillFileError, match=r"sensitivity\.json: components\.horns: not a"):
        sensitivity_map(root)


def test_an_unknown_trigger_is_named_with_its_field(tmp_path: Path) -> None:
    entry = {"sensitiveTo": ["moon"], "regenerationCost": "cheap", "regenerationStage": 4}
    root = _broken(tmp_path, "pad", entry)
    with pytest.raises(SkillFileError, match=r"sensitivity\.json: components\.pad\.sensitiveTo"):
        sensitivity_map(root)
