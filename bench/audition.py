"""Bench the audition player under load: lost, stuck and onset error for every player path.

Plays 2,000 note events (1,000 notes, 6–14 ms apart) through a JACK loopback
with busy-loop processes beside it (`--load`, 2 by default: both cores of a
small machine) and prints, for each player path the product uses (the studio,
`muse-studio play`, `compose --play`: all `PlayerProcess` at real-time priority,
differing in what the main thread does meanwhile) and for the old thread
player: events lost, notes left sounding, and the onset error (stamp minus
scheduled time, less the constant offset) as p50 and p99 of its size.
"JACK alone" is a spin loop on the bench's main thread sending the same schedule.

"at the port" is when the player handed each message to the port (from the
player's own log); "arrived" is when a recorder in another process saw it.
JACK delivers MIDI once per period, so the bench starts a private real-time
JACK server with a 64-frame period (1.3 ms) unless told otherwise, logging to
muse-bench-jackd.log in the temp folder. When events are lost on arrival and
that log shows the recorder missed its cycle, the run is played again (up to
twice, and said so): that is the instrument failing, not the player.

Target for every product path: 0 lost, 0 stuck, p99 ≤ 2.5 ms, idle CPU < 1%.
Run: `.venv/bin/python bench/audition.py [--load 2] [--events 2000] [--period 64] [--server NAME]`.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import multiprocessing as mp
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from muse_tui.audition import Player, PlayerControls, PlayerProcess, open_output
from muse_tui.audition.priority import keep_time_first, started_first
from muse_tui.contracts import Note, Region, SongState, Track, new_id

TEMPO = 600.0  # 0.1 s a beat
JACK_LOG = Path(tempfile.gettempdir()) / "muse-bench-jackd.log"  # its xruns, to explain a loss
Message = tuple[int, ...]
Stamped = tuple[float, Message]
P99_TARGET_MS, IDLE_CPU_TARGET = 2.5, 1.0


def _priority_granted() -> str:
    """What `realtime=True` gets on this machine (tried on a throwaway thread)."""
    got: list[str] = []
    probe = threading.Thread(target=lambda: got.append(keep_time_first()))
    probe.start()
    probe.join()
    return got[0]


PRIORITY = _priority_granted()


# ── the recorder, in its own process so a busy bench cannot delay its stamps ──


def _record(conn: Connection, client: str) -> None:
    """The recorder process. Its JACK thread runs no Python (a reader that waits loses events):
    rtmidi queues each message with JACK's time since the previous one, and a poller
    places them from the tightest `poll time - offset` it sees."""
    import rtmidi

    keep_time_first()
    offsets: list[tuple[float, tuple[int, ...]]] = []
    origin = [float("inf")]
    lock = threading.Lock()

    def open_recorder() -> rtmidi.MidiIn:
        midi_in = rtmidi.MidiIn(rtmidi.API_UNIX_JACK, name=client, queue_size_limit=1 << 20)
        midi_in.open_virtual_port("in")
        return midi_in

    midi_in = started_first(open_recorder)
    running = True

    def poll() -> None:
        offset = 0.0
        while running:
            got = midi_in.get_message()
            if got is None:
                time.sleep(0.0005)
                continue
            polled = time.perf_counter()
            offset += got[1] if offsets else 0.0
            with lock:
                origin[0] = min(origin[0], polled - offset)
                offsets.append((offset, tuple(got[0])))

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    conn.send("ready")
    while True:
        command = conn.recv()
        with lock:
            if command == "count":
                conn.send(len(offsets))
            elif command == "take":
                conn.send([(origin[0] + offset, message) for offset, message in offsets])
                offsets.clear()
                origin[0] = float("inf")
            else:
                break
    running = False
    poller.join(1)
    midi_in.close_port()


class Recorder:
    def __init__(self) -> None:
        self.client = f"bench-rx-{os.getpid()}"
        self.conn, child = mp.Pipe()
        self.process = mp.get_context("spawn").Process(target=_record, args=(child, self.client))
        self.process.start()
        assert self.conn.recv() == "ready"

    @property
    def port_name(self) -> str:
        return f"{self.client}:in"

    def take(self, expected: int, timeout: float = 3.0) -> list[Stamped]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.conn.send("count")
            if self.conn.recv() >= expected:
                break
            time.sleep(0.05)
        time.sleep(0.1)
        self.conn.send("take")
        return self.conn.recv()

    def close(self) -> None:
        with contextlib.suppress(OSError):  # it may be gone already
            self.conn.send("quit")
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()


# ── the song and the measurements ───────────────────────────────────────────


def bench_song(events: int, seed: int = 7) -> tuple[SongState, list[tuple[float, Message]]]:
    """`events` note-ons and -offs, never two at once: the song and its (beat, bytes) schedule."""
    rng = random.Random(seed)
    notes, beat = [], 1.0
    for i in range(events // 2):
        notes.append(Note(pitch=i % 128, velocity=90, start_beat=beat, duration_beats=0.05))
        beat += rng.uniform(0.06, 0.14)
    region = Region(id=new_id(), name="bench", start_beat=0, length_beats=beat + 1, notes=notes)
    track = Track(id=new_id(), name="Keys", role="keys", channel=0, regions=[region])
    schedule = [(n.start_beat, (0x90, n.pitch, 90)) for n in notes]
    schedule += [(n.end_beat, (0x80, n.pitch, 0)) for n in notes]
    return SongState(tempo=400, tracks=[track]), sorted(schedule)


def onset_errors_ms(
    schedule: Sequence[tuple[float, Message]], stamped: Sequence[Stamped]
) -> tuple[float, float, int]:
    """Median and p99 of |error − median error| in ms (error = stamp − scheduled), and misses.

    Matches stamps to the schedule in order, skipping scheduled events that never
    showed up (a non-realtime JACK server drops one now and then).
    """
    errors, i = [], 0
    for t, message in stamped:
        j = i
        while j < len(schedule) and j - i < 64 and schedule[j][1] != message:
            j += 1
        if j < len(schedule) and schedule[j][1] == message:
            errors.append(t - schedule[j][0] * 60 / TEMPO)
            i = j + 1
    offset = statistics.median(errors)
    sizes = sorted(abs(e - offset) * 1000 for e in errors)
    p99 = sizes[min(len(sizes) - 1, int(len(sizes) * 0.99))]
    return statistics.median(sizes), p99, len(schedule) - len(errors)


class Stamping:
    """The player's port, noting when each message was handed over (to a file, from a child)."""

    def __init__(self, port, log: str | None = None) -> None:  # type: ignore[no-untyped-def]
        self.port, self.name, self.log = port, port.name, log
        self.sent: list[Stamped] = []

    def send(self, message) -> None:  # type: ignore[no-untyped-def]
        self.sent.append((time.perf_counter(), tuple(message)))
        self.port.send(message)

    def is_present(self) -> bool:
        return self.port.is_present()

    def close(self) -> None:
        self.port.close()
        if self.log is not None:
            Path(self.log).write_text(json.dumps(self.sent))


