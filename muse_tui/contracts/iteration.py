"""Change requests and the sensitivity map that decides what a change touches."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, JsonValue

from muse_tui.contracts.base import Contract, Uuid

Cost = Literal["cheap", "moderate", "expensive"]
SensitivityTrigger = Literal[
    "key",
    "tempo",
    "genre",
    "progression",
    "scale",
    "energy",
    "arrangement",
    "preset",
    "role",
    "mixPosition",
]


class SensitivityEntry(Contract):
    """What a component depends on, what regenerating it costs, and which stage does it."""

    sensitive_to: list[SensitivityTrigger]
    regeneration_cost: Cost
    regeneration_stage: int = Field(ge=1, le=8)


SensitivityMap = dict[str, SensitivityEntry]


def default_sensitivity_map() -> SensitivityMap:
    """The default map: drums don't care about the key, the bass does."""
    raw: dict[str, tuple[list[SensitivityTrigger], Cost, int]] = {
        "drums": (["tempo", "genre", "energy", "arrangement"], "moderate", 4),
        "bass": (["key", "progression", "tempo", "genre"], "moderate", 4),
        "chords": (["key", "progression", "scale"], "moderate", 4),
        "lead": (["key", "progression", "scale", "arrangement"], "moderate", 4),
        "preset": (["genre", "role"], "cheap", 5),
        "effectChain": (["genre", "preset", "mixPosition", "tempo"], "cheap", 5),
        "arrangement": (["genre", "energy"], "moderate", 3),
        "progression": (["key", "scale", "genre"], "expensive", 2),
    }
    return {
        name: SensitivityEntry(
            sensitive_to=triggers, regeneration_cost=cost, regeneration_stage=stage
        )
        for name, (triggers, cost, stage) in raw.items()
    }


class ModificationTarget(Contract):
    """One thing a change request aims at: a component, its path, and what to do."""

    component: str
    path: str
    operation: Literal["replace", "adjust", "remove", "add"]
    parameters: dict[str, JsonValue] = Field(default_factory=dict)


class ModificationRequest(Contract):
    """A parsed change request with its blast radius and cost."""

    id: Uuid
    user_text: str
    targets: list[ModificationTarget] = Field(default_factory=list)
    blast_radius: list[str] = Field(default_factory=list)
    estimated_cost: Cost = "moderate"
    confirmation_required: bool = False
