"""The knowledge in `skills/`, loaded and validated into typed, cached tables."""

from muse_tui.knowledge.loader import BUNDLED_SKILLS, SkillFileError, load_table, skills_root

__all__ = ["BUNDLED_SKILLS", "SkillFileError", "load_table", "skills_root"]
