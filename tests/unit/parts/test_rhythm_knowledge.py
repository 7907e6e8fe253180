"""The rhythm skill files: every vocabulary word has data, and a hand-edit mistake is named."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from muse_tui.contracts import BassStyle, ChordRhythm, DrumFamily
from muse_tui.knowledge import BUNDLED_SKILLS, SkillFileError, reload_rhythm_table, rhythm_table


def test_every_family_style_and_comping_rhythm_has_data() -> None:
    table = rhythm_table()
    assert set(DrumFamily.__args__) - {"none"} <= set(table.drums.families)  # type: ignore[attr-defined]
    assert set(BassStyle.__args__) - {"none"} <= set(table.bass)  # type: ignore[attr-defined]
    assert set(ChordRhythm.__args__) - {"none"} <= set(table.comping)  # type: ignore[attr-defined]
    trap = table.drums.families["trap"]
    assert trap.hat_rolls is not None and table.grooves[trap.groove]
    assert rhythm_table() is table  # cached


def _copy_skills(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    shutil.copytree(BUNDLED_SKILLS / "rhythm", root / "rhythm")
    return root


def test_a_bad_grid_is_named_by_file_and_field(tmp_path: Path) -> None:
    root = _copy_skills(tmp_path)
    path = root / "rhythm" / "drum-patterns.json"
    data = json.loads(path.read_text())
    data["families"]["trap"]["patterns"]["base"][0]["voices"]["kick"] = "X..q"
    path.write_text(json.dumps(data))
    with pytest.raises(SkillFileError) as caught:
        rhythm_table(root)
    message = str(caught.value)
    assert "drum-patterns.json" in message and "families.trap.patterns.base.0" in message


def test_a_family_naming_a_missing_groove_is_refused(tmp_path: Path) -> None:
    root = _copy_skills(tmp_path)
    path = root / "rhythm" / "drum-patterns.json"
    data = json.loads(path.read_text())
    data["families"]["rock"]["groove"] = "stadium"
    path.write_text(json.dumps(data))
    with pytest.raises(SkillFileError, match=r"families\.rock\.groove: no groove 'stadium'"):
        rhythm_table(root)


def test_reload_reads_the_files_again(tmp_path: Path) -> None:
    root = _copy_skills(tmp_path)
    first = rhythm_table(root)
    path = root / "rhythm" / "grooves.json"
    data = json.loads(path.read_text())
    data["grooves"]["straight"]["timingMs"] = 7
    path.write_text(json.dumps(data))
    assert rhythm_table(root) is first
    reload_rhythm_table()
    assert rhythm_table(root).grooves["straight"].timing_ms == 7
