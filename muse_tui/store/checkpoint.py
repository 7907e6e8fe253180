"""Pipeline checkpoints: `state/pipeline-state.json` and `state/song-state.json`.

Each write keeps the previous checkpoint as `*.bak`. Loading refuses, with a
sentence that says what to do, a checkpoint that is corrupt or from another
schema major version.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

from pydantic import ValidationError

from muse_tui.contracts import SCHEMA_VERSION, ComposerPipeline, Contract, SongState
from muse_tui.store.atomic import TMP_SUFFIX, write_atomic, write_atomic_files

STATE_DIR = "state"
PIPELINE_FILE = "pipeline-state.json"
SONG_FILE = "song-state.json"
BACKUP_SUFFIX = ".bak"
# A stand-in song whose title is a fresh UUID, so its JSON appears nowhere else in a pipeline.
_STAND_IN = SongState(title=f"stand-in {uuid.uuid4()}")


class CheckpointError(Exception):
    """A checkpoint cannot be resumed from; the message is one sentence with a way forward."""


def pipeline_path(session_dir: Path) -> Path:
    return session_dir / STATE_DIR / PIPELINE_FILE


def song_path(session_dir: Path) -> Path:
    return session_dir / STATE_DIR / SONG_FILE


def write_checkpoint(session_dir: Path, pipeline: ComposerPipeline) -> Path:
    """Write both state files atomically, keeping the previous ones as backups."""
    song = _compact_json(pipeline.song_state)
    files = [
        (song_path(session_dir), song),
        (pipeline_path(session_dir), _pipeline_json(pipeline, song)),
    ]
    for path, _ in files:
        if path.exists():
            keep_as_backup(path)
    write_atomic_files(files)  # one folder fsync makes both renames durable
    return pipeline_path(session_dir)


def _compact_json(contract: Contract) -> bytes:
    """`contract.to_json(indent=None)` as the UTF-8 bytes pydantic makes.

    Compact: these are machine files (jq pretty-prints them), and half the bytes
    to sync. Bytes: `to_json` decodes them into a str that the write would
    encode again, which for a long song with non-ASCII names costs a write's worth.
    """
    return contract.__pydantic_serializer__.to_json(contract, by_alias=True)


def _pipeline_json(pipeline: ComposerPipeline, song_json: bytes) -> bytes:
    """`_compact_json(pipeline)`, reusing the song's JSON instead of serialising the song again.

    The song is most of a checkpoint and is written twice, in the song file and
    inside the pipeline file. pydantic writes a nested model exactly as it
    writes it alone, so the pipeline is serialised around a stand-in song whose
    JSON is then swapped for the real song's: half the serialising per checkpoint.
    """
    around = _compact_json(pipeline.model_copy(update={"song_state": _STAND_IN}))
    before, found, after = around.partition(b'"songState":' + _compact_json(_STAND_IN))
    if not found:  # cannot happen while songState is a field; never write a wrong file
        return _compact_json(pipeline)
    return b"".join((before, b'"songState":', song_json, after))


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
