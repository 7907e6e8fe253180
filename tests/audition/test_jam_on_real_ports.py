"""A live jam on a JACK loopback: each round's parts come in exactly on a loop boundary,
no note is left sounding over 32 rounds of random directions, and Ctrl-C ends in silence."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from functools import partial
from pathlib import Path

import pytest

from muse_tui.audition import PlayerProcess
from muse_tui.contracts.jam import JamRound
from muse_tui.engine.jam import Jam
from muse_tui.session.jam_live import LiveJam
from tests.audition.fakes import note_balance, wait_until
from tests.audition.hangs import PYTHON, as_from_a_terminal, communicate_or_explain
from tests.audition.stamped_child import open_logging, read_log
from tests.midi_ports import Loopback

pytestmark = pytest.mark.ports

FAST = 480.0  # BPM: a one-bar loop every half second
DIRECTIONS = [
    "@drums busier",
    "@drums simpler",
    "@bass lock to the kick",
    "@bass your own line",
    "@keys busier",
    "@lead simpler",
    "@lead up an octave",
    "@lead down an octave",
    "everyone, key of D",
    "everyone, key of E minor",
    "half time",
    "full time",
    "@keys lay out",
    "@keys come back",
    "switch it up",
    "",
    "",
]
ONSET_TOLERANCE_S = 0.002
#: How late a note may be and still be recognised as the round's own (player jitter under load).
IDENTITY_S = 0.010
SECONDS_PER_BEAT = 60 / FAST


def _note_ons(sent: list[tuple[float, tuple[int, ...]]]) -> list[tuple[float, int, int]]:
    return [(t, m[0] & 0x0F, m[1]) for t, m in sent if m[0] & 0xF0 == 0x90 and m[2] > 0]


def _expected(round_: JamRound) -> dict[int, list[tuple[float, int]]]:
    """Channel → (beat, pitch) of every note the round plays in one pass."""
    by_channel: dict[int, list[tuple[float, int]]] = {}
    for member in round_.members:
        if member.part is None:
            continue
        for note in member.part.notes:
            by_channel.setdefault(member.track.channel, []).append((note.start_beat, note.pitch))
    return by_channel


def _is_own(
    expected: dict[int, list[tuple[float, int]]], note: tuple[float, int, int], start: float
) -> bool:
    """Whether a note heard in the pass that began at `start` is one of `expected`: its pitch on
    its channel, sent between 1 ms before its time and `IDENTITY_S` after."""
    t, channel, pitch = note
    beat = (t - start) / SECONDS_PER_BEAT
    return any(
        p == pitch and -0.001 <= (beat - b) * SECONDS_PER_BEAT <= IDENTITY_S
        for b, p in expected.get(channel, [])
    )


def _holds(round_: JamRound, heard: list[tuple[float, int, int]], start: float) -> bool:
    """Whether every note of the pass that began at `start` is one of the round's own."""
    expected = _expected(round_)
    return all(_is_own(expected, note, start) for note in heard)


def _not_own(
    round_: JamRound, before: JamRound | None, note: tuple[float, int, int], start: float
) -> str:
    """Why a note of the pass is not the round's: its nearest own note, whether `before` had it."""
    t, channel, pitch = note
    beat = (t - start) / SECONDS_PER_BEAT
    nearest = min(
        (
            (beat - b) * SECONDS_PER_BEAT * 1000
            for b, p in _expected(round_).get(channel, [])
            if p == pitch
        ),
        key=abs,
        default=None,
    )
    earlier = _expected(before).get(channel, []) if before is not None else []
    in_last = any(p == pitch and abs(b - beat) < 0.02 for b, p in earlier)
    return (
        f"round {round_.number}: channel {channel + 1} note {pitch} at beat "
        f"{beat:.4f} is not this round's (nearest of its own {nearest} ms; "
        f"in the round before: {in_last})"
    )


