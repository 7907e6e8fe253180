"""Pipeline checkpoints: `state/pipeline-state.json` and `state/song-state.json`.

Each write keeps the previous checkpoint as `*.bak` (store/backups.py). Loading refuses, with a
sentence that says what to do, a checkpoint that is corrupt or from another
schema major version.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from pydantic import ValidationError

from muse_tui.contracts import SCHEMA_VERSION, ComposerPipeline, Contract, Region, SongState
from muse_tui.store.atomic import STAGING, WriteFailed, write_atomic_files
from muse_tui.store.backups import good_backup, keep_as_backup
from muse_tui.store.transaction import note_checkpoint, recover, refuse_outside_all

STATE_DIR = "state"
PIPELINE_FILE = "pipeline-state.json"
SONG_FILE = "song-state.json"
# A stand-in song whose title is a fresh UUID, so its JSON appears nowhere else in a pipeline.
_STAND_IN = SongState(title=f"stand-in {uuid.uuid4()}")


class CheckpointError(Exception):
    """A checkpoint cannot be resumed from; the message is one sentence with a way forward."""


def pipeline_path(session_dir: Path) -> Path:
    return session_dir / STATE_DIR / PIPELINE_FILE


def song_path(session_dir: Path) -> Path:
    return session_dir / STATE_DIR / SONG_FILE


def write_checkpoint(
    session_dir: Path,
    pipeline: ComposerPipeline,
    *,
    durable: bool = True,
) -> Path:
    """Write both state files atomically, keeping the previous ones as backups.

    `durable=False` skips the fsyncs, for checkpoints cheap to redo (S1–S3):
    a killed process still leaves whole files. Both files must be inside the
    session folder (a `state` symlink leading out is refused).
    """
    song = song_to_json(pipeline.song_state)
    frame = pipeline_frame(pipeline)
    pipeline_bytes = framed(frame, song) if frame is not None else _compact_json(pipeline)
    return write_state_files(session_dir, pipeline_bytes, song, durable=durable)


def write_state_files(
    session_dir: Path,
    pipeline_bytes: bytes,
    song_bytes: bytes,
    *,
    durable: bool = True,
    ours: bool = False,
) -> Path:
    """`write_checkpoint` of JSON already made: the pipeline file's and the song file's bytes.

    `ours`: the files there now are this writer's previous checkpoint (see `keep_as_backup`).
    """
    files = [(song_path(session_dir), song_bytes), (pipeline_path(session_dir), pipeline_bytes)]
    refuse_outside_all(session_dir, [path for path, _ in files])
    for path, _ in files:
        keep_as_backup(path, ours=ours)  # in an open change, the backup lands with the change
    write_atomic_files(files, durable=durable)  # one folder fsync makes both renames durable
    if STAGING.get() is None:
        note_checkpoint(session_dir, pipeline_bytes)
    return pipeline_path(session_dir)


def song_to_json(song: SongState) -> bytes:
    """The song file's bytes: compact JSON, as the checkpoint writes it."""
    return _compact_json(song)


class SongJson:
    """`song_to_json` for the songs of one run, each region serialised once.

    A run checkpoints after every stage, and most stages keep most regions: S5
    gives the tracks their sounds and keeps every note. pydantic writes a nested
    model exactly as it writes it alone, so the song is serialised around a
    stand-in region whose JSON is then swapped, in order, for each region's own,
    remembered by identity (models are never changed in place). The bytes are
    `song_to_json`'s; if the stand-in cannot be found as often as there are
    regions (it always can while regions are a list of `Region`), the song is
    serialised whole.
    """

    def __init__(self) -> None:
        self._regions: dict[int, tuple[Region, bytes]] = {}

    def __call__(self, song: SongState) -> bytes:
        regions = [region for track in song.tracks for region in track.regions]
        if not regions:
            return song_to_json(song)
        tracks = [
            track.model_copy(update={"regions": [_STAND_IN_REGION] * len(track.regions)})
            for track in song.tracks
        ]
        around = _compact_json(song.model_copy(update={"tracks": tracks}))
        between = around.split(_STAND_IN_REGION_JSON)
        if len(between) != len(regions) + 1:
            return song_to_json(song)
        known, self._regions = self._regions, {}
        pieces = [between[0]]
        for region, after in zip(regions, between[1:], strict=True):
            seen = known.get(id(region))
            data = seen[1] if seen is not None and seen[0] is region else _compact_json(region)
            self._regions[id(region)] = (region, data)
            pieces += (data, after)
        return b"".join(pieces)


def _compact_json(contract: Contract) -> bytes:
    """`contract.to_json(indent=None)` as the UTF-8 bytes pydantic makes.

    Compact: these are machine files (jq pretty-prints them), and half the bytes
    to sync. Bytes: `to_json` decodes them into a str that the write would
    encode again, which for a long song with non-ASCII names costs a write's worth.
    """
    return contract.__pydantic_serializer__.to_json(contract, by_alias=True)


_STAND_IN_REGION = Region(
    id=str(uuid.uuid4()), name=f"stand-in {uuid.uuid4()}", start_beat=0, length_beats=1
)
_STAND_IN_REGION_JSON = _compact_json(_STAND_IN_REGION)
#: Where the song goes in a pipeline file: the stand-in song's place in `pipeline_frame`.
_SONG_SLOT = b'"songState":' + _compact_json(_STAND_IN)