def open_stamped(name: str, log: str) -> Stamping:
    """Runs in the player's child process."""
    return Stamping(open_output(name, client_name="bench-player"), log)


def thread_cpu(thread: threading.Thread) -> float:
    return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))  # type: ignore[arg-type]


def process_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Contender:
    """A player to bench (with no port when `port_name` is None), its CPU time, what it sent."""

    def __init__(
        self, in_process: bool, port_name: str | None, folder: Path, realtime: bool
    ) -> None:
        self.in_process = in_process
        self.log = folder / "sent.json"
        if in_process:
            opener = port_name and functools.partial(open_stamped, port_name, str(self.log))
            self.player: Player | PlayerProcess = PlayerProcess(opener or None, realtime=realtime)
        else:
            self.port = Stamping(open_output(port_name or "", client_name="bench-player"))
            self.player = Player(self.port)

    def cpu(self) -> float:
        if self.in_process:
            return process_cpu(self.player._process.pid)  # type: ignore[union-attr]
        return thread_cpu(next(t for t in threading.enumerate() if t.name == "muse-audition"))

    def close(self) -> list[Stamped]:
        self.player.close()
        if not self.in_process:
            return self.port.sent
        stamps = json.loads(self.log.read_text()) if self.log.exists() else []
        return [(t, tuple(m)) for t, m in stamps]


# ── the cases ───────────────────────────────────────────────────────────────


Figures = tuple[float, float, int, int]  # median ms, p99 ms, events lost, notes left sounding


def figures(schedule: Sequence[tuple[float, Message]], stamped: Sequence[Stamped]) -> Figures:
    median, p99, lost = onset_errors_ms(schedule, stamped)
    sounding: dict[tuple[int, int], int] = {}
    for _, (status, pitch, velocity) in stamped:
        key = (status & 0x0F, pitch)
        if status & 0xF0 == 0x90 and velocity:
            sounding[key] = sounding.get(key, 0) + 1
        elif status & 0xF0 in (0x80, 0x90):
            sounding[key] = max(sounding.get(key, 0) - 1, 0)
    return median, p99, lost, sum(sounding.values())


