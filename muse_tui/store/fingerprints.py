"""What a session's files hold, by path: to tell which files a change moved."""

from __future__ import annotations

import hashlib
from pathlib import Path

from muse_tui.store.atomic import TMP_SUFFIX, walk_files
from muse_tui.store.backups import BACKUP_SUFFIX, CORRUPT_SUFFIX
from muse_tui.store.lock import LOCK_FILE
from muse_tui.store.proposal_file import PROPOSAL_DIR
from muse_tui.store.transaction import CHANGE_DIR

#: Folders at the session's top that hold work in flight, not the session's files.
WORKING_FOLDERS = frozenset({PROPOSAL_DIR, CHANGE_DIR})
_NOT_SESSION_FILES = (BACKUP_SUFFIX, CORRUPT_SUFFIX, TMP_SUFFIX, LOCK_FILE)


def session_fingerprints(session_dir: Path) -> dict[str, str]:
    """SHA-1 of each of the session's files, by path relative to the folder.

    Another writer may be mid-change in the same folder: its working folders
    are not the session's files, and a file that vanishes between listing and
    reading is simply not there.
    """
    found = {}
    for path in walk_files(session_dir, skip=WORKING_FOLDERS):
        if path.name.endswith(_NOT_SESSION_FILES):
            continue
        try:
            digest = hashlib.sha1(path.read_bytes()).hexdigest()
        except (FileNotFoundError, IsADirectoryError):
            continue
        found[path.relative_to(session_dir).as_posix()] = digest
    return found
