"""Bench the studio as a producer meets it: `muse-studio` in a pseudo-terminal.

Prints four figures:
  * cold start: from launching `muse-studio` to its first rendered frame, beside a bare
    Textual app (one `Static`) started the same way in the same run, and their ratio
    (target: the studio within 1.2× the bare app);
  * first keystroke: from launching `muse-studio` to its prompt showing a letter typed
    the moment the first frame arrived (what a producer who types at once waits for);
  * key press → repaint while scrolling a piano roll of 2,000+ notes (target < 50 ms median).

The bench plays the terminal: it answers Textual's synchronized-output query, so
every repaint arrives framed, and the time to a repaint is the time to the end
of that frame. Run: `.venv/bin/python bench/tui.py [--runs 5] [--presses 120]`.

Both programs start from compiled bytecode, as an installed muse-studio does (pip
compiles a package when it installs it): one untimed launch of each fills a
bytecode folder of the bench's own (`PYTHONPYCACHEPREFIX`), so nothing is
written beside the sources. An editable install under PYTHONDONTWRITEBYTECODE
would otherwise compile the studio's own modules at every launch (tens of ms)
while Textual's come compiled from site-packages; `--bytecode source` measures
that way instead.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import random
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: The checkout this bench belongs to: its muse_tui is the one timed, whichever checkout
#: the venv's editable install points at (a worktree's bench timed main's studio).
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from muse_tui.contracts import (  # noqa: E402
    Arrangement,
    ComposerPipeline,
    Note,
    Region,
    Section,
    SongState,
    Track,
    new_id,
)
from muse_tui.store.checkpoint import write_checkpoint  # noqa: E402

COLUMNS, ROWS = 120, 40
SYNC_QUERY, SYNC_REPLY, SYNC_END = b"\x1b[?2026$p", b"\x1b[?2026;2$y", b"\x1b[?2026l"
RIGHT, LEFT, TAB = b"\x1b[C", b"\x1b[D", b"\t"
ENTER, CTRL_O, CTRL_Q = b"\r", b"\x0f", b"\x11"
#: Typed into the prompt at the first frame: no frame of the studio's writes a "z" otherwise.
FIRST_KEY = b"z"
SESSION = "session-20261122-bench0"
MUSE_STUDIO = Path(sys.executable).with_name("muse-studio")
#: The yardstick: the least a Textual app does to paint its first frame.
BARE_APP = """
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("Stages")