def test_rounds_land_on_loop_boundaries_with_no_stuck_notes_over_32_rounds(
    loopback: Loopback, tmp_path: Path
) -> None:
    """Through the player process, as the studio and `jam --play` hear it; the child logs
    when each message left, and the band works out each round in this process meanwhile."""
    rng = random.Random(20261123)
    log = tmp_path / "sent.json"
    player = PlayerProcess(partial(open_logging, loopback.port_name, str(log)))
    player.wait_ready()
    with Jam("deep house, 122, key of F minor", 5, loop_bars=1) as jam:
        live = LiveJam(jam, player)
        live.start(tempo=FAST)
        while len(live.heard) < 32:
            if live.tick() is not None:
                live.direct(rng.choice(DIRECTIONS))
            time.sleep(0.002)

        def heard_32_passes() -> bool:
            live.tick(prepare=False)
            return live.passes >= 32

        assert wait_until(heard_32_passes, timeout=10, every=0.002)
        live.stop()
        assert player.sync()
    player.close()
    sent = read_log(log)
    received = [tuple(r.message.bytes()) for r in loopback.wait_quiet(quiet_for=0.2)]

    sounding, orphans = note_balance(received)
    assert orphans == [] and sounding == {}, "no stuck note, no orphan note-off"
    assert received == [m for _, m in sent], "everything sent arrived, in order"

    # Where each pass began: the first round's first note sets the origin; passes are one bar.
    loop_beats = live.heard[0].context.loop_beats
    ons = _note_ons(sent)
    first_beat = min(b for notes in _expected(live.heard[0]).values() for b, _ in notes)
    origin = ons[0][0] - first_beat * SECONDS_PER_BEAT
    boundary_late: list[float] = []
    # Each pass plays the round queued after the one the pass before played, or (when the
    # ticking missed a wrap on a starved machine) that same round once more: a pass moves on
    # to the next round when every note it holds is that round's.
    played = 0  # index in `live.heard` of the round the pass plays
    for number in range(32):
        start = origin + number * loop_beats * SECONDS_PER_BEAT
        end = start + loop_beats * SECONDS_PER_BEAT
        heard = [(t, ch, p) for t, ch, p in ons if start - 0.001 <= t < end - 0.001]
        if number and played + 1 < len(live.heard) and _holds(live.heard[played + 1], heard, start):
            played += 1
        round_ = live.heard[played]
        before = live.heard[played - 1] if played else None
        # Every note of the pass is the round's own (its pitch on its channel, at its time).
        expected = _expected(round_)
        for note in heard:
            if not _is_own(expected, note, start):
                raise AssertionError(_not_own(round_, before, note, start))
        # A part that changed comes in on the boundary: its first note exactly on time. A pass
        # whose notes are all the round before's as well does not show which of the two it
        # played (it may be a replay read as a move on); the first pass that tells them apart
        # carries the change, and is checked.
        if before is None or _holds(before, heard, start):
            continue
        for member in round_.members:
            was = before.member(member.id)
            if was is None or was.part == member.part or not member.part or not member.part.notes:
                continue
            first = min(member.part.notes, key=lambda n: n.start_beat)
            due = start + first.start_beat * SECONDS_PER_BEAT
            sent_at = min(
                (
                    t
                    for t, ch, p in ons
                    if ch == member.track.channel and p == first.pitch and t >= due - 0.001
                ),
                default=None,
            )
            assert sent_at is not None, (
                f"round {round_.number}: {member.name}'s new part never came in"
            )
            boundary_late.append(sent_at - due)
    assert boundary_late, "parts changed on boundaries"
    worst = max(abs(x) for x in boundary_late)
    assert worst <= ONSET_TOLERANCE_S, (
        f"a changed part came in {worst * 1000:.2f} ms off its boundary"
    )
    # Rounds heard, each once: a replayed round changed nothing at its second boundary.
    changed_rounds = sum(
        any(m.change != "held" for m in round_.members) for round_ in live.heard[1 : played + 1]
    )
    assert changed_rounds >= 10, "the random directions and the band's own moves changed parts"


def test_ctrl_c_ends_a_live_jam_with_every_note_off(loopback: Loopback, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "MUSE_SESSIONS_DIR": str(tmp_path / "sessions"),
        "MUSE_CONFIG_DIR": str(tmp_path / "config"),
    }
    jam = subprocess.Popen(
        [
            *PYTHON,
            "-m",
            "muse_tui.cli",
            "jam",
            "trap, 160, key of Am",
            "--play",
            "--rounds",
            "64",
            "--port",
            loopback.port_name,
        ],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_from_a_terminal,
    )
    try:
        loopback.wait_for(60, timeout=30)
        jam.stdin.write("@drums busier\n")  # type: ignore[union-attr]
        jam.stdin.flush()  # type: ignore[union-attr]
        time.sleep(1.0)
        jam.send_signal(signal.SIGINT)
        out, err = communicate_or_explain(jam, 15, group=False)
    finally:
        if jam.poll() is None:
            jam.kill()
    assert jam.returncode == 130, err
    assert "Traceback" not in err
    received = [tuple(r.message.bytes()) for r in loopback.wait_quiet(quiet_for=0.3)]
    sounding, orphans = note_balance(received)
    assert sounding == {} and orphans == []
    channels = {m[0] & 0x0F for m in received if m[0] & 0xF0 == 0x90}
    all_off = {m[0] & 0x0F for m in received if m[0] & 0xF0 == 0xB0 and m[1] == 123}
    assert channels <= all_off, "All Notes Off on every channel that played"
    assert "round 1" in out and "Stopped." in out