def pipeline_frame(pipeline: ComposerPipeline) -> tuple[bytes, bytes] | None:
    """The pipeline file's bytes before and after its song, for `framed` to join around one.

    The song is most of a checkpoint and is written twice, in the song file and
    inside the pipeline file. pydantic writes a nested model exactly as it
    writes it alone, so the pipeline is serialised around a stand-in song whose
    JSON is then swapped for the real song's: half the serialising per checkpoint,
    and the frame is a snapshot of the pipeline that its song's JSON can join
    later. None if the stand-in cannot be found (it always can while `songState`
    is a field): then serialise the whole pipeline instead, never a wrong file.
    """
    around = _compact_json(pipeline.model_copy(update={"song_state": _STAND_IN}))
    before, found, after = around.partition(_SONG_SLOT)
    return (before, after) if found else None


def framed(frame: tuple[bytes, bytes], song_json: bytes) -> bytes:
    """The pipeline file's bytes: `pipeline_frame`'s two halves around the song's JSON."""
    before, after = frame
    return b"".join((before, b'"songState":', song_json, after))


def resolve_checkpoint(target: Path) -> Path:
    """The pipeline-state file for a session folder or a checkpoint path."""
    return pipeline_path(target) if target.is_dir() else target


def load_checkpoint(target: Path) -> ComposerPipeline:
    """Read a checkpoint from a session folder or a `pipeline-state.json` path."""
    path = resolve_checkpoint(target)
    session_dir = path.parent.parent if path.parent.name == STATE_DIR else None
    start_fresh = 'start fresh with `muse-studio compose "PROMPT"`'
    try:
        if session_dir is not None:
            recover(session_dir)  # finish (or discard) a change a killed writer left behind
        data = path.read_bytes()
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise CheckpointError(
            f"cannot resume: there is no checkpoint at {path}; {start_fresh}."
        ) from None
    except WriteFailed as exc:  # a change left behind could not be finished
        raise CheckpointError(f"cannot resume: {exc}.") from None
    except OSError as exc:
        raise CheckpointError(f"cannot resume: {path} cannot be read ({exc.strerror}).") from None
    except UnicodeDecodeError:
        raise CheckpointError(
            f"cannot resume: {path} is corrupt (not UTF-8 text); {_way_back(path, start_fresh)}."
        ) from None
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, json.JSONDecodeError):
            where = f"not JSON at line {exc.lineno}"
        elif isinstance(exc, RecursionError):
            where = "nested too deep"
        else:  # past Python's limit on the digits of an integer
            where = "a number too long to read"
        raise CheckpointError(
            f"cannot resume: {path} is corrupt ({where}); {_way_back(path, start_fresh)}."
        ) from None
    pipeline = _validated(raw, path, start_fresh)
    if session_dir is not None:
        note_checkpoint(session_dir, data)
    return pipeline


def _way_back(path: Path, start_fresh: str) -> str:
    """Resume from the backup when it is whole, else start fresh (a bad backup is no way back)."""
    backup = good_backup(path)
    if backup is None:
        return start_fresh
    return f"resume from its backup {backup.name} (rename it to {path.name}) or {start_fresh}"


def _validated(raw: object, path: Path, start_fresh: str) -> ComposerPipeline:
    """The pipeline in `raw`: a newer minor loses unknown fields, another major is refused."""
    version = str(raw.get("version", "?")) if isinstance(raw, dict) else "?"
    ours = _version_parts(SCHEMA_VERSION)
    theirs = _version_parts(version)
    if theirs is None or theirs[0] != ours[0]:
        newer = theirs is not None and theirs[0] > ours[0]
        way = "update muse-studio to open it" if newer else start_fresh
        raise CheckpointError(
            f"cannot resume: {path} was written by schema {version}, this muse-studio reads "
            f"{SCHEMA_VERSION}; {way}."
        )
    newer_minor = theirs[1] > ours[1]
    for _ in range(4 if newer_minor else 1):
        try:
            pipeline = ComposerPipeline.model_validate(raw)
            pipeline.version = SCHEMA_VERSION  # what this muse-studio writes back
            return pipeline
        except ValidationError as exc:
            errors = exc.errors(include_url=False)
            unknown = [e["loc"] for e in errors if e["type"] == "extra_forbidden"]
            if not newer_minor or len(unknown) < len(errors):
                first = (
                    next(e for e in errors if e["type"] != "extra_forbidden")
                    if newer_minor
                    else errors[0]
                )
                where = ".".join(str(p) for p in first["loc"])
                raise CheckpointError(
                    f"cannot resume: {path} is corrupt ({where}: {first['msg']}); {start_fresh}."
                ) from None
            for loc in unknown:  # fields a newer minor version added: read without them
                _drop(raw, loc)
        except RecursionError:
            raise CheckpointError(
                f"cannot resume: {path} is corrupt (nested too deep); {start_fresh}."
            ) from None
    raise CheckpointError(
        f"cannot resume: {path} has fields this muse-studio cannot place; update muse-studio."
    )


def _version_parts(version: str) -> tuple[int, int] | None:
    parts = version.split(".")
    if len(parts) < 2 or not all(p.isdigit() and len(p) < 6 for p in parts[:2]):
        return None
    return int(parts[0]), int(parts[1])


def _drop(raw: object, loc: tuple[int | str, ...]) -> None:
    """Delete the value at a pydantic error location, skipping the union tags it names."""
    node = raw
    for step in loc[:-1]:
        if (isinstance(node, dict) and step in node) or (
            isinstance(node, list) and isinstance(step, int) and step < len(node)
        ):
            node = node[step]
        elif isinstance(node, dict) and str(step) in node:
            node = node[str(step)]
        # else: a union or model tag pydantic adds to the location; stay where we are
    if isinstance(node, dict):
        node.pop(loc[-1], None)  # type: ignore[call-overload]
