"""A/B auditioning in the studio through a real MIDI port: the variant takes over the bass
on the next bar line while the rest of the song keeps playing, and 0 brings the song's own back.

The studio's own player (a PlayerProcess on a JACK output) plays into the loopback
recorder; what arrives is compared with the notes of each part.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from muse_tui.contracts import Track
from muse_tui.engine.registry import product_stages
from muse_tui.tui.auditioning import open_real_player
from muse_tui.tui.widgets.arrangement import ArrangementView
from tests.midi_ports import Loopback
from tests.ui.harness import make_studio
from tests.ui.test_compose import type_prompt
from tests.ui.test_editing import SETTINGS, settle

PROMPT = "dark trap, 140, key of Am"
BAR_S = 4 * 60 / 140


def pitches(track: Track) -> list[int]:
    return [n.pitch for n in sorted(track.notes, key=lambda n: (n.start_beat, n.pitch))]


def runs_in(sequence: list[int], run: list[int]) -> bool:
    """`run` appears in `sequence` as a contiguous stretch."""
    return any(sequence[i : i + len(run)] == run for i in range(len(sequence) - len(run) + 1))


def note_ons(loopback: Loopback, channel: int, since: float) -> list[int]:
    return [
        r.message.note
        for r in loopback.received
        if r.at >= since
        and r.message.type == "note_on"
        and r.message.velocity > 0
        and r.message.channel == channel
    ]


@pytest.mark.ports
async def test_a_variant_takes_over_the_bass_on_a_real_port(
    tmp_path: Path, loopback: Loopback
) -> None:
    settings = SETTINGS + f'midi_port = "{loopback.port_name}"\n'
    app = make_studio(
        tmp_path, registry=product_stages, settings=settings, open_player=open_real_player
    )
    async with app.run_test(size=(140, 44)) as pilot:
        await type_prompt(pilot, PROMPT)
        await settle(pilot)
        view = app.studio.query_one(ArrangementView)
        view.focus()
        await pilot.press("right")  # the verse, where the bass plays
        roles = [t.role for t in view.tracks]
        bass = next(r for r in roles if r in ("bass", "sub_bass"))
        await pilot.press(*["down"] * roles.index(bass))
        own = view.track
        assert own is not None and own.role == bass
        await pilot.press("space", "a")
        await settle(pilot)
        comparison = app.studio.comparison
        assert comparison is not None

        def bass_of(tracks: list[Track]) -> Track | None:
            return next((t for t in tracks if t.id == own.id), None)

        # The variant furthest from the bass as it is: the one to hear a difference in.
        candidates = [(i, bass_of(tracks)) for i, tracks in enumerate(comparison.tracks)]
        index, variant = max(
            ((i, t) for i, t in candidates if t is not None),
            key=lambda pair: len(set(pitches(pair[1])) ^ set(pitches(own))) + len(pair[1].notes),
        )
        assert variant is not None
        await asyncio.sleep(0.5)
        pressed = time.perf_counter()
        await pilot.press(str(index + 1))
        await asyncio.sleep(2.5 * BAR_S)

        heard = note_ons(loopback, own.channel, pressed)
        assert len(heard) >= 4, "the bass should keep playing through the switch"
        # What was heard is the song's own bass up to a bar line, then the variant's.
        splits = [
            k
            for k in range(len(heard) + 1)
            if runs_in(pitches(own), heard[:k]) and runs_in(pitches(variant), heard[k:])
        ]
        assert splits, f"neither part explains {heard}"
        assert any(not runs_in(pitches(own), heard[k:]) for k in splits)
        others = {r.message.channel for r in loopback.received if r.at >= pressed}
        assert len(others - {own.channel}) >= 1  # the rest of the song kept playing

        back = time.perf_counter()
        await pilot.press("0")
        await asyncio.sleep(2.5 * BAR_S)
        heard = note_ons(loopback, own.channel, back)
        assert any(
            runs_in(pitches(variant), heard[:k]) and runs_in(pitches(own), heard[k:])
            for k in range(len(heard) + 1)
        )
        await pilot.press("ctrl+q")
