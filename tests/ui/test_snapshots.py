"""What the producer sees, at 120×40 and 80×24; every screen at 100×30 and 140×40 too.

Deterministic by construction (fixed seed, clock, ids and timings, frozen
spinners, no blinking cursor, no watchers), with paths relative to a
per-test folder so no temporary path reaches the picture.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from muse_tui.tui.listening import Listening
from muse_tui.tui.screens.ambiguity import AmbiguityModal
from muse_tui.tui.screens.approval import ApprovalModal
from muse_tui.tui.widgets.arrangement import ArrangementView
from muse_tui.tui.widgets.notes_log import NotesLog
from muse_tui.tui.widgets.prompt import PromptInput
from muse_tui.tui.widgets.tracker import StageTracker
from tests.ui.harness import SESSION_IDS, Hold, Players, make_studio, write_session
from tests.ui.songs import studio_song

# The quick check (-m "not slow") renders every screen once; the small terminal runs in full.
SIZES = [
    pytest.param((120, 40), id="120x40"),
    pytest.param((80, 24), id="80x24", marks=pytest.mark.slow),
]
#: The sizes producers' terminals open at besides (issue 33): slow, like the small terminal.
EVERY_SIZE = [
    *SIZES,
    pytest.param((100, 30), id="100x30", marks=pytest.mark.slow),
    pytest.param((140, 40), id="140x40", marks=pytest.mark.slow),
]
NO_GATES = "approval_gates = []\n"
PROMPT = "Frank Ocean meets Burial, late-night 2-step"


@pytest.fixture(autouse=True)
def in_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)


def studio(**kwargs):
    return make_studio(Path("."), sessions_root=Path("sessions"), **kwargs)


async def compose(pilot, prompt: str = PROMPT) -> None:
    await pilot.pause()  # run_before starts before the first screen is up
    pilot.app.studio.query_one(PromptInput).focus()
    await pilot.press(*prompt, "enter")


async def until(pilot, condition) -> None:
    while not condition():
        await pilot.pause(0.01)


async def settled(pilot, ready) -> None:
    """Wait until the tracker shows `ready` and the log has scrolled to its last line."""
    studio = pilot.app.studio
    log, tracker = studio.query_one(NotesLog), studio.query_one(StageTracker)
    await until(pilot, lambda: ready(tracker.state) and log.scroll_y >= log.max_scroll_y)
    await pilot.pause()


async def open_finished(pilot, players: Players | None = None) -> None:
    """Open a finished session, then pick the Hook and the bass line."""
    folder = write_session(Path("sessions"), SESSION_IDS[0], studio_song(), prompt=PROMPT)
    await pilot.pause()
    pilot.app.studio.open_session(folder)
    await pilot.pause()
    view = pilot.app.studio.query_one(ArrangementView)
    view.focus()
    view.action_track(-view.track_index)  # from the first lane (the song opens on its chords)
    await pilot.press("right", "right", "down")


@pytest.mark.parametrize("size", EVERY_SIZE)
def test_empty_studio(snap_compare, size) -> None:
    assert snap_compare(studio(), terminal_size=size)


@pytest.mark.parametrize("size", EVERY_SIZE)
def test_run_in_progress(snap_compare, size) -> None:
    hold = Hold(stage=3)

    async def run_before(pilot) -> None:
        await compose(pilot)
        await until(pilot, hold.entered.is_set)
        await settled(pilot, lambda state: state.rows[3].progress == "placing sections")

    assert snap_compare(
        studio(hold=hold, settings=NO_GATES), terminal_size=size, run_before=run_before
    )


@pytest.mark.parametrize("size", EVERY_SIZE)
def test_harmony_gate(snap_compare, size) -> None:
    async def run_before(pilot) -> None:
        await compose(pilot)
        await until(pilot, lambda: isinstance(pilot.app.screen, ApprovalModal))
        await settled(pilot, lambda state: state.rows[2].status == "waiting")

    assert snap_compare(studio(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", EVERY_SIZE)
def test_parts_gate(snap_compare, size) -> None:
    async def run_before(pilot) -> None:
        await compose(pilot)
        await until(pilot, lambda: isinstance(pilot.app.screen, ApprovalModal))
        await settled(pilot, lambda state: state.rows[4].status == "waiting")

    app = studio(settings="approval_gates = [4]\n")
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", EVERY_SIZE)
def test_ambiguity_question(snap_compare, size) -> None:
    async def run_before(pilot) -> None:
        await compose(pilot, "something warm for late nights")
        await until(pilot, lambda: isinstance(pilot.app.screen, AmbiguityModal))
        await settled(pilot, lambda state: state.status == "paused")

    assert snap_compare(studio(settings=NO_GATES), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_finished_session(snap_compare, size) -> None:
    assert snap_compare(studio(), terminal_size=size, run_before=open_finished)


@pytest.mark.parametrize("size", [(100, 30), (140, 40)], ids=["100x30", "140x40"])
def test_finished_session_at_the_sizes_producers_use(snap_compare, size) -> None:
    """Issue 33: at 100x30 the section names were cut ("In Hoo Verse 1 Hoo")."""
    assert snap_compare(studio(), terminal_size=size, run_before=open_finished)


@pytest.mark.parametrize("size", EVERY_SIZE)
def test_playback_with_playhead(snap_compare, size) -> None:
    players = Players()

    async def run_before(pilot) -> None:
        await open_finished(pilot)
        await pilot.press("l", "space")
        players.last.position = (14, 2.0)
        pilot.app.studio.query_one(Listening).read_playhead()
        await pilot.pause()

    assert snap_compare(studio(players=players), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", EVERY_SIZE)
def test_sessions_browser(snap_compare, size) -> None:
    async def run_before(pilot) -> None:
        write_session(Path("sessions"), SESSION_IDS[0], studio_song(), prompt=PROMPT)
        song = studio_song().model_copy(update={"genre": "lo_fi", "tempo": 82})
        write_session(
            Path("sessions"), SESSION_IDS[1], song, prompt="dusty lo-fi, rain", finished=False
        )
        await pilot.pause()
        await pilot.press("ctrl+o")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(studio(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", EVERY_SIZE)
def test_settings_screen(snap_compare, size) -> None:
    app = studio(settings='midi_port = "IAC Driver Bus 1"\n[keymap]\n"roll.zoom_in" = "ctrl+up"\n',
                 settings_path=Path("config/settings.toml"))  # fmt: skip
    assert snap_compare(app, terminal_size=size, press=["f2"])


@pytest.mark.parametrize("size", EVERY_SIZE)
def test_help_screen(snap_compare, size) -> None:
    assert snap_compare(studio(), terminal_size=size, press=["f1"])


@pytest.mark.parametrize("size", EVERY_SIZE)
def test_error_notice_without_a_midi_port(snap_compare, size) -> None:
    async def run_before(pilot) -> None:
        await open_finished(pilot)
        await pilot.press("space")

    app = studio(players=Players(unavailable=True))
    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("theme", ["muse-dark", "muse-light", "muse-contrast"])
@pytest.mark.parametrize("size", SIZES)
def test_theme(snap_compare, size, theme) -> None:
    app = studio(settings=f'theme = "{theme}"\n')
    assert snap_compare(app, terminal_size=size, run_before=open_finished)
