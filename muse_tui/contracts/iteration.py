"""Change requests and the sensitivity map that decides what a change touches."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, JsonValue

from muse_tui.contracts.base import Contract, Uuid

Cost = Literal["cheap", "moderate", "expensive"]
SensitivityTrigger = Literal[
    "key",
    "tempo",
    "meter",
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
