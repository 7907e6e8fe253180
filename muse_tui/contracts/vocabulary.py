"""The contract's small vocabularies: plain names and constants, no pydantic models.

What the studio's first frame and the settings file need (the stage names, the
track roles) lives here, so reading them builds none of the models; the model
modules import them from here.
"""

from __future__ import annotations

from typing import Literal

TrackRole = Literal[
    "drums", "percussion", "bass", "sub_bass", "chords", "keys", "lead", "pad", "texture", "arp"
]
TRACK_ROLES: tuple[TrackRole, ...] = TrackRole.__args__  # type: ignore[attr-defined]

#: Stage number → the name a producer sees in the tracker.
STAGE_NAMES: dict[int, str] = {
    1: "Intent",
    2: "Harmony",
    3: "Arrangement",
    4: "Parts",
    5: "Sounds",
    6: "Assembly",
    7: "Validation",
    8: "Output",
}
