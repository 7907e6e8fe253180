"""The session manifest on disk: files, stage timings, quality and the run's status."""

from __future__ import annotations

from pathlib import Path

from muse_tui.contracts import (
    STAGE_NAMES,
    ComposerPipeline,
    ManifestFile,
    QualitySummary,
    SessionManifest,
    StageTimingEntry,
    ValidationOutput,
)
from muse_tui.store.atomic import read_current, write_atomic

MANIFEST_FILE = "manifest.json"
MANIFEST_DESCRIPTION = "This list: every file of the session, stage timings and quality scores"


def stage_timings(pipeline: ComposerPipeline) -> list[StageTimingEntry]:
    """One entry per stage, 1 to 8, with its duration, tool calls and retries (0 if not run)."""
    entries = []
    for stage, name in STAGE_NAMES.items():
        record = pipeline.stages.get(stage)
        entries.append(
            StageTimingEntry(
                stage=stage,
                name=name,
                duration_ms=(record.duration_ms or 0.0) if record else 0.0,
                tool_call_count=len(record.tool_calls) if record else 0,
                retry_count=record.retry_count if record else 0,
            )
        )
    return entries


def read_manifest(session_dir: Path) -> SessionManifest:
    return SessionManifest.from_json(read_current(session_dir / MANIFEST_FILE))


def quality_summary(pipeline: ComposerPipeline) -> QualitySummary | None:
    """The critics' scores from S7, when it ran."""
    record = pipeline.stages.get(7)
    if record is None:
        return None
    output = record.output
    score = output.quality_report if isinstance(output, ValidationOutput) else record.quality_score
    if score is None:
        return None
    return QualitySummary.model_validate(score, from_attributes=True)


def write_manifest(session_dir: Path, manifest: SessionManifest) -> SessionManifest:
    """Write `manifest.json` listing itself, with its own size; returns what was written."""
    others = [f for f in manifest.files if f.path != MANIFEST_FILE]
    size = 0
    for _ in range(8):  # the size is part of the text; it settles in two or three rounds
        entry = ManifestFile(
            path=MANIFEST_FILE, type="manifest", description=MANIFEST_DESCRIPTION, size_bytes=size
        )
        manifest = manifest.model_copy(update={"files": [*others, entry]})
        text = manifest.to_json()
        if len(text.encode("utf-8")) == size:
            break
        size = len(text.encode("utf-8"))
    write_atomic(session_dir / MANIFEST_FILE, text)
    return manifest