def ideal_sender(
    recorder: Recorder, schedule: list[tuple[float, Message]]
) -> tuple[Figures, Figures]:
    port = open_output(recorder.port_name, client_name="bench-spin")
    origin = time.perf_counter() + 0.2
    sent = []
    for beat, message in schedule:
        due = origin + beat * 60 / TEMPO
        while time.perf_counter() < due:
            pass
        sent.append((time.perf_counter(), message))
        port.send(message)
    arrived = recorder.take(len(schedule))
    port.close()
    return figures(schedule, sent), figures(schedule, arrived)


def play_case(
    recorder: Recorder,
    song: SongState,
    schedule: list[tuple[float, Message]],
    busy: Callable[[PlayerControls], float],
    in_process: bool,
    realtime: bool,
) -> tuple[Figures, Figures, float, float]:
    """Play the song while `busy` runs on the main thread; returns the figures and CPU shares."""
    with tempfile.TemporaryDirectory() as folder:
        contender = Contender(in_process, recorder.port_name, Path(folder), realtime)
        player = contender.player
        player.load(song)
        player.set_tempo(TEMPO)
        player.sync(30)
        cpu0, wall0 = contender.cpu(), time.perf_counter()
        main_share = busy(player)
        player_share = (contender.cpu() - cpu0) / (time.perf_counter() - wall0) * 100
        sent = contender.close()
    arrived = recorder.take(len(sent))
    return (
        figures(schedule, sent),
        figures(schedule, arrived),
        player_share,
        main_share,
    )


def main_idle(player: PlayerControls) -> float:
    player.play()
    player.wait_until_stopped(120)
    return 0.0


def main_burning_cpu(player: PlayerControls) -> float:
    start_cpu, start = time.thread_time(), time.perf_counter()
    player.play()
    player.sync(30)
    while player.playhead.playing:
        sum(i * i for i in range(2000))
    return (time.thread_time() - start_cpu) / (time.perf_counter() - start) * 100


def main_rendering_textual(player: PlayerControls) -> float:
    from rich.table import Table
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Busy(App[None]):
        started = False

        def compose(self) -> ComposeResult:
            yield Static(id="roll")

        def on_mount(self) -> None:
            player.play()
            self.set_interval(1 / 60, self.paint)

        def paint(self) -> None:
            head = player.playhead
            self.started = self.started or head.playing
            if self.started and not head.playing:
                self.exit()
            table = Table("track", *(f"bar {b}" for b in range(12)))
            for row in range(36):
                table.add_row(f"{row}", *(f"{head.song_beat * (row + b):9.3f}" for b in range(12)))
            self.query_one("#roll", Static).update(table)

    start_cpu, start = time.thread_time(), time.perf_counter()
    Busy().run(headless=True, size=(200, 50))
    return (time.thread_time() - start_cpu) / (time.perf_counter() - start) * 100


def idle_cpu(in_process: bool, port_name: str | None, seconds: float = 5.0) -> float:
    """CPU share of the idle player: its thread, or its whole process (with or without a port)."""
    with tempfile.TemporaryDirectory() as folder:
        contender = Contender(in_process, port_name, Path(folder), realtime=in_process)
        contender.player.sync(30)
        time.sleep(0.5)  # let a new process settle after its imports
        cpu0 = contender.cpu()
        time.sleep(seconds)
        share = (contender.cpu() - cpu0) / seconds * 100
        contender.close()
    return share


# ── JACK ────────────────────────────────────────────────────────────────────


def private_jack(period: int) -> subprocess.Popen[bytes] | None:
    """Start a JACK server of our own with a small period; None if jackd is missing."""
    if shutil.which("jackd") is None:
        return None
    name = f"muse-bench-{os.getpid()}"
    env = {**os.environ, "JACK_DEFAULT_SERVER": name}
    for realtime in (["--realtime"], ["--no-realtime"]):  # real-time where allowed, like a studio
        server = subprocess.Popen(
            ["jackd", "-n", name, *realtime, "-d", "dummy", "-r", "48000", "-p", str(period)],
            stdout=JACK_LOG.open("ab"),
            stderr=subprocess.STDOUT,
        )
        for _ in range(60):
            if server.poll() is not None:
                break
            if subprocess.run(["jack_lsp"], env=env, capture_output=True).returncode == 0:
                os.environ["JACK_DEFAULT_SERVER"] = name
                return server
            time.sleep(0.05)
        server.terminate()
        server.wait(10)
    return None


def row(label: str, got: Figures) -> bool:
    median, p99, lost, stuck = got
    ok = p99 <= P99_TARGET_MS and not lost and not stuck
    verdict = "ok" if ok else "MISSED"
    print(
        f"  {label:<12} lost {lost:3d}   stuck {stuck:2d}   "
        f"p50 {median:6.3f} ms   p99 {p99:7.3f} ms   {verdict}"
    )
    return ok


