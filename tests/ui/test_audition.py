"""Listening from the keyboard: play, a track alone, a section loop, mute, solo, no port."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path

from textual.message import Message
from textual.notifications import Notify
from textual.pilot import Pilot

from muse_tui.audition import Player
from muse_tui.audition.clock import Playhead
from muse_tui.knowledge.midi_setup import midi_port_hint
from muse_tui.tui.app import StudioApp
from muse_tui.tui.auditioning import Audition
from muse_tui.tui.messages import SongLoaded
from muse_tui.tui.widgets.arrangement import ArrangementView
from muse_tui.tui.widgets.transport import TransportBar
from tests.ui.harness import FakePlayer, Players, make_studio
from tests.ui.songs import studio_song


async def load_song(pilot) -> None:
    """The test song open, the arrangement focused on its first lane (drums).

    The song opens on its chords, the first part heard in the intro; the tests count lanes
    from the first.
    """
    pilot.app.studio.post_message(SongLoaded(studio_song(), None, None))
    await pilot.pause()
    view = pilot.app.studio.query_one(ArrangementView)
    view.focus()
    view.action_track(-view.track_index)
    await pilot.pause()


async def test_the_audition_keys_drive_the_player(tmp_path: Path) -> None:
    players = Players()
    app = make_studio(tmp_path, players=players)
    async with app.run_test(size=(120, 40)) as pilot:
        await load_song(pilot)
        song = app.studio.song
        assert song is not None
        bass = song.tracks[1]
        await pilot.press("right")  # Verse, bars 5–12
        await pilot.press("space")
        player = players.last
        assert player.calls[-1] == ("play", 4)
        assert app.studio.query_one(TransportBar).state.playing
        await pilot.press("l", "down", "t", "m", "s", "space")
        assert player.calls[-5:] == [
            ("loop", 4, 12),
            ("play_only", bass.id),
            ("mute", bass.id, True),
            ("solo", bass.id, True),
            ("stop",),
        ]
        view = app.studio.query_one(ArrangementView)
        assert view.looped == "Verse" and view.marks[bass.id] == "MS"  # muted and soloed: both show


async def test_without_a_port_playing_says_how_to_get_one(tmp_path: Path) -> None:
    app = make_studio(tmp_path, players=Players(unavailable=True))
    messages: list[Message] = []
    async with app.run_test(message_hook=messages.append) as pilot:
        await load_song(pilot)
        await pilot.press("space")
        await pilot.pause()
        assert app.is_running
    shown = [m.notification for m in messages if isinstance(m, Notify)]
    assert shown[-1].message == midi_port_hint()
    assert shown[-1].title == "No MIDI output port"


async def test_space_types_in_the_prompt_and_plays_outside_it(tmp_path: Path) -> None:
    players = Players()
    app = make_studio(tmp_path, players=players)
    async with app.run_test() as pilot:
        await load_song(pilot)
        await pilot.press("slash", *"a b")
        assert app.studio.query_one("#prompt").text == "a b"
        assert players.opened == []
        await pilot.press("escape", "space")
        assert players.last.calls[-1] == ("play", 0)


class RecordingPort:
    """A MIDI output that keeps every message the player sends."""

    name = "recording"

    def __init__(self) -> None:
        self.sent: list[tuple[int, ...]] = []
        self.closed = threading.Event()

    def send(self, message) -> None:
        self.sent.append(tuple(message))

    def is_present(self) -> bool:
        return True

    def close(self) -> None:
        self.closed.set()


def wait_for(condition, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


async def test_a_track_alone_sounds_only_that_track_and_quit_releases_every_note(
    tmp_path: Path,
) -> None:
    port = RecordingPort()
    app = make_studio(tmp_path, open_player=lambda name: Player(port))
    async with app.run_test() as pilot:
        await load_song(pilot)
        await pilot.press("right", "down", "t", "space")  # the bass alone, from the verse
        assert wait_for(lambda: sum(1 for m in port.sent if m[0] & 0xF0 == 0x90) >= 3)
        note_ons = {m[0] & 0x0F for m in port.sent if m[0] & 0xF0 == 0x90 and m[2] > 0}
        assert note_ons == {1}  # the bass's channel, nobody else
        await pilot.press("ctrl+q")
    assert port.closed.is_set()
    all_notes_off = [m for m in port.sent if m[0] & 0xF0 == 0xB0 and m[1] == 123]
    assert {m[0] & 0x0F for m in all_notes_off} >= {1}


async def test_with_a_port_open_the_finished_song_starts_playing(tmp_path: Path) -> None:
    players = Players()
    app = make_studio(tmp_path, players=players, settings="approval_gates = []\n")
    async with app.run_test() as pilot:
        await load_song(pilot)
        await pilot.press("space", "space")  # opens the port, then stops
        player = players.last
        await pilot.press("slash", *"night drive", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert player.calls[-2:] == [("load", ""), ("play", 0)]
        assert app.studio.query_one(TransportBar).state.playing


async def test_the_harmony_gate_plays_the_chords_and_stops_when_answered(tmp_path: Path) -> None:
    from muse_tui.tui.screens.approval import ApprovalModal

    players = Players()
    app = make_studio(tmp_path, players=players)
    async with app.run_test() as pilot:
        await pilot.press("slash", *"dark trap", "enter")
        while not isinstance(app.screen, ApprovalModal):
            await pilot.pause(0.01)
        await pilot.press("a")
        player = players.last
        chords = player.song.tracks[0]
        progression = app.screen.request.output.progression
        assert [n.pitch for n in chords.notes[:3]] == progression.chords[0].voicing
        assert player.calls[-1] == ("play", 0)
        assert app.studio.query_one(TransportBar).state.previewing
        await pilot.press("y")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert ("stop",) in player.calls[2:]
        assert not app.audition.previewing


class NotYetPlaying(FakePlayer):
    """A player in another process: its status reaches the studio a moment after the command."""

    @property
    def status(self) -> str:
        return "stopped"


def test_a_variant_starts_playback_once_even_before_the_player_says_it_plays() -> None:
    song = studio_song()
    opened: list[FakePlayer] = []
    audition = Audition(lambda port: opened.append(NotYetPlaying()) or opened[-1])
    audition.load(song)
    audition.audition_variant([song.tracks[1]], 4, start=True)
    plays = [c for c in opened[-1].calls if c[0] == "play"]
    assert plays == [("play", 4)]


def test_a_reopened_player_gets_every_listening_choice_back() -> None:
    song = studio_song()
    players = Players()
    audition = Audition(players)
    audition.load(song)
    drums, bass = song.tracks[0], song.tracks[1]
    audition.toggle_mute(drums)
    audition.toggle_solo(bass)
    audition.toggle_loop(song.arrangement.sections[1])
    audition.choose_port("loopMIDI Port")  # the old player lets go; the next play opens anew
    audition.play()
    calls = players.last.calls
    assert ("mute", drums.id, True) in calls and ("solo", bass.id, True) in calls
    section = song.arrangement.sections[1]
    assert ("loop", section.start_bar, section.end_bar) in calls
    assert calls[-1] == ("play", section.start_bar)


class StartingUp(FakePlayer):
    """A player process that is still starting: "play" is carried out only when `start()` says."""

    def __init__(self) -> None:
        super().__init__()
        self.started = False

    def start(self) -> None:
        self.started = True

    @property
    def pending(self) -> bool:
        return not self.started and any(c[0] == "play" for c in self.calls)

    @property
    def status(self) -> str:
        return self._status if self.started else "stopped"

    @property
    def playhead(self) -> Playhead:
        head = super().playhead
        return head if self.started else dataclasses.replace(head, playing=False)


def _studio_with_a_slow_player(tmp_path: Path) -> tuple[StudioApp, list[StartingUp]]:
    """A studio whose players start only when the test says (`StartingUp.start`)."""
    players: list[StartingUp] = []

    def start_player(port: str | None) -> StartingUp:
        players.append(StartingUp())
        return players[-1]

    return make_studio(tmp_path, players=start_player), players  # type: ignore[arg-type]


async def _shows_playing(pilot: Pilot[None], transport: TransportBar) -> bool:
    """Whether the transport says "playing" within 10 s (a loaded machine reads late)."""
    for _ in range(200):
        await pilot.pause(0.05)
        if transport.state.playing:
            return True
    return False


async def test_a_player_that_starts_while_its_stopped_reading_waits_keeps_being_read(
    tmp_path: Path,
) -> None:
    """A playhead read says "stopped" while the player starts; the player starts before that
    read is handled. The read was taken while the player was still settling, so reading goes on
    (judged at handling time, it looked settled and the transport never said "playing")."""
    app, players = _studio_with_a_slow_player(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await load_song(pilot)
        await pilot.press("space")
        await pilot.pause()
        listening = app.studio.listening
        listening.read_playhead()  # "stopped", still settling: posted, not yet handled
        players[-1].start()
        await pilot.pause()
        assert listening._poll is not None
        assert await _shows_playing(pilot, app.studio.query_one(TransportBar))


async def test_the_transport_shows_playing_once_a_slow_first_play_starts(tmp_path: Path) -> None:
    """The first play starts the player's process: it says "stopped" until it has started."""
    app, players = _studio_with_a_slow_player(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await load_song(pilot)
        await pilot.press("space")
        for _ in range(10):  # several playhead reads while the process starts
            await pilot.pause(0.05)
        transport = app.studio.query_one(TransportBar)
        assert not transport.state.playing
        players[-1].start()
        assert await _shows_playing(pilot, transport)
