"""The session manifest: what a finished run wrote, and how long each stage took."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from muse_tui.contracts.base import SCHEMA_VERSION, Contract, SessionId, Uuid

FileType = Literal["progression", "midi", "pattern", "state", "notes", "manifest"]


class ManifestFile(Contract):
    """A file of the session, relative to the session folder."""

    path: str
    type: FileType
    description: str
    size_bytes: int = Field(ge=0)


class StageTimingEntry(Contract):
    """How long one stage took, with its tool calls and retries."""

    stage: int = Field(ge=1, le=8)
    name: str
    duration_ms: float = Field(ge=0)
    tool_call_count: int = Field(default=0, ge=0)
    retry_count: int = Field(default=0, ge=0)


class QualitySummary(Contract):
    """The critics' scores, copied into the manifest."""

    composite: float
    passed: bool
    harmony: float
    rhythm: float
    arrangement: float
    vibe: float


class SessionManifest(Contract):
    """The human- and machine-readable summary of a session folder."""

    session_id: SessionId
    pipeline_id: Uuid
    created_at: str
    prompt: str
    genre: str
    key: str
    tempo: float
    time_signature: tuple[int, int] = (4, 4)
    total_bars: int = Field(ge=0)
    track_count: int = Field(ge=0)
    status: str = "completed"
    files: list[ManifestFile] = Field(default_factory=list)
    stage_timings: list[StageTimingEntry] = Field(default_factory=list)
    quality_score_summary: QualitySummary | None = None
    schema_version: str = SCHEMA_VERSION
    muse_version: str