def main_printing_progress(player: PlayerControls) -> float:
    """`muse-studio play`: the main thread redraws the progress line ten times a second."""
    player.play()
    while not player.wait_until_stopped(0.1):
        print(f"\r  bar {player.playhead.bar + 1}", end="", file=sys.stderr, flush=True)
    print("\r", end="", file=sys.stderr)
    return 0.0


# Every player the product uses: the studio's, `play`'s and `compose --play`'s are all
# `PlayerProcess` at real-time priority; they differ in what the main thread does meanwhile.
PRODUCT_PATHS: list[tuple[str, Callable[[PlayerControls], float]]] = [
    ("studio (PlayerProcess, main thread rendering Textual at 60 fps)", main_rendering_textual),
    ("muse-studio play (PlayerProcess, main thread printing progress)", main_printing_progress),
    ("compose --play (PlayerProcess, main thread waiting)", main_idle),
]
# For comparison: the thread player the CLI used before, beside a busy main thread.
REFERENCE_PATHS: list[tuple[str, Callable[[PlayerControls], float]]] = [
    ("old thread Player, main thread waiting", main_idle),
    ("old thread Player, main thread burning CPU", main_burning_cpu),
]


RETRIES = 2


def reader_dropped(recorder: Recorder, arrived: Figures, logged_before: int) -> bool:
    """Events went missing and our private server logged the recorder's cycle as late.

    JACK drops the events of a cycle its reader missed: that is the measuring
    instrument failing, not the player, so the run is played again (the player's
    own log, "at the port", shows whether the player itself lost anything).
    """
    if not arrived[2] or not JACK_LOG.exists():
        return False
    with JACK_LOG.open("rb") as log:
        log.seek(logged_before)
        return f"client = {recorder.client} was not finished".encode() in log.read()


def start_load(processes: int) -> list[subprocess.Popen[bytes]]:
    """Busy loops beside the bench, like a render or CI on the same cores."""
    spin = [sys.executable, "-c", "while True: pass"]
    return [subprocess.Popen(spin) for _ in range(processes)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--period", type=int, default=64, help="frames per JACK period")
    parser.add_argument("--server", help="use this running JACK server instead of a private one")
    parser.add_argument(
        "--load", type=int, default=2, help="busy-loop processes to run beside (default 2)"
    )
    parser.add_argument("--runs", type=int, default=1, help="play each path this many times")
    args = parser.parse_args()

    server = None
    if args.server:
        os.environ["JACK_DEFAULT_SERVER"] = args.server
        where = f"JACK server {args.server!r}"
    else:
        server = private_jack(args.period)
        where = f"a private JACK server ({args.period} frames at 48 kHz)" if server else "JACK"
    os.environ["MIDO_BACKEND"] = "mido.backends.rtmidi/UNIX_JACK"
    song, schedule = bench_song(args.events)
    print(f"audition bench: {len(schedule)} events at {TEMPO:.0f} BPM through {where}")
    print(f"player priority granted: {PRIORITY}; {args.load} busy-loop processes beside")
    print(f"target for every product path: 0 lost, 0 stuck, p99 <= {P99_TARGET_MS} ms")
    recorder = Recorder()
    load = start_load(args.load)
    results: list[bool] = []
    try:
        at_port, arrived = ideal_sender(recorder, schedule)
        print("JACK alone (a spin loop sends the schedule):")
        row("at the port", at_port)
        row("arrived", arrived)
        for paths, in_process, product in (
            (PRODUCT_PATHS, True, True),
            (REFERENCE_PATHS, False, False),
        ):
            for label, busy in paths:
                for _ in range(args.runs):
                    retried = 0
                    while True:
                        logged = JACK_LOG.stat().st_size if JACK_LOG.exists() else 0
                        sent, got, player_cpu, main_cpu = play_case(
                            recorder, song, schedule, busy, in_process, realtime=in_process
                        )
                        if retried >= RETRIES or not reader_dropped(recorder, got, logged):
                            break
                        retried += 1
                    share = f", main thread at {main_cpu:.0f}% of a core" if main_cpu else ""
                    again = f" (played {retried + 1}x: JACK logged the recorder late)"
                    again = again if retried else ""
                    print(f"{label}{share}, player at {player_cpu:.1f}%{again}:")
                    ok = row("at the port", sent) & row("arrived", got)
                    if product:
                        results.append(ok)
        idle = idle_cpu(True, None)
        verdict = "ok" if idle < IDLE_CPU_TARGET else "MISSED"
        print(f"player process CPU while idle: {idle:.2f}% of a core   {verdict}")
    finally:
        for spinner in load:
            spinner.kill()
            spinner.wait()
        recorder.close()
        if server is not None:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
    return 0 if all(results) and idle < IDLE_CPU_TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
