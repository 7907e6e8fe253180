"""Signals at random moments to a playing command, heard at a real port: what was left sounding.

One trial starts a command (`muse-studio play --loop`, or anything else that
plays into the loopback) as a terminal's foreground job would run it, sends it
INT (to its group, as Ctrl-C does), TERM (to it, as `kill` does) or HUP (to its
group, as a closed terminal does) after a random delay, waits for it to end and
then for the port to go quiet, and counts the notes still sounding: a note-on
with no note-off after it, and no All Notes Off (CC 123) or All Sound Off
(CC 120) on its channel after it, and the notes struck after the command had returned
(a player it left running on its own).

Used by tests/audition/test_signals_at_random_moments.py and, for many trials,
`python -m tests.audition.signal_trials --trials 200 --load 2`.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.audition.hangs import PYTHON, as_from_a_terminal
from tests.midi_ports import Loopback, find_midi_system, new_loopback

ROOT = Path(__file__).resolve().parents[2]
SIGNALS = {
    "INT": (signal.SIGINT, True),
    "TERM": (signal.SIGTERM, False),
    "HUP": (signal.SIGHUP, True),
}
CC_ALL_SOUND_OFF, CC_ALL_NOTES_OFF = 120, 123
#: A note struck this long after the command returned was sent after it: JACK delivers within
#: a period (5 ms here), and the recorder's clock is the tightest offset seen.
AFTER_RETURN_GRACE_S = 0.1


def still_sounding(messages: Iterable[Sequence[int]]) -> dict[tuple[int, int], int]:
    """(channel, pitch) → how many note-ons were never let go, counting CC 120/123 as letting go."""
    sounding: dict[tuple[int, int], int] = {}
    for status, *data in messages:
        kind, channel = status & 0xF0, status & 0x0F
        if kind == 0x90 and data[1] > 0:
            sounding[(channel, data[0])] = sounding.get((channel, data[0]), 0) + 1
        elif kind == 0x80 or kind == 0x90:
            key = (channel, data[0])
            if sounding.get(key, 0) > 0:
                sounding[key] -= 1
        elif kind == 0xB0 and data[0] in (CC_ALL_SOUND_OFF, CC_ALL_NOTES_OFF):
            for key in [k for k in sounding if k[0] == channel]:
                sounding[key] = 0
    return {key: count for key, count in sounding.items() if count > 0}


@dataclass(frozen=True)
class Trial:
    signal_name: str
    delay: float
    exit_code: int | None
    notes_on: int
    stuck: dict[tuple[int, int], int]
    traceback: str
    #: Notes struck after the command had returned: a player left playing on its own.
    notes_after_return: int = 0

    @property
    def failed(self) -> bool:
        return (
            bool(self.stuck)
            or bool(self.traceback)
            or self.exit_code is None
            or self.notes_after_return > 0
        )


def run_trial(
    command: Sequence[str],
    loopback: Loopback,
    signal_name: str,
    delay: float,
    env: dict[str, str],
    *,
    after_first_note: bool = False,
) -> Trial:
    """Start `command`, signal it `delay` seconds after its start (or after its first message
    reached the port), and see what the port was left with."""
    signum, to_group = SIGNALS[signal_name]
    before = len(loopback.received)
    child = subprocess.Popen(
        [*PYTHON, *command],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal gives its job
        preexec_fn=as_from_a_terminal,
    )
    try:
        if after_first_note:
            loopback.wait_for(before + 1, timeout=30)
        time.sleep(delay)  # the random moment itself, not a wait for something to happen
        if to_group:
            os.killpg(child.pid, signum)
        else:
            child.send_signal(signum)
        try:
            _, err = child.communicate(timeout=20)
            code: int | None = child.returncode
        except subprocess.TimeoutExpired:
            err, code = "did not end within 20 s", None
        returned = time.perf_counter()
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    arrived = loopback.wait_quiet(quiet_for=0.5, timeout=15)[before:]
    messages = [tuple(r.message.bytes()) for r in arrived]
    notes_on = sum(1 for m in messages if m[0] & 0xF0 == 0x90 and m[2] > 0)
    traceback = err if "Traceback" in err else ""
    late = sum(
        1
        for r in arrived
        if r.at > returned + AFTER_RETURN_GRACE_S
        and r.message.type == "note_on"
        and r.message.velocity
    )
    return Trial(signal_name, delay, code, notes_on, still_sounding(messages), traceback, late)


def play_command(folder: Path, loopback: Loopback) -> list[str]:
    """`muse-studio play FOLDER --loop --port RECORDER`, started as the script starts it."""
    return ["-m", "muse_tui.launch", "play", str(folder), "--loop", "--port", loopback.port_name]


def write_playable_session(root: Path) -> Path:
    """A session folder holding a dense two-bar groove, looped so notes always sound."""
    from tests.audition.songs import groove  # the songs need the contracts: only when run

    folder = root / "session-20261122-abc123"
    (folder / "state").mkdir(parents=True)
    (folder / "state" / "song-state.json").write_text(groove(bars=8, tempo=240).to_json())
    (folder / "manifest.json").write_text("{}")
    return folder


def _busy_loops(count: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--load", type=int, default=2, help="busy-loop processes beside")
    parser.add_argument("--max-delay", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    system, reason = find_midi_system()
    if system is None:
        sys.exit(f"no real MIDI system: {reason}")
    rng = random.Random(args.seed)
    env = {**os.environ, "MIDO_BACKEND": system.mido_backend}
    busy = _busy_loops(args.load)
    loopback = new_loopback(system)
    failures: list[Trial] = []
    sounding_at_signal = 0
    try:
        with tempfile.TemporaryDirectory() as temp:
            env["MUSE_CONFIG_DIR"] = str(Path(temp, "config"))
            folder = write_playable_session(Path(temp))
            for number in range(args.trials):
                name = rng.choice(list(SIGNALS))
                trial = run_trial(
                    play_command(folder, loopback),
                    loopback,
                    name,
                    rng.uniform(0, args.max_delay),
                    env,
                    after_first_note=rng.random() < 0.7,
                )
                sounding_at_signal += trial.notes_on > 0
                if trial.failed:
                    failures.append(trial)
                    print(f"#{number} {trial}", flush=True)
    finally:
        loopback.close()
        for spinner in busy:
            spinner.kill()
    stuck = sum(sum(t.stuck.values()) for t in failures)
    tracebacks = sum(bool(t.traceback) for t in failures)
    late = sum(t.notes_after_return for t in failures)
    print(
        f"{args.trials} trials ({sounding_at_signal} with notes sounding), "
        f"{len(failures)} failed: {stuck} stuck notes, {tracebacks} tracebacks, "
        f"{late} notes after the command returned"
    )


if __name__ == "__main__":
    main()