Bare().run()
"""


class Terminal:
    """A pseudo-terminal running one program; the bench reads its frames and types into it."""

    def __init__(self, env: dict[str, str], cwd: Path, argv: list[str] | None = None) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            argv or [str(MUSE_STUDIO)], stdin=slave, stdout=slave, stderr=slave,
            env=env, cwd=cwd, start_new_session=True,
        )  # fmt: skip
        os.close(slave)
        self.fd = master
        self.seen = bytearray()

    def _read(self, timeout: float) -> tuple[bytes, float]:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return b"", time.perf_counter()
        try:
            chunk = os.read(self.fd, 1 << 16)
        except OSError:
            return b"", time.perf_counter()
        arrived = time.perf_counter()
        if SYNC_QUERY in chunk:
            os.write(self.fd, SYNC_REPLY)
        self.seen += chunk
        return chunk, arrived

    def wait_for(self, needle: bytes, timeout: float = 20.0) -> float:
        """When `needle` (bytes the program writes) first arrived."""
        deadline = time.perf_counter() + timeout
        start = len(self.seen)
        while time.perf_counter() < deadline:
            _, arrived = self._read(0.05)
            # A needle may straddle the last read, but must end in what arrived since the call
            # (the frame before a key press ends in the same bytes).
            if needle in self.seen[max(start - len(needle) + 1, 0) :]:
                return arrived
        raise TimeoutError(f"muse-studio never wrote {needle!r}")

    def drain(self, quiet: float = 0.05) -> None:
        """Read until the program has been quiet for `quiet` seconds."""
        while self._read(quiet)[0]:
            pass

    def press(self, key: bytes) -> float:
        """Seconds from sending a key to the end of the frame that repaints it."""
        self.drain()
        sent = time.perf_counter()
        os.write(self.fd, key)
        return self.wait_for(SYNC_END, timeout=5.0) - sent

    def close(self) -> None:
        try:
            os.write(self.fd, CTRL_Q)
            deadline = time.perf_counter() + 10
            while self.process.poll() is None and time.perf_counter() < deadline:
                self._read(0.05)  # a program whose output nobody reads blocks, and never exits
            self.process.wait(timeout=0.5)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
        os.close(self.fd)


def big_song(notes_wanted: int = 2048) -> SongState:
    """64 bars with a 16th-note arp of two voices: 2,048 notes on one track, plus a bass."""
    rng = random.Random(2000)
    scale = [57, 60, 62, 64, 67, 69, 72, 74, 76, 79]
    notes = [
        Note(pitch=scale[(step * 3 + voice * 4) % len(scale)] + 12 * voice,
             velocity=50 + rng.randrange(70), start_beat=step / 4, duration_beats=0.25)
        for step in range(notes_wanted // 2)
        for voice in (0, 1)
    ]  # fmt: skip
    bars = int(max(n.end_beat for n in notes) // 4)
    region = Region(id=new_id(rng), name="arp", start_beat=0, length_beats=bars * 4, notes=notes)
    bass_notes = [
        Note(pitch=33 + (bar % 4) * 2, velocity=100, start_beat=bar * 4, duration_beats=2)
        for bar in range(bars)
    ]
    bass = Region(
        id=new_id(rng), name="bass", start_beat=0, length_beats=bars * 4, notes=bass_notes
    )
    return SongState(
        tempo=140,
        key="A",
        mode="minor",
        tracks=[
            Track(id=new_id(rng), name="Arp", role="arp", channel=4, regions=[region]),
            Track(id=new_id(rng), name="Bass", role="bass", channel=1, regions=[bass]),
        ],
        arrangement=Arrangement(
            template="bench",
            sections=[
                Section(name="A", kind="verse", start_bar=0, bars=bars // 2, energy=0.5),
                Section(
                    name="B", kind="hook", start_bar=bars // 2, bars=bars - bars // 2, energy=0.9
                ),
            ],
        ),
    )


def write_bench_session(root: Path) -> int:
    song = big_song()
    stamp = "2026-11-22T02:00:00+00:00"
    pipeline = ComposerPipeline(
        pipeline_id=new_id(random.Random(1)), session_id=SESSION, raw_prompt="bench arp",
        status="completed", song_state=song, created_at=stamp, updated_at=stamp,
    )  # fmt: skip
    write_checkpoint(root / SESSION, pipeline)
    return len(song.tracks[0].notes)


def environment(folder: Path, bytecode: Path | None = None) -> dict[str, str]:
    """The programs' environment; with `bytecode`, compiled modules are kept in that folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update(
        TERM="xterm-256color", COLORTERM="truecolor",
        MUSE_CONFIG_DIR=str(folder / "config"), MUSE_SESSIONS_DIR=str(folder / "sessions"),
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    )  # fmt: skip
    if bytecode is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(bytecode)
    return env


@contextmanager
def launched(argv: list[str] | None, bytecode: Path | None = None) -> Iterator[Terminal]:
    """The program (muse-studio by default) started in a terminal of its own, in a fresh folder."""
    folder = Path(tempfile.mkdtemp(prefix="muse-bench-"))
    terminal = Terminal(environment(folder, bytecode), folder, argv)
    try:
        yield terminal
    finally:
        terminal.close()
        shutil.rmtree(folder, ignore_errors=True)


def first_frame(argv: list[str] | None, bytecode: Path | None = None) -> float:
    """Seconds from launching the program to the first frame that says "Stages"."""
    with launched(argv, bytecode) as terminal:
        seconds = terminal.wait_for(b"Stages") - terminal.started
        terminal.drain()
        return seconds


def first_keystroke(bytecode: Path | None = None) -> float:
    """Seconds from launching muse-studio to its prompt showing a key typed at the first frame."""
    with launched(None, bytecode) as terminal:
        terminal.wait_for(b"Stages")
        os.write(terminal.fd, FIRST_KEY)
        seconds = terminal.wait_for(FIRST_KEY) - terminal.started
        terminal.drain()
        return seconds


