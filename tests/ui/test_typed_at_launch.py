"""Typing the moment `muse-studio` is launched: nothing typed is lost.

A producer starts the studio and types at once. The keys are in the terminal
before Textual reads them, and the app hands them to the screen before the
screen has focused the prompt. This runs the real script in a real
pseudo-terminal, types before the program has even started, and reads the
prompt off the screen it draws.
"""

from __future__ import annotations

import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
import tty
from fcntl import ioctl
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TYPED = b"lofi rain"
CTRL_Q = b"\x11"


def _read(fd: int, seen: bytearray) -> bool:
    """Add what the program wrote in the next 50 ms to `seen`; False once it has ended."""
    ready, _, _ = select.select([fd], [], [], 0.05)
    if ready:
        try:
            seen += os.read(fd, 1 << 16)
        except OSError:  # the program ended
            return False
    return True


def _read_until(fd: int, seen: bytearray, needle: bytes, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while needle not in seen and time.monotonic() < deadline and _read(fd, seen):
        pass
    return needle in seen


@pytest.mark.slow  # a studio started in a terminal
def test_keys_typed_as_the_studio_starts_reach_the_prompt(tmp_path: Path) -> None:
    master, slave = pty.openpty()
    ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    tty.setraw(slave)  # no echo: what shows is what the studio draws
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "MUSE_SESSIONS_DIR": str(tmp_path / "sessions"),
        "MUSE_CONFIG_DIR": str(tmp_path / "config"),
        "PYTHONPATH": str(ROOT),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "muse_tui.launch"],
        stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
    )  # fmt: skip
    os.close(slave)
    seen = bytearray()
    try:
        os.write(master, TYPED)  # before the interpreter has even imported Textual
        assert _read_until(master, seen, b"Stages", timeout=60), "no first frame"
        assert _read_until(master, seen, TYPED, timeout=30), (
            "what was typed at launch never reached the prompt"
        )
        # It is in the prompt, not scattered: the placeholder gave way to it.
        os.write(master, b" 80 bpm")
        assert _read_until(master, seen, b"80 bpm", timeout=30)
    finally:
        os.write(master, CTRL_Q)
        deadline = time.monotonic() + 20
        while process.poll() is None and time.monotonic() < deadline:
            _read(master, seen)  # a program whose output nobody reads blocks, and never exits
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        os.close(master)
