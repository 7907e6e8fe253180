"""Pipeline checkpoints: `state/pipeline-state.json` and `state/song-state.json`.

Each write keeps the previous checkpoint as `*.bak`. Loading refuses, with a
sentence that says what to do, a checkpoint that is corrupt or from another
schema major version.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydantic import ValidationError

from muse_tui.contracts import SCHEMA_VERSION, ComposerPipeline
from muse_tui.store.atomic import TMP_SUFFIX, write_atomic

STATE_DIR = "state"
PIPELINE_FILE = "pipeline-state.json"
SONG_FILE = "song-state.json"
BACKUP_SUFFIX = ".bak"


class CheckpointError(Exception):
    """A checkpoint cannot be resumed from; the message is one sentence with a way forward."""


def pipeline_path(session_dir: Path) -> Path:
    return session_dir / STATE_DIR / PIPELINE_FILE


def song_path(session_dir: Path) -> Path:
    return session_dir / STATE_DIR / SONG_FILE


def write_checkpoint(session_dir: Path, pipeline: ComposerPipeline) -> Path:
    """Write both state files atomically, keeping the previous ones as backups."""
    for path, text in (
        # Compact JSON: these are machine files (jq pretty-prints them), and half the bytes to sync.
        (song_path(session_dir), pipeline.song_state.to_json(indent=None)),
        (pipeline_path(session_dir), pipeline.to_json(indent=None)),
    ):
        if path.exists():
            keep_as_backup(path)
        write_atomic(path, text)
    return pipeline_path(session_dir)


def keep_as_backup(path: Path) -> None:
    """Make the current file the backup: a hard link renamed into place, or a copy."""
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    link = path.with_name(f".{path.name}.link{TMP_SUFFIX}")
    try:
        link.unlink(missing_ok=True)
        os.link(path, link)  # no bytes copied; the next write replaces `path` with a new file
        os.replace(link, backup)
    except OSError:
        link.unlink(missing_ok=True)
        write_atomic(backup, path.read_bytes())


def resolve_checkpoint(target: Path) -> Path:
    """The pipeline-state file for a session folder or a checkpoint path."""
    return pipeline_path(target) if target.is_dir() else target


def load_checkpoint(target: Path) -> ComposerPipeline:
    """Read a checkpoint from a session folder or a `pipeline-state.json` path."""
    path = resolve_checkpoint(target)
    start_fresh = 'start fresh with `muse-studio compose "PROMPT"`'
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CheckpointError(
            f"cannot resume: there is no checkpoint at {path}; {start_fresh}."
        ) from None
    except OSError as exc:
        raise CheckpointError(f"cannot resume: {path} cannot be read ({exc.strerror}).") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CheckpointError(
            f"cannot resume: {path} is corrupt (not JSON at line {exc.lineno}); "
            f"resume from its backup {path.name}{BACKUP_SUFFIX} or {start_fresh}."
        ) from None
    version = str(raw.get("version", "?")) if isinstance(raw, dict) else "?"
    if version.split(".")[0] != SCHEMA_VERSION.split(".")[0]:
        raise CheckpointError(
            f"cannot resume: {path} was written by schema {version}, this muse-studio reads "
            f"{SCHEMA_VERSION}; {start_fresh}."
        )
    try:
        return ComposerPipeline.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise CheckpointError(
            f"cannot resume: {path} is corrupt ({where}: {first['msg']}); {start_fresh}."
        ) from None
