"""A separate process that writes a session and stalls inside one file's write, to be killed.

Usage: python -m tests.io.run_slow_writer SESSION_DIR FILE_NAME
Prints "stalled" once the temp file of FILE_NAME is written and before it is renamed.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from muse_tui.store.session_writer import write_session
from tests.io.songs import build_song, pipeline_for, presets_for, three_sections


def main() -> None:
    folder, target = Path(sys.argv[1]), sys.argv[2]
    real_mkstemp, real_fsync = tempfile.mkstemp, os.fsync
    writing: list[str] = []

    def mkstemp(*args, **kwargs):  # type: ignore[no-untyped-def]
        writing.append(kwargs.get("prefix", ""))
        return real_mkstemp(*args, **kwargs)

    def fsync(fd: int) -> None:
        if writing and writing[-1] == f".{target}.":
            print("stalled", flush=True)
            time.sleep(120)
        real_fsync(fd)

    tempfile.mkstemp = mkstemp  # type: ignore[assignment]
    os.fsync = fsync
    song = build_song(arrangement=three_sections(verse_transition="fade"))
    pipeline = pipeline_for(song, session_id=folder.name)
    write_session(folder, pipeline, presets=presets_for(song))


if __name__ == "__main__":
    main()
