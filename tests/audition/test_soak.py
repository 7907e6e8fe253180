"""Soak: a thousand random moves on the product's player, through a real port, leave nothing stuck.

The player is the one the studio, `play` and `compose --play` use (`PlayerProcess`);
what it handed to the port is logged in its process and compared with what arrived.
"""

from __future__ import annotations

import functools
import json
import random
import time
from pathlib import Path

import pytest

from muse_tui.audition import PlayerProcess
from tests.audition.fakes import note_balance, open_logged
from tests.audition.songs import groove, other_bass
from tests.midi_ports import Loopback

pytestmark = [pytest.mark.ports, pytest.mark.slow]

MOVES = 1000


def test_a_thousand_random_moves_on_the_player_process_lose_and_strand_nothing(
    loopback: Loopback, tmp_path: Path
) -> None:
    rng = random.Random(20261123)
    song = groove(bars=8)
    log = tmp_path / "sent.json"
    player = PlayerProcess(functools.partial(open_logged, loopback.port_name, str(log)))
    try:
        player.wait_ready()
        player.load(song, alternatives={"bass": [other_bass(8)]})
        player.set_tempo(960)
        roles = [t.role for t in song.tracks]
        moves = {
            "play": lambda: player.play(from_bar=rng.randrange(8)),
            "resume": lambda: player.play(from_bar=None),
            "stop": player.stop,
            "loop": lambda: player.loop(a := rng.randrange(7), rng.randrange(a + 1, 9)),
            "unloop": lambda: player.loop(None),
            "loop section": lambda: player.loop_section(rng.choice(["intro", "hook"])),
            "mute": lambda: player.mute(rng.choice(roles), rng.random() < 0.5),
            "solo": lambda: player.solo(rng.choice(roles), rng.random() < 0.5),
            "alone": lambda: player.play_only(rng.choice([*roles, None])),
            "switch": lambda: player.set_alternative("bass", rng.choice([0, None])),
            "tempo": lambda: player.set_tempo(rng.uniform(300, 999)),
        }
        names = list(moves)
        player.play()
        for _ in range(MOVES):
            moves[rng.choice(names)]()
            time.sleep(rng.uniform(0, 0.006))  # let the song move between moves
        player.stop()
        assert player.sync(10)
        assert player.last_error is None
    finally:
        player.close()
    assert player.status == "closed"
    sent = [tuple(m) for m in json.loads(log.read_text())]
    received = [tuple(r.message.bytes()) for r in loopback.wait_quiet(quiet_for=0.3)]

    assert sum(m[0] & 0xF0 == 0x90 for m in sent) > 100, "the moves should leave time to play"
    assert note_balance(sent) == ({}, []), "the player let every note go"
    lost = len(sent) - len(received)
    assert received == sent, f"everything sent arrived, in order ({lost} lost)"
    assert note_balance(received) == ({}, [])
