"""Hot reload keeps the last good knowledge whichever skill file breaks.

Every JSON file under `skills/` is broken in turn, in a copy of the folder the
tables are loaded from: the check names that file, and every table in use stays
the one loaded before. Fixing the file brings the new tables in.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from muse_tui.knowledge import BUNDLED_SKILLS, all_tables, reload_all
from muse_tui.tui.watch import reload_skills

FILES = sorted(p.relative_to(BUNDLED_SKILLS).as_posix() for p in BUNDLED_SKILLS.rglob("*.json"))


def test_every_table_is_registered_without_a_list_kept_by_hand() -> None:
    assert len(FILES) > 40
    assert {t.__name__ for t in all_tables()} >= {
        "question_table",
        "melody_table",
        "band_table",
        "directive_table",
        "meter_table",
        "rhythm_table",
    }


@pytest.mark.slow  # 44 copies of the skills folder, each loaded whole twice
@pytest.mark.parametrize("relative", FILES)
def test_a_broken_file_keeps_every_last_good_table(tmp_path: Path, relative: str) -> None:
    root = tmp_path / "skills"
    shutil.copytree(BUNDLED_SKILLS, root)
    in_use = {table.__name__: table(root) for table in all_tables()}
    good = (root / relative).read_text(encoding="utf-8")

    (root / relative).write_text(good[: len(good) // 2], encoding="utf-8")
    problem = reload_skills(root)

    assert problem is not None and Path(relative).name in problem, problem
    assert "last good version stays in use" in problem
    for table in all_tables():
        assert table(root) is in_use[table.__name__], f"{table.__name__} lost its last good table"

    (root / relative).write_text(good, encoding="utf-8")
    assert reload_skills(root) is None
    reload_all()
