"""A/B auditioning in the studio through a real MIDI port: the variant takes over the bass
on the next bar line while the rest of the song keeps playing, and 0 brings the song's own back.

The studio's own player (a PlayerProcess on a JACK output) plays into the loopback
recorder; what arrives is compared with the notes of each part.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
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


def hands_over(heard: list[int], before: Track, after: Track) -> bool:
    """`heard` is `before`'s line up to some note, then a stretch only `after` plays."""
    return len(heard) >= 4 and any(
        runs_in(pitches(before), heard[:k])
        and runs_in(pitches(after), heard[k:])
        and not runs_in(pitches(before), heard[k:])
        for k in range(len(heard))
    )


async def heard_within(
    loopback: Loopback, channel: int, since: float, done: Callable[[list[int]], bool]
) -> list[int]:
    """The notes heard on `channel` since `since`, once `done` says so or three bars pass."""
    deadline = time.perf_counter() + 3 * BAR_S
    while not done(heard := note_ons(loopback, channel, since)):
        if time.perf_counter() > deadline:
            break
        await asyncio.sleep(0.02)
    return heard


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
        await pilot.press(*["down"] * ((roles.index(bass) - view.track_index) % len(roles)))
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
        assert await heard_within(loopback, own.channel, 0.0, lambda heard: len(heard) >= 1)

        pressed = time.perf_counter()
        await pilot.press(str(index + 1))
        # The song's own bass up to a bar line, then the variant's, and not the own one again.
        heard = await heard_within(
            loopback, own.channel, pressed, lambda heard: hands_over(heard, own, variant)
        )
        assert hands_over(heard, own, variant), f"the variant never took over: {heard}"
        others = {r.message.channel for r in loopback.received if r.at >= pressed}
        assert len(others - {own.channel}) >= 1  # the rest of the song kept playing

        back = time.perf_counter()
        await pilot.press("0")
        heard = await heard_within(
            loopback, own.channel, back, lambda heard: hands_over(heard, variant, own)
        )
        assert hands_over(heard, variant, own), f"the song's own bass never came back: {heard}"
        await pilot.press("ctrl+q")
