"""The knowledge in `skills/`, loaded and validated into typed, cached tables.

Each table is a `skill_table`: called with no argument it reads the skills
folder in use, or the folder it is given; `reload_all()` forgets every table
at once (hot reload after a skill file changes).
"""

import importlib
import pkgutil
from pathlib import Path

from muse_tui.knowledge import sound
from muse_tui.knowledge.arrangement import (
    ArrangementTable,
    ArrangementTemplate,
    SectionTemplate,
    arrangement_table,
)
from muse_tui.knowledge.artists import (
    ArtistEntry,
    ArtistTable,
    artist_table,
    reload_intent_knowledge,
)
from muse_tui.knowledge.critics import critic_table
from muse_tui.knowledge.edit_words import EditWords, edit_words
from muse_tui.knowledge.genres import GenreTable, genre_table
from muse_tui.knowledge.lexicon import IntentLexicon, intent_lexicon
from muse_tui.knowledge.loader import BUNDLED_SKILLS, SkillFileError, load_table, skills_root
from muse_tui.knowledge.meters import MeterGroove, MeterTable, meter_table
from muse_tui.knowledge.progressions import ProgressionTable, progression_table
from muse_tui.knowledge.rhythm import DrumTable, Groove, RhythmTable, rhythm_table
from muse_tui.knowledge.sensitivity import sensitivity_map
from muse_tui.knowledge.sound import (
    EffectsTable,
    MoodPalette,
    SoundCatalog,
    SoundEntry,
    effects_table,
    mood_palette,
    sound_catalog,
)
from muse_tui.knowledge.table import SkillTable, every_table, reload_all_tables, skill_table

#: Per-table reloads, under the names callers already use.
reload_arrangement_table = arrangement_table.reload
reload_rhythm_table = rhythm_table.reload
reload_sound_tables = sound.reload


def all_tables() -> list[SkillTable[object]]:
    """Every table of `skills/`: each module of this package is imported, so each
    `skill_table` it defines is registered (`table.every_table`), none left out by hand."""
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return every_table()


def check_all(root: Path) -> None:
    """Load every table from `root`, leaving those in use alone; SkillFileError if one is broken.

    Hot reload (`tui.watch.reload_skills`) checks a changed folder this way before it
    forgets the tables in use, so one broken file keeps every last good table.
    """
    for load in all_tables():
        load(root)


def reload_all() -> None:
    """Forget every cached table; the next read loads the files again."""
    reload_all_tables()
    sound.reload()


__all__ = [
    "BUNDLED_SKILLS",
    "ArrangementTable",
    "ArrangementTemplate",
    "ArtistEntry",
    "ArtistTable",
    "DrumTable",
    "EditWords",
    "EffectsTable",
    "GenreTable",
    "Groove",
    "IntentLexicon",
    "MeterGroove",
    "MeterTable",
    "MoodPalette",
    "ProgressionTable",
    "RhythmTable",
    "SectionTemplate",
    "SkillFileError",
    "SkillTable",
    "SoundCatalog",
    "SoundEntry",
    "all_tables",
    "arrangement_table",
    "artist_table",
    "check_all",
    "critic_table",
    "edit_words",
    "effects_table",
    "genre_table",
    "intent_lexicon",
    "load_table",
    "meter_table",
    "mood_palette",
    "progression_table",
    "reload_all",
    "reload_arrangement_table",
    "reload_intent_knowledge",
    "reload_rhythm_table",
    "reload_sound_tables",
    "rhythm_table",
    "sensitivity_map",
    "skill_table",
    "skills_root",
    "sound_catalog",
]
