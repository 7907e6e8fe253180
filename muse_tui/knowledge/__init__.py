"""The knowledge in `skills/`, loaded and validated into typed, cached tables."""

from muse_tui.knowledge.loader import BUNDLED_SKILLS, SkillFileError, load_table, skills_root

__all__ = ["BUNDLED_SKILLS", "SkillFileError", "load_table", "skills_root"]

from muse_tui.knowledge.arrangement import (
    ArrangementTable,
    ArrangementTemplate,
    SectionTemplate,
    arrangement_table,
)
from muse_tui.knowledge.arrangement import reload as reload_arrangement_table

__all__ += [
    "ArrangementTable",
    "ArrangementTemplate",
    "SectionTemplate",
    "arrangement_table",
    "reload_arrangement_table",
]
