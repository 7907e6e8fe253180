"""The sensitivity map from `skills/iteration/sensitivity.json`: what a change reaches."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from muse_tui.contracts.base import Contract
from muse_tui.contracts.iteration import SensitivityEntry, SensitivityMap
from muse_tui.contracts.song import TRACK_ROLES
from muse_tui.knowledge.loader import SkillFileError, load_table
from muse_tui.knowledge.table import skill_table

SENSITIVITY_FILE = "iteration/sensitivity.json"
#: What a map may name besides the track roles.
SONG_COMPONENTS = ("preset", "effectChain", "arrangement", "progression")


class _SensitivityFile(Contract):
    about: str = ""
    components: dict[str, SensitivityEntry] = Field(min_length=1)


@skill_table
def sensitivity_map(root: Path) -> SensitivityMap:
    """The default sensitivity map under `root`, every component checked, cached."""
    raw = load_table(SENSITIVITY_FILE, _SensitivityFile, root=root)
    known = (*TRACK_ROLES, *SONG_COMPONENTS)
    for name in raw.components:
        if name not in known:
            raise SkillFileError(
                root / SENSITIVITY_FILE,
                f"components.{name}: not a component; "
                f"use a track role or {', '.join(SONG_COMPONENTS)}",
            )
    return dict(raw.components)
