"""A live jam queues one round per loop boundary, even when a round outlasts its pass."""

from __future__ import annotations

from typing import Any

import pytest

from muse_tui.contracts.jam import JamRound
from muse_tui.engine.jam import Jam
from muse_tui.session.jam_live import LiveJam
from tests.ui.harness import FakePlayer


class LoopingPlayer(FakePlayer):
    """The studio's fake player, taking parts and tempos at the loop's end."""

    def set_alternative(
        self, role_or_id: str, alternative: Any, *, at_loop_end: bool = False
    ) -> None:
        self.calls.append(("set_alternative", role_or_id, at_loop_end))

    def set_tempo(self, bpm: float, *, at_loop_end: bool = False) -> None:
        self.calls.append(("set_tempo", bpm, at_loop_end))


def test_a_round_that_outlasts_its_pass_is_the_only_one_on_its_boundary(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    player = LoopingPlayer()
    with Jam("dark trap, 140, key of Am", 3, loop_bars=1) as jam:
        live = LiveJam(jam, player)
        live.start()
        thinking = jam.next_round

        def slow(line: str = "") -> JamRound:  # the machine is starved: the loop wraps meanwhile
            round_ = thinking(line)
            player.position = (0, 0.4)
            return round_

        monkeypatch.setattr(jam, "next_round", slow)
        player.position = (0, 2.5)  # past the middle of the one-bar loop
        assert live.tick() is not None  # round 2, on its way after the wrap: it lands a pass late
        assert (live.passes, live.sounding) == (1, live.heard[0])

        monkeypatch.setattr(jam, "next_round", thinking)
        for beat in (0.45, 2.2, 3.5):  # the rest of the pass that plays round 1 once more
            player.position = (0, beat)
            assert live.tick() is None, "a second round would land on the same boundary"
        assert len(live.heard) == 2

        player.position = (0, 0.1)  # the boundary round 2 lands on
        live.tick()
        assert (live.passes, live.sounding) == (2, live.heard[1])
        player.position = (0, 2.1)
        assert live.tick() is live.heard[2]  # and the next round is prepared as usual


def test_a_round_reaches_the_player_as_one_command() -> None:
    """Part by part, a round arriving as the loop wraps would be heard torn: some parts new
    on this pass, the rest on the next."""
    player = LoopingPlayer()
    with Jam("dark trap, 140, key of Am", 3, loop_bars=1) as jam:
        live = LiveJam(jam, player)
        live.start()
        live.direct("faster, and the drums busier")
        player.position = (0, 2.5)
        player.calls.clear()
        assert live.tick() is not None
    changes = [c for c in player.calls if c[0] in ("set_alternative", "set_tempo")]
    assert len(changes) >= 2, "a tempo and at least one part changed"
    assert player.calls == [("together",), *changes, ("apart",)]
    assert all(c[-1] is True for c in changes), "each for the loop's end"
