"""The session manifest on disk: stage timings and the run's status, kept current."""

from __future__ import annotations

from pathlib import Path

from muse_tui.contracts import STAGE_NAMES, ComposerPipeline, SessionManifest, StageTimingEntry
from muse_tui.store.atomic import write_atomic

MANIFEST_FILE = "manifest.json"


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
    return SessionManifest.from_json((session_dir / MANIFEST_FILE).read_bytes())


def record_run_in_manifest(session_dir: Path, pipeline: ComposerPipeline) -> bool:
    """Bring an existing manifest's timings and status up to date; False if there is none yet."""
    path = session_dir / MANIFEST_FILE
    if not path.exists():
        return False
    manifest = read_manifest(session_dir).model_copy(
        update={"stage_timings": stage_timings(pipeline), "status": pipeline.status}
    )
    write_atomic(path, manifest.to_json())
    return True