def cold_start(runs: int, compiled: bool = True) -> tuple[list[float], list[float], list[float]]:
    """(studio, bare app) first frames and the studio's first keystrokes, taken in turn so
    all meet the same machine load.

    `compiled`: all start from bytecode compiled by an untimed first launch.
    """
    bare_app = [sys.executable, "-c", BARE_APP]
    bytecode = Path(tempfile.mkdtemp(prefix="muse-bench-pyc-")) if compiled else None
    try:
        if bytecode is not None:
            first_frame(None, bytecode)
            first_frame(bare_app, bytecode)
        studio, bare, keystroke = [], [], []
        for _ in range(runs):
            studio.append(first_frame(None, bytecode))
            bare.append(first_frame(bare_app, bytecode))
            keystroke.append(first_keystroke(bytecode))
        return studio, bare, keystroke
    finally:
        if bytecode is not None:
            shutil.rmtree(bytecode, ignore_errors=True)


def scroll_latency(presses: int) -> tuple[int, list[float]]:
    folder = Path(tempfile.mkdtemp(prefix="muse-bench-"))
    count = write_bench_session(folder / "sessions")
    terminal = Terminal(environment(folder), folder)
    try:
        terminal.wait_for(b"Stages")
        terminal.drain(0.3)
        terminal.press(CTRL_O)  # the sessions browser…
        terminal.wait_for(SESSION.encode())
        terminal.press(ENTER)  # …open the bench session, back in the prompt
        # The roll names the track once the session is open ("Piano roll" alone is in
        # every frame): keys sent sooner raced the load, which moves the panes.
        terminal.wait_for("Piano roll · Arp".encode())
        for _ in range(2):  # tab to the arrangement, then to the piano roll below it
            terminal.press(TAB)
        # Not escape: Textual holds a lone escape ~100 ms to tell it from a sequence's start,
        # and a tab sent meanwhile (press returns at the first repaint, which need not be
        # escape's) merged with it into shift+tab, to the notes, where arrows move nothing.
        terminal.drain(0.3)
        # Right then left: every press moves the view (at the roll's end a right would not).
        return count, [terminal.press(RIGHT if n % 2 == 0 else LEFT) for n in range(presses)]
    finally:
        terminal.close()
        shutil.rmtree(folder, ignore_errors=True)


def report(name: str, seconds: list[float], target_ms: float | None) -> bool:
    ms = sorted(s * 1000 for s in seconds)
    median = statistics.median(ms)
    p95 = ms[min(len(ms) - 1, round(len(ms) * 0.95))]
    if target_ms is None:
        verdict = f"n={len(ms)}"
    else:
        ok = "ok" if median < target_ms else "SLOWER THAN TARGET"
        verdict = f"target < {target_ms:g} ms: {ok}, n={len(ms)}"
    print(
        f"{name:<44} median {median:7.1f} ms   p95 {p95:7.1f} ms   "
        f"min {ms[0]:7.1f} ms   ({verdict})"
    )
    return target_ms is None or median < target_ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold starts to time")
    parser.add_argument("--presses", type=int, default=120, help="arrow presses to time")
    parser.add_argument(
        "--bytecode",
        choices=["compiled", "source"],
        default="compiled",
        help="start from compiled bytecode (as installed), or compile the studio each launch",
    )
    args = parser.parse_args()
    if not MUSE_STUDIO.exists():
        print(f"{MUSE_STUDIO} is missing: pip install -e . first", file=sys.stderr)
        return 2
    studio, bare, keystroke = cold_start(args.runs, compiled=args.bytecode == "compiled")
    print(f"cold starts from {args.bytecode} bytecode")
    ok = report("cold start → first frame of muse-studio", studio, 1000)
    report("cold start → first frame of a bare Textual app", bare, 1000)
    report("cold start → first keystroke echoed (studio)", keystroke, None)
    ratio = statistics.median(studio) / statistics.median(bare)
    verdict = "ok" if ratio <= 1.2 else "SLOWER THAN TARGET"
    print(f"{'studio / bare app (medians)':<44} {ratio:.2f}×   (target ≤ 1.2×: {verdict})")
    ok &= ratio <= 1.2
    if args.presses:  # --presses 0: the start-up figures only
        notes, latencies = scroll_latency(args.presses)
        ok &= report(f"key → repaint, piano roll of {notes} notes", latencies, 50)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
