"""Bench an unbracketed paste: 10,000 characters typed into the studio's prompt at once.

A terminal without bracketed paste (or a paste through tmux's `send-keys`, or a
clipboard tool typing) hands the studio one key per character. Before issue 33 a
10,000-character paste took minutes to land in the prompt, the studio frozen meanwhile.

Prints the seconds from writing the paste into the studio's terminal to the frame that
shows its last characters, and the seconds until the studio has drawn its last frame of
it (target: under 1 s), for two moments: pasted as soon as the prompt shows (the studio
still finishing its start in the background: history, last session, file watchers, about
0.7 s of CPU) and pasted into a studio at rest (its CPU quiet), which is the paste's own
cost. Run: `.venv/bin/python bench/paste.py [--chars 10000] [--runs 3]`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.tui import Terminal, launched  # noqa: E402

#: The paste ends in these: no frame of the studio writes them otherwise.
MARKER = b"zqxj"
#: What a terminal's read gives the program at a time.
CHUNK = 4096


def paste_text(chars: int) -> bytes:
    words = b"dark trap 140 bpm A minor, rolling 808s, hats in triplets, "
    body = (words * (chars // len(words) + 1))[: chars - len(MARKER)]
    return body + MARKER


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) the process has used so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def at_rest(terminal: Terminal, pid: int, timeout: float = 30.0) -> None:
    """Read the studio's frames until it has spent under 20 ms of CPU in half a second."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        cpu, start = cpu_seconds(pid), time.perf_counter()
        while time.perf_counter() - start < 0.5:
            terminal._read(0.05)  # a cursor blinks: the studio is never quiet on screen
        if cpu_seconds(pid) - cpu < 0.02:
            return


def paste_once(chars: int, settled: bool) -> tuple[float, float, float]:
    """(seconds to the frame showing the paste's end, seconds to the studio's last frame,
    CPU seconds the studio spent on it: the figure a loaded machine does not inflate).

    `settled`: pasted once the studio is at rest, not as soon as its prompt shows."""
    text = paste_text(chars)
    with launched(None) as terminal:
        terminal.wait_for(b"Stages")
        terminal.wait_for(b"Compose", timeout=30)  # the prompt is mounted: its footer key shows
        terminal.drain(0.3)
        pid = terminal.process.pid
        if settled:
            at_rest(terminal, pid)
        sent, cpu = time.perf_counter(), cpu_seconds(pid)
        for start in range(0, len(text), CHUNK):
            os.write(terminal.fd, text[start : start + CHUNK])
        shown = terminal.wait_for(MARKER, timeout=600) - sent
        terminal.drain(0.2)
        settled = time.perf_counter() - 0.2 - sent
        return shown, settled, cpu_seconds(pid) - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"unbracketed paste of {args.chars:,} characters, {args.runs} runs (median, max)")
    ok = True
    for settled, moment in (
        (False, "as soon as the prompt shows"),
        (True, "into a studio at rest"),
    ):
        figures = [paste_once(args.chars, settled) for _ in range(args.runs)]
        shown, quiet, cpu = ([run[i] for run in figures] for i in range(3))
        print(f" pasted {moment}")
        print(f"  in the prompt, on screen    {_spread(shown)}")
        print(f"  studio quiet again          {_spread(quiet)}")
        print(f"  CPU the studio spent        {_spread(cpu)}")
        ok = ok and max(quiet) < 1.0
    print(f"  load average (1 min)        {os.getloadavg()[0]:7.2f}")
    print(f"  target < 1 s: {'ok' if ok else 'MISSED'}")
    return 0 if ok else 1


def _spread(seconds: list[float]) -> str:
    return f"{statistics.median(seconds):7.3f} s  {max(seconds):7.3f} s"


if __name__ == "__main__":
    sys.exit(main())
