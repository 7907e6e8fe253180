"""What a session's files hold, by path: to tell which files a change moved."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from muse_tui.store.atomic import TMP_SUFFIX
from muse_tui.store.lock import LOCK_FILE
from muse_tui.store.proposal_file import PROPOSAL_DIR
from muse_tui.store.transaction import CHANGE_DIR

#: Folders at the session's top that hold work in flight, not the session's files.
WORKING_FOLDERS = frozenset({PROPOSAL_DIR, CHANGE_DIR})
_NOT_SESSION_FILES = (".bak", TMP_SUFFIX, LOCK_FILE)


def session_fingerprints(session_dir: Path) -> dict[str, str]:
    """SHA-1 of each of the session's files, by path relative to the folder.

    Another writer may be mid-change in the same folder: its working folders
    are not the session's files, and a file or folder that vanishes between
    listing and reading is simply not there (os.walk passes over it).
    """
    found = {}
    for folder, dirs, names in os.walk(session_dir):
        if folder == str(session_dir):
            dirs[:] = [d for d in dirs if d not in WORKING_FOLDERS]
        for name in names:
            if name.endswith(_NOT_SESSION_FILES):
                continue
            path = Path(folder, name)
            try:
                digest = hashlib.sha1(path.read_bytes()).hexdigest()
            except (FileNotFoundError, IsADirectoryError):
                continue
            found[path.relative_to(session_dir).as_posix()] = digest
    return found
