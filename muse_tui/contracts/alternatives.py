"""A/B alternatives: variants of one element of the song, scored and ranked."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, JsonValue

from muse_tui.contracts.base import Contract, Uuid
from muse_tui.contracts.song import QualityScore, TrackRole


class ProgressionElement(Contract):
    type: Literal["progression"] = "progression"


class TrackElement(Contract):
    type: Literal["track"] = "track"
    track_id: str
    role: TrackRole


class PresetElement(Contract):
    type: Literal["preset"] = "preset"
    track_id: str


class EffectChainElement(Contract):
    type: Literal["effect_chain"] = "effect_chain"
    track_id: str


class ArrangementElement(Contract):
    type: Literal["arrangement"] = "arrangement"


AlternativeElement = Annotated[
    ProgressionElement | TrackElement | PresetElement | EffectChainElement | ArrangementElement,
    Field(discriminator="type"),
]


class Alternative(Contract):
    """One variant: a label, how it differs, its payload and its score."""

    label: str
    description: str
    data: JsonValue = None
    file_path: str | None = None
    quality_score: QualityScore | None = None
    score: float = Field(ge=0, le=1)
    parameter_delta: dict[str, JsonValue] = Field(default_factory=dict)
    content_hash: str = ""


class AlternativeSet(Contract):
    """The variants of one element, best first, and which one is in use."""

    id: Uuid
    element: AlternativeElement
    variants: list[Alternative] = Field(min_length=1)
    selected_index: int = Field(default=0, ge=0)
    generated_at: str
    batch: int = Field(default=0, ge=0)
