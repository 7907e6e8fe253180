"""The Jam screen: the band on screen, directions in the prompt, parts queued for the loop's end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Input

from muse_tui.knowledge.jam import band_table
from muse_tui.tui.screens.jam import JamScreen, MemberRow
from muse_tui.tui.widgets.mini_roll import MiniRoll
from tests.ui.harness import FakePlayer, Players, make_studio, until
from tests.ui.test_compose import NO_GATES

PROMPT = "dark trap, 140, key of Am"


class JamPlayer(FakePlayer):
    """The fake player, taking a jam's switches at the loop's end and tempo changes."""

    def set_alternative(
        self, role_or_id: str, alternative: Any, *, at_loop_end: bool = False
    ) -> None:
        notes = None if alternative is None else len(alternative.notes)
        self.calls.append(("set_alternative", role_or_id, notes, at_loop_end))

    def set_tempo(self, bpm: float, *, at_loop_end: bool = False) -> None:
        self.calls.append(("set_tempo", bpm, at_loop_end))


class JamPlayers(Players):
    def __call__(self, port_name: str | None) -> FakePlayer:
        player = super().__call__(port_name)
        jam = JamPlayer(player.port_name)
        self.opened[-1] = jam
        return jam


async def _open_jam(pilot) -> JamScreen:  # type: ignore[no-untyped-def]
    app = pilot.app
    prompt = app.studio.query_one("#prompt")
    prompt.load_text(PROMPT)
    await pilot.press("escape")
    await pilot.press("j")
    screen = app.screen
    assert isinstance(screen, JamScreen)
    await app.workers.wait_for_complete()
    await pilot.pause()
    return screen


async def test_the_band_plays_and_a_direction_lands_on_the_loop_end(tmp_path: Path) -> None:
    players = JamPlayers()
    app = make_studio(tmp_path, players=players, settings=NO_GATES)
    async with app.run_test(size=(140, 44)) as pilot:
        screen = await _open_jam(pilot)
        rows = list(screen.query(MemberRow))
        assert [r.member.id for r in rows] == ["drums", "bass", "keys", "lead"]
        player = players.last
        assert [c[0] for c in player.calls[-3:]] == ["load", "loop", "play"]
        assert app.focused is screen.query_one("#direction", Input)

        await pilot.press(*"@drums busier", "enter")
        player.position = (2, 2.0)  # past the middle of the 4-bar loop: the next round is prepared
        drums = rows[0].member.track.id
        await until(pilot, lambda: any(c[:2] == ("set_alternative", drums) for c in player.calls))
        switches = [c for c in player.calls if c[0] == "set_alternative"]
        assert drums in [c[1] for c in switches], "the busier drums are queued"
        assert all(c[3] for c in switches), "every part comes in at the loop's end"
        assert rows[0].member.change == "started", (
            "the screen shows what sounds, not what is queued"
        )

        player.position = (0, 0.2)  # the loop wrapped: the new round sounds
        await until(pilot, lambda: rows[0].member.change != "started")
        assert rows[0].member.change == "asked"
        thought = rows[0].member.thought
        drummer = next(p for p in band_table().members if p.id == "drums")
        assert any(line in thought for line in drummer.lines["busier"]), thought
        assert thought in str(rows[0].query_one(".member-thought").render()), (
            "the row shows what the drummer said"
        )

        await pilot.press("f5")
        assert ("mute", drums, True) in player.calls
        assert "MUTED" in str(rows[0].query_one(".member-head").render())

        await pilot.press("ctrl+s")
        await app.workers.wait_for_complete()
        kept = list((tmp_path / "sessions").glob("session-*/midi/full-arrangement.mid"))
        assert kept, "keep this wrote a session folder"

        await pilot.press("escape")
        assert not isinstance(app.screen, JamScreen)
        assert ("stop",) in player.calls, "leaving the jam stops it"


async def test_without_a_midi_output_the_jam_runs_on_screen(tmp_path: Path) -> None:
    players = JamPlayers(unavailable=True)
    app = make_studio(tmp_path, players=players, settings=NO_GATES)
    async with app.run_test(size=(140, 44)) as pilot:
        screen = await _open_jam(pilot)
        log = "\n".join(str(line.text) for line in screen.query_one("#jam-log").lines)
        assert "No MIDI output" in log
        await pilot.press(*"everyone, key of D", "enter")
        await pilot.pause()
        assert screen.shown is not None and screen.shown.context.key == "D"
        await pilot.press(*"what a lovely day", "enter")
        log = "\n".join(str(line.text) for line in screen.query_one("#jam-log").lines)
        assert "did not catch" in log
        # Issue 31: a direction not taken is one sentence in the chat, beside those taken.
        await pilot.press(*"@drums up an octave @bass four on the floor @lead busier", "enter")
        await pilot.pause()
        log = "\n".join(str(line.text) for line in screen.query_one("#jam-log").lines)
        assert "Not taken: Kip plays a kit, so '@drums up an octave'" in log
        assert "Not taken: '@bass four on the floor'" in log


async def test_at_80x24_every_member_of_the_band_is_on_screen(tmp_path: Path) -> None:
    """Issue 33: at 80x24 the band panel showed two of the four players, the second cut."""
    app = make_studio(tmp_path, players=JamPlayers(), settings=NO_GATES)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_jam(pilot)
        band = screen.query_one("#band").region
        rows = list(screen.query(MemberRow))
        assert [r.member.id for r in rows] == ["drums", "bass", "keys", "lead"]
        for row in rows:
            head = row.query_one(".member-head").region
            assert head.height == 1 and band.contains_region(head), (row.member.id, head, band)
            roll = row.query_one(MiniRoll).region
            assert roll.height >= 1 and band.contains_region(roll), (row.member.id, roll, band)
        log = screen.query_one("#jam-log").region
        assert log.height >= 4, "the band's chat keeps a few lines"
