"""A proposal heard through a real MIDI port: 2 switches the bass to the proposal's on the next
bar line while the song plays on, 1 brings the song's own back, and stopping leaves no note
sounding (every note-on has its note-off on the recorder, and every channel is told all notes off).

The studio's own player (a PlayerProcess on a JACK output) plays into the loopback recorder.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from pathlib import Path

import pytest

from muse_tui.contracts import Track
from muse_tui.engine.registry import product_stages
from muse_tui.tui.auditioning import open_real_player
from muse_tui.tui.widgets.arrangement import ArrangementView
from muse_tui.tui.widgets.compare import ProposalView
from tests.midi_ports import Loopback
from tests.ui.harness import make_studio, until
from tests.ui.test_compose import type_prompt
from tests.ui.test_editing import SETTINGS, settle
from tests.ui.test_editing_ports import BAR_S, PROMPT, hands_over, heard_within

BEAT_S = BAR_S / 4


def next_bar_line(start: float, at: float) -> float:
    """The first bar line at or after `at`, for a song whose bar 1 began at `start`."""
    return start + math.ceil((at - start) / BAR_S - 1e-6) * BAR_S


def positions(track: Track) -> set[tuple[int, int]]:
    """Where each note of a part starts, as (pitch, sixteenth of the song)."""
    return {(n.pitch, round(n.start_beat * 4)) for n in track.notes}


def left_sounding(loopback: Loopback) -> dict[tuple[int, int], int]:
    """(channel, note): how many of its note-ons the recorder heard no note-off for."""
    messages = [r.message for r in loopback.received]
    ons = Counter((m.channel, m.note) for m in messages if m.type == "note_on" and m.velocity)
    offs = Counter(
        (m.channel, m.note)
        for m in messages
        if m.type == "note_off" or (m.type == "note_on" and m.velocity == 0)
    )
    return {k: n - offs[k] for k, n in ons.items() if offs[k] < n}


def told_all_off(loopback: Loopback, since: float) -> set[int]:
    """The channels told "all notes off" (CC 123) since `since`."""
    return {
        r.message.channel
        for r in loopback.received
        if r.at >= since and r.message.type == "control_change" and r.message.control == 123
    }


@pytest.mark.ports
async def test_current_and_proposal_switch_on_the_bar_line_without_stuck_notes(
    tmp_path: Path, loopback: Loopback
) -> None:
    settings = SETTINGS + f'midi_port = "{loopback.port_name}"\n'
    app = make_studio(
        tmp_path, registry=product_stages, settings=settings, open_player=open_real_player
    )
    async with app.run_test(size=(140, 44)) as pilot:
        await type_prompt(pilot, PROMPT)
        await settle(pilot)
        await type_prompt(pilot, "what would it sound like in D minor?")
        await settle(pilot)
        view = app.studio.query_one(ProposalView)
        song = app.studio.song
        own = next(t for t in song.tracks if t.role in ("bass", "sub_bass"))
        proposed = app.studio.comparing.proposal.pipeline.song_state.track(own.role)
        assert proposed is not None and proposed.id == own.id
        assert positions(proposed) != positions(own)

        arrangement = app.studio.query_one(ArrangementView)
        arrangement.focus()
        await pilot.press("right", "space")  # the verse, where the bass plays
        from_beat = arrangement.section.start_bar * 4
        view.focus()
        assert await heard_within(loopback, own.channel, 0.0, lambda heard: len(heard) >= 2)
        first_note = min(
            n.start_beat for t in song.tracks for n in t.notes if n.start_beat >= from_beat
        )
        started = min(r.at for r in loopback.received if r.message.type == "note_on")
        started -= (first_note - from_beat) * BEAT_S  # when the verse's first bar began

        pressed = time.perf_counter()
        await pilot.press("2")
        heard = await heard_within(
            loopback, own.channel, pressed, lambda heard: hands_over(heard, own, proposed)
        )
        assert hands_over(heard, own, proposed), f"the proposal never took over: {heard}"
        bar_line = next_bar_line(started, pressed)
        own_at = positions(own)
        for r in loopback.received:
            m = r.message
            if r.at < pressed or m.type != "note_on" or m.velocity == 0 or m.channel != own.channel:
                continue
            sixteenth = from_beat * 4 + round((r.at - started) / BEAT_S * 4)
            if (m.note, sixteenth) not in own_at and r.at < bar_line - 0.05:
                pytest.fail(f"the proposal's {m.note} sounded before the bar line")

        back = time.perf_counter()
        await pilot.press("1")
        heard = await heard_within(
            loopback, own.channel, back, lambda heard: hands_over(heard, proposed, own)
        )
        assert hands_over(heard, proposed, own), f"the song's own bass never came back: {heard}"

        stopped = time.perf_counter()
        await pilot.press("space")
        await until(pilot, lambda: not app.audition.playing, timeout=5)
        channels = {t.channel for t in song.tracks}
        # The player's last messages reach the recorder: wait for them, not for a fixed time.
        await until(
            pilot,
            lambda: not left_sounding(loopback) and channels <= told_all_off(loopback, stopped),
            timeout=5,
        )
        assert left_sounding(loopback) == {}, "a note was left sounding"
        assert channels <= told_all_off(loopback, stopped)  # all notes off, on every channel
        await pilot.press("ctrl+q")
