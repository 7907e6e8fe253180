"""The words change requests are read with live in skills/iteration/edit-words.json."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from muse_tui.compose.requests import parse_request
from muse_tui.knowledge import BUNDLED_SKILLS, SkillFileError, edit_words
from muse_tui.knowledge.edit_words import EDIT_WORDS_FILE


def _broken(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    root = tmp_path / "skills"
    shutil.copytree(BUNDLED_SKILLS, root)
    path = root / EDIT_WORDS_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return root


def test_an_effect_word_naming_an_unknown_effect_kind_is_refused(tmp_path: Path) -> None:
    root = _broken(tmp_path, lambda d: d["effectWords"].update(wobble="flanger"))
    expected = r"edit-words\.json: effectWords\.wobble: 'flanger' is not an effect kind in sound/"
    with pytest.raises(SkillFileError, match=expected):
        edit_words(root)


def test_a_role_word_naming_an_unknown_role_is_refused(tmp_path: Path) -> None:
    root = _broken(tmp_path, lambda d: d["roleWords"].update(horns="brass"))
    with pytest.raises(SkillFileError, match=r"edit-words\.json: roleWords\.horns"):
        edit_words(root)


def test_a_pattern_that_does_not_compile_is_refused(tmp_path: Path) -> None:
    root = _broken(tmp_path, lambda d: d["words"].append(["(unclosed", "darker"]))
    with pytest.raises(SkillFileError, match=r"edit-words\.json: words.*not a regular expression"):
        edit_words(root)


def test_an_operation_the_edits_do_not_know_is_refused(tmp_path: Path) -> None:
    root = _broken(tmp_path, lambda d: d["complaints"].append(["too loud", "explode"]))
    with pytest.raises(SkillFileError, match=r"edit-words\.json: complaints"):
        edit_words(root)


def test_a_new_section_word_is_understood_without_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _broken(tmp_path, lambda d: d["sectionWords"].update(refrain="chorus"))
    monkeypatch.setenv("MUSE_SKILLS_DIR", str(root))
    (edit,) = parse_request("make the refrain darker").edits
    assert (edit.operation, edit.scope.section) == ("darker", "chorus")


def test_a_section_verb_that_is_no_section_word_is_refused(tmp_path: Path) -> None:
    root = _broken(tmp_path, lambda d: d["sectionVerbs"].append("riser"))
    with pytest.raises(SkillFileError, match=r"edit-words\.json.*sectionVerbs \['riser'\]"):
        edit_words(root)


def test_a_new_add_verb_is_understood_without_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _broken(tmp_path, lambda d: d.update(addWords=r"\b(add|throw in)\b"))
    monkeypatch.setenv("MUSE_SKILLS_DIR", str(root))
    (edit,) = parse_request("throw in a pad").edits
    assert (edit.operation, edit.scope.role) == ("add_track", "pad")
