"""Session folders: where they live, finding one, listing them, cleaning up after crashes.

A session is complete once its `manifest.json` exists (it is written last);
a folder with only `state/` is a run that stopped early.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from muse_tui.store.atomic import WriteFailed, lands_inside, leftover_temp_files
from muse_tui.store.checkpoint import pipeline_path
from muse_tui.store.manifest import MANIFEST_FILE
from muse_tui.store.settings import load_settings

SESSIONS_ENV = "MUSE_SESSIONS_DIR"
DEFAULT_SESSIONS_DIR = "sessions"
#: A session's id; a suffix (`-copy1`) is a copied session, as file managers name copies.
SESSION_ID = re.compile(r"^session-(\d{8})-[0-9a-z]{6}(?:-[0-9a-z]{1,32})?$")
#: A state file larger than this is not read to summarise its session in a listing.
MAX_SUMMARY_BYTES = 64 * 1024 * 1024
#: Files younger than this may belong to a run still writing; clean leaves them alone.
IDLE_SECONDS = 60.0
_RESERVED = re.compile(r"^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$", re.IGNORECASE)
_NAME_LIMIT = 64


class SessionNotFound(LookupError):
    """No session folder answers to what the producer typed; the message says where we looked."""


class BadSessionReference(ValueError):
    """What was typed is neither a session id nor a path to a session folder."""


@dataclass(frozen=True)
class SessionSummary:
    """One line of `sessions list`: what a producer needs to recognise a session."""

    session_id: str
    path: Path
    complete: bool
    status: str
    created_at: datetime | None = None
    prompt: str = ""
    genre: str = ""
    key: str = ""
    tempo: float | None = None
    total_bars: int | None = None
    track_count: int | None = None

    @property
    def date_text(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M}" if self.created_at else "?"

    def to_dict(self) -> dict[str, Any]:
        return {
            "sessionId": self.session_id,
            "path": str(self.path),
            "complete": self.complete,
            "status": self.status,
            "createdAt": self.created_at.isoformat() if self.created_at else None,
            "prompt": self.prompt,
            "genre": self.genre,
            "key": self.key,
            "tempo": self.tempo,
            "totalBars": self.total_bars,
            "trackCount": self.track_count,
        }


@dataclass
class CleanReport:
    """What `clean_sessions` removed (or would remove, on a dry run) and what it spared."""

    temp_files: list[Path] = field(default_factory=list)
    sessions: list[SessionSummary] = field(default_factory=list)
    busy: list[SessionSummary] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        return not self.temp_files and not self.sessions


def sessions_root(configured: str | None = None) -> Path:
    """`MUSE_SESSIONS_DIR`, else the `sessions_dir` setting, else `./sessions`.

    `configured` stands in for the setting (the user's settings file is read when it is None).
    """
    chosen = os.environ.get(SESSIONS_ENV)
    if not chosen:
        chosen = configured if configured is not None else load_settings()[0].sessions_dir
    return Path(chosen or DEFAULT_SESSIONS_DIR).expanduser()


def sanitise_name(text: str, fallback: str = "untitled") -> str:
    """A safe file or folder name from user text: no separators, no dots in front, no CON.

    Letters (any script) and digits are kept, lower-cased; runs of anything
    else become one hyphen. Never empty, at most 64 characters.
    """
    normal = unicodedata.normalize("NFKC", text).lower()
    kept = "".join(c if c.isalnum() or c in "._" else "-" for c in normal)
    name = re.sub(r"-{2,}", "-", kept)
    name = re.sub(r"\.{2,}", ".", name).strip("-._ ")[:_NAME_LIMIT].strip("-._ ")
    if not name:
        return fallback
    return f"_{name}" if _RESERVED.match(name) else name


def inside_session(session_dir: Path, relative: str) -> Path:
    """`session_dir / relative`, refusing any path that would land outside the session folder."""
    target = session_dir / relative
    root = session_dir.resolve()
    if Path(relative).is_absolute() or not lands_inside(root, target):
        raise WriteFailed(
            f"refusing to write {relative!r}: it is outside the session folder {root}"
        )
    return target


def is_session_folder(folder: Path) -> bool:
    return (folder / MANIFEST_FILE).is_file() or pipeline_path(folder).is_file()


_NAME_IT = "name a session by its id or its folder (`muse-studio sessions list` shows them)."


def _shown(ref: str) -> str:
    return f"{ref[:60]!r}{'…' if len(ref) > 60 else ''}"


def resolve_session(ref: str, root: Path) -> Path:
    """The session folder `ref` names: a session id under `root`, or a path to a session folder.

    Raises BadSessionReference for anything else (`../x`, `CON`, an empty string)
    and SessionNotFound when the id is well formed but no such folder exists.
    """
    if SESSION_ID.match(ref):
        folder = root / ref
        if not folder.resolve().is_relative_to(root.resolve()) or folder.is_symlink():
            raise BadSessionReference(f"{ref} points outside the sessions folder {root}.")
        if not folder.is_dir():
            raise SessionNotFound(
                f"there is no session {ref} in {root}; `muse-studio sessions list` shows them."
            )
        return folder
    try:
        path = Path(ref).expanduser()
        is_folder = bool(ref.strip()) and path.is_dir() and is_session_folder(path)
        exists = bool(ref.strip()) and path.exists()
    except OSError as exc:  # a name the file system refuses
        if exc.errno == errno.ENAMETOOLONG:
            raise BadSessionReference(
                f"that session reference is {len(ref):,} characters, longer than a file name "
                f"can be; {_NAME_IT}"
            ) from None
        raise BadSessionReference(
            f"{_shown(ref)} cannot be read ({exc.strerror}); {_NAME_IT}"
        ) from None
    except (ValueError, RuntimeError):  # a NUL byte, no home for ~
        raise BadSessionReference(
            f"{_shown(ref)} is neither a session id like session-20261122-a1b2c3 nor a folder "
            f"that can exist here; {_NAME_IT}"
        ) from None
    if is_folder:
        return path
    if exists:
        raise BadSessionReference(f"{ref} is not a session folder (it has no manifest or state).")
    raise BadSessionReference(
        f"{ref!r} is neither a session id like session-20261122-a1b2c3 nor a session folder."
    )


def read_summary(folder: Path) -> SessionSummary:
    """What a session folder says about itself: its manifest, or else its pipeline checkpoint."""
    manifest = _json(folder / MANIFEST_FILE)
    if manifest is not None:
        return SessionSummary(
            session_id=folder.name,
            path=folder,
            complete=True,
            status=str(manifest.get("status", "completed")),
            created_at=_when(manifest.get("createdAt")) or _folder_date(folder),
            prompt=str(manifest.get("prompt", "")),
            genre=str(manifest.get("genre", "")),
            key=str(manifest.get("key", "")),
            tempo=_number(manifest.get("tempo")),
            total_bars=_whole(manifest.get("totalBars")),
            track_count=_whole(manifest.get("trackCount")),
        )
    complete = (folder / MANIFEST_FILE).exists()  # present but unreadable: still not ours to delete
    state = _json(pipeline_path(folder)) or {}
    song = state.get("songState") if isinstance(state.get("songState"), dict) else {}
    tracks = song.get("tracks")
    mode = song.get("mode", "")
    return SessionSummary(
        session_id=folder.name,
        path=folder,
        complete=complete,
        status="unreadable manifest" if complete else str(state.get("status", "no checkpoint")),
        created_at=_when(state.get("createdAt")) or _folder_date(folder),
        prompt=str(state.get("rawPrompt", "")),
        genre=str(song.get("genre", "")),
        key=f"{song.get('key', '')} {mode}".strip() if song else "",
        tempo=_number(song.get("tempo")),
        track_count=len(tracks) if isinstance(tracks, list) else None,
    )


def list_sessions(root: Path) -> list[SessionSummary]:
    """Every session under `root`, newest first."""
    if not root.is_dir():
        return []
    found = [
        read_summary(p)
        for p in root.iterdir()
        if SESSION_ID.match(p.name) and p.is_dir() and not p.is_symlink()  # a link leads elsewhere
    ]
    oldest = datetime.min.replace(tzinfo=UTC)
    return sorted(found, key=lambda s: (s.created_at or oldest, s.session_id), reverse=True)


def clean_sessions(
    root: Path,
    older_than_days: float | None = None,
    incomplete: bool = False,
    *,
    dry_run: bool = False,
    now: datetime | None = None,
) -> CleanReport:
    """Remove leftover `*.tmp` files, and sessions when asked.

    With `incomplete`, sessions without a manifest go; with `older_than_days`,
    sessions created before then go; with both, only sessions that are both.
    A complete session is only ever removed by age. Anything written in the
    last minute is spared: a run may still be writing it.
    """
    now = now or datetime.now(UTC)
    idle_before = now.timestamp() - IDLE_SECONDS
    report = CleanReport()
    for summary in list_sessions(root):
        folder = summary.path
        report.temp_files.extend(
            p for p in leftover_temp_files(folder) if _mtime(p) < idle_before and _owned(p, folder)
        )
        if not _doomed(summary, older_than_days, incomplete, now):
            continue
        if _newest_change(folder) >= idle_before:
            report.busy.append(summary)
        else:
            report.sessions.append(summary)
    if dry_run:
        return report
    for path in [*report.temp_files, *(s.path for s in report.sessions)]:
        _remove(path)
    return report


def delete_session(root: Path, folder: Path) -> None:
    """Delete one session folder under `root` and nothing else; WriteFailed if the disk refuses."""
    if not (_owned(folder, root) and is_session_folder(folder)):
        raise BadSessionReference(
            f"{folder} is not a session folder under {root}; it was left alone"
        )
    _remove(folder)


def _doomed(
    summary: SessionSummary, older_than_days: float | None, incomplete: bool, now: datetime
) -> bool:
    if older_than_days is None and not incomplete:
        return False
    if incomplete and summary.complete:
        return False
    if older_than_days is not None:
        created = summary.created_at or datetime.fromtimestamp(_mtime(summary.path), UTC)
        return created < now - timedelta(days=older_than_days)
    return True


def _remove(path: Path) -> None:
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
    except OSError as exc:
        raise WriteFailed(f"could not remove {path}: {exc.strerror or exc}") from exc


def _owned(path: Path, folder: Path) -> bool:
    return not path.is_symlink() and path.resolve().is_relative_to(folder.resolve())


def _newest_change(folder: Path) -> float:
    newest = _mtime(folder)
    for dirpath, _, filenames in os.walk(folder):
        for name in filenames:
            newest = max(newest, _mtime(Path(dirpath) / name))
    return newest


def _mtime(path: Path) -> float:
    try:
        return path.lstat().st_mtime
    except OSError:
        return 0.0


def _json(path: Path) -> dict[str, Any] | None:
    """The JSON object in `path`, or None for anything else: one bad file must not stop a
    listing of every session (nested past the recursion limit, numbers past the digit
    limit, a state file too large to summarise)."""
    try:
        if path.stat().st_size > MAX_SUMMARY_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _when(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _folder_date(folder: Path) -> datetime | None:
    found = SESSION_ID.match(folder.name)
    try:
        return datetime.strptime(found.group(1), "%Y%m%d").replace(tzinfo=UTC) if found else None
    except ValueError:
        return None


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) else None
