"""Sessions, settings, help, palette, keymap and themes: what a producer does around composing."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from textual.message import Message
from textual.notifications import Notify
from textual.widgets import DataTable, Footer, Input
from textual.widgets._footer import FooterKey

from muse_tui.store.checkpoint import load_checkpoint
from muse_tui.tui.commands import StudioCommands
from muse_tui.tui.messages import SongLoaded
from muse_tui.tui.screens.confirm import ConfirmModal
from muse_tui.tui.screens.help import HelpScreen
from muse_tui.tui.screens.sessions import SessionsScreen
from muse_tui.tui.screens.settings import SettingsScreen, read_keymap
from muse_tui.tui.widgets.arrangement import ArrangementView
from muse_tui.tui.widgets.piano_roll import HEADER, PianoRoll
from muse_tui.tui.widgets.prompt import PromptInput
from muse_tui.tui.widgets.tracker import StageTracker
from tests.ui.harness import SESSION_IDS, Players, make_studio, until, write_session
from tests.ui.songs import studio_song
from tests.ui.test_compose import type_prompt

NO_GATES = "approval_gates = []\n"


def notices(messages: list[Message]) -> list[str]:
    return list(dict.fromkeys(m.notification.message for m in messages if isinstance(m, Notify)))


async def compose_two_sessions(app, pilot) -> None:
    """One finished session, then one cancelled at its gate (so left incomplete)."""
    await type_prompt(pilot, "finished one")
    await app.workers.wait_for_complete()
    app.settings = replace(app.settings, approval_gates=[2])
    await type_prompt(pilot, "new song: stopped one")  # a session is open: say it is new
    while app.screen.__class__.__name__ != "ApprovalModal":
        await pilot.pause(0.01)
    await pilot.press("escape", "y")  # cancel the run, and yes, really
    await app.workers.wait_for_complete()
    await pilot.pause()


async def open_sessions(app, pilot) -> SessionsScreen:
    await pilot.press("ctrl+o")
    screen = app.screen
    assert isinstance(screen, SessionsScreen)
    await app.workers.wait_for_complete()
    await pilot.pause()
    return screen


async def test_the_browser_lists_newest_first_and_opens_a_session(tmp_path: Path) -> None:
    app = make_studio(tmp_path, settings=NO_GATES)
    async with app.run_test(size=(120, 40)) as pilot:
        await compose_two_sessions(app, pilot)
        app.studio.post_message(SongLoaded(studio_song(), None, None))  # something else on show
        await pilot.pause()
        screen = await open_sessions(app, pilot)
        ids = [s.session_id for s in screen.sessions]
        assert set(ids) == set(SESSION_IDS[:2])
        assert screen.query_one(DataTable).row_count == 2
        finished = ids.index(SESSION_IDS[0])
        for _ in range(finished):
            await pilot.press("down")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.studio
        assert app.studio.session_dir == tmp_path / "sessions" / SESSION_IDS[0]
        view = app.studio.query_one(ArrangementView)
        assert [s.name for s in view.sections] == ["Intro", "Verse", "Chorus", "Outro"]
        tracker = app.studio.query_one(StageTracker)
        assert tracker.state.status == "completed"


@pytest.mark.slow  # composes and stops a real run first
async def test_an_incomplete_session_is_deleted_only_after_yes(tmp_path: Path) -> None:
    app = make_studio(tmp_path, settings=NO_GATES)
    messages: list[Message] = []
    async with app.run_test(size=(120, 40), message_hook=messages.append) as pilot:
        await compose_two_sessions(app, pilot)
        screen = await open_sessions(app, pilot)
        stopped = [s.session_id for s in screen.sessions].index(SESSION_IDS[1])
        finished = 1 - stopped
        screen.query_one(DataTable).move_cursor(row=finished)
        await pilot.press("d")
        assert not isinstance(app.screen, ConfirmModal)
        assert any("did not finish" in n for n in notices(messages))
        screen.query_one(DataTable).move_cursor(row=stopped)
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("n")
        assert (tmp_path / "sessions" / SESSION_IDS[1]).is_dir()
        await pilot.press("d", "y")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not (tmp_path / "sessions" / SESSION_IDS[1]).exists()
        assert (tmp_path / "sessions" / SESSION_IDS[0]).is_dir()
        assert [s.session_id for s in screen.sessions] == [SESSION_IDS[0]]


@pytest.mark.slow  # composes, stops and resumes a real run
async def test_resume_continues_a_stopped_run_to_the_end(tmp_path: Path) -> None:
    app = make_studio(tmp_path, settings=NO_GATES)
    async with app.run_test(size=(120, 40)) as pilot:
        await compose_two_sessions(app, pilot)
        app.settings = replace(app.settings, approval_gates=[])
        screen = await open_sessions(app, pilot)
        stopped = [s.session_id for s in screen.sessions].index(SESSION_IDS[1])
        screen.query_one(DataTable).move_cursor(row=stopped)
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.studio.query_one(StageTracker).state.status == "completed"
    assert (tmp_path / "sessions" / SESSION_IDS[1] / "manifest.json").is_file()


async def test_settings_are_edited_saved_and_used(tmp_path: Path) -> None:
    app = make_studio(tmp_path)
    messages: list[Message] = []
    async with app.run_test(size=(120, 40), message_hook=messages.append) as pilot:
        await pilot.press("f2")
        assert isinstance(app.screen, SettingsScreen)
        bars = app.screen.query_one("#default_bars", Input)
        bars.value = "abc"
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SettingsScreen)  # not saved: the sentence says why
        assert any("default bars" in n for n in notices(messages))
        bars.value = "32"
        app.screen.query_one("#keymap").load_text('"audition.play" = "p"\n')
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is app.studio
    saved = tomllib.loads((tmp_path / "config" / "settings.toml").read_text())
    assert saved["default_bars"] == 32
    assert saved["keymap"] == {"audition.play": "p"}


async def test_a_bad_settings_file_gives_notices_and_defaults(tmp_path: Path) -> None:
    app = make_studio(tmp_path, settings='theme = 5\ncolour = "red"\nkeymap = {"nope.x" = "f9"}\n')
    messages: list[Message] = []
    async with app.run_test(message_hook=messages.append) as pilot:
        await pilot.pause()
        assert app.is_running
        assert app.theme == "muse-dark"
    said = " ".join(notices(messages))
    assert "unknown setting 'colour'" in said
    assert "theme" in said


async def test_a_keymap_from_the_config_file_remaps_keys(tmp_path: Path) -> None:
    players = Players()
    app = make_studio(tmp_path, players=players, settings='[keymap]\n"audition.play" = "p"\n')
    async with app.run_test() as pilot:
        app.studio.post_message(SongLoaded(studio_song(), None, None))
        await pilot.pause()
        app.studio.query_one(ArrangementView).focus()
        await pilot.press("space")
        assert players.opened == []
        await pilot.press("p")
        assert players.last.calls[-1] == ("play", 0)


async def test_help_lists_every_binding_with_its_id(tmp_path: Path) -> None:
    app = make_studio(tmp_path, settings='[keymap]\n"roll.zoom_in" = "ctrl+up"\n')
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        ids = {b.id for _, bindings in app.screen.areas for b in bindings}
        assert {"prompt.submit", "gate.approve", "audition.play", "roll.zoom_in"} <= ids
        await pilot.press("escape")
        assert app.screen is app.studio


async def test_the_palette_offers_what_makes_sense_now(tmp_path: Path) -> None:
    app = make_studio(tmp_path)
    async with app.run_test() as pilot:
        provider = StudioCommands(app.studio)
        names = [name for name, _, _ in provider._gather()]
        assert not any(n.startswith("Compose") or n.startswith("Play") for n in names)
        assert "Theme: muse-dark (current)" in names and "Theme: muse-light" in names
        assert "MIDI port: IAC Driver Bus 1" in names
        assert "Approval gate: stage 2 Harmony (on)" in names
        app.studio.query_one(PromptInput).load_text("dusty boom bap")
        app.studio.post_message(SongLoaded(studio_song(), None, None))
        await pilot.pause()
        names = [name for name, _, _ in provider._gather()]
        assert "Compose: dusty boom bap" in names
        assert "Play Bass alone" in names and "Loop Hook" in names
        commands = {name: run for name, run, _ in provider._gather()}
        commands["Theme: muse-light"]()
        commands["Approval gate: stage 4 Parts (off)"]()
        await pilot.pause()
        assert app.theme == "muse-light"
    saved = tomllib.loads((tmp_path / "config" / "settings.toml").read_text())
    assert saved["theme"] == "muse-light"
    assert saved["approval_gates"] == [2, 4]


async def test_a_theme_file_hot_reloads_and_a_broken_one_keeps_the_last_good(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "themes"
    folder.mkdir()
    theme = folder / "mine.toml"
    theme.write_text('name = "mine"\nprimary = "#112233"\n')
    app = make_studio(tmp_path, settings='theme = "mine"\n', themes_dirs=(folder,))
    messages: list[Message] = []
    async with app.run_test(message_hook=messages.append) as pilot:
        assert app.theme == "mine"
        theme.write_text('name = "mine"\nprimary = "#445566"\n')
        app.reload_theme(theme)
        await pilot.pause()
        assert app.current_theme.primary == "#445566"
        theme.write_text('name = "mine"\nprimary = "not a colour"\n')
        app.reload_theme(theme)
        await pilot.pause()
        assert app.current_theme.primary == "#445566"
    assert any("not a colour" in n and "last good" in n for n in notices(messages))


def test_keymap_lines_read_with_or_without_quotes() -> None:
    assert read_keymap('"audition.play" = "p"\nroll.zoom_in = "ctrl+up"\n') == {
        "audition.play": "p",
        "roll.zoom_in": "ctrl+up",
    }


async def test_a_theme_chosen_with_textuals_own_command_is_remembered(tmp_path: Path) -> None:
    """Before, the palette's "Change theme" (Textual's) set the theme for this sitting only."""
    app = make_studio(tmp_path)
    async with app.run_test() as pilot:
        app.theme = "muse-light"  # what Textual's theme picker does, and nothing more
        await pilot.pause()
    again = make_studio(tmp_path)
    async with again.run_test() as pilot:
        assert again.theme == "muse-light"


async def test_a_stopped_session_says_r_resumes_it_and_r_does(tmp_path: Path) -> None:
    """Before, opening a cancelled session showed "No song yet", and nothing said r resumes."""
    folder = write_session(
        tmp_path / "sessions", SESSION_IDS[0], studio_song(), prompt="x", finished=False
    )
    app = make_studio(tmp_path, settings=NO_GATES)
    async with app.run_test(size=(120, 40)) as pilot:
        app.studio.open_session(folder)
        await pilot.pause()
        view = app.studio.query_one(ArrangementView)
        pending = load_checkpoint(folder)
        assert pending.status == "cancelled"
        said = " ".join(" ".join(s.text.split()) for s in app.studio.log_pane.lines)
        assert "This run was cancelled after stage 3/8: press r to resume it." in said
        view.focus()
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert load_checkpoint(folder).status == "completed"
        assert app.studio.song is not None and app.studio.song.tracks


async def test_a_song_opens_on_a_part_that_plays_in_its_first_section(tmp_path: Path) -> None:
    """Before, the roll opened on the first track, the drums, silent in the intro."""
    app = make_studio(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        app.studio.post_message(SongLoaded(studio_song(), None, None))
        await pilot.pause()
        roll = app.studio.query_one(PianoRoll)
        assert roll.track is not None and roll.track.role == "chords"  # drums, bass start at 5


async def test_the_studio_reopens_the_session_it_showed_last(tmp_path: Path) -> None:
    """Before, every launch started empty."""
    folder = write_session(tmp_path / "sessions", SESSION_IDS[0], studio_song(), prompt="x")
    app = make_studio(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.studio.session is None  # nothing shown before: nothing to reopen
        app.studio.open_session(folder)
        await until(pilot, lambda: app.studio.session is not None)
    again = make_studio(tmp_path)
    async with again.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: again.studio.session is not None)
        assert again.studio.session_dir == folder.resolve()
        assert again.focused is again.studio.prompt  # ready to say what to change


async def test_the_footers_last_cell_is_the_palette_keys_when_the_keys_overflow(
    tmp_path: Path,
) -> None:
    """Before, Textual's compact footer docked the palette key one cell short of the edge, and
    the last letter of a key scrolled under it showed there: "^p Palettes"."""
    app = make_studio(tmp_path)
    async with app.run_test(size=(64, 24)) as pilot:
        app.studio.post_message(SongLoaded(studio_song(), None, None))  # many keys: they overflow
        await pilot.pause()
        app.studio.query_one(ArrangementView).focus()
        await pilot.pause()
        widget, _ = app.screen.get_widget_at(63, 23)
        assert "-command-palette" in widget.classes


@pytest.mark.parametrize("width", [64, 80, 100, 120])
async def test_every_footer_key_shown_is_shown_whole(tmp_path: Path, width: int) -> None:
    """Issue 33: at 100x30 the key before the palette's was cut to "^oS"; a key that does not
    fit is left out, whole."""
    app = make_studio(tmp_path)
    async with app.run_test(size=(width, 30)) as pilot:
        app.studio.post_message(SongLoaded(studio_song(), None, None))  # many keys: they overflow
        await pilot.pause()
        app.studio.query_one(ArrangementView).focus()
        await pilot.pause()
        await pilot.pause()
        footer = app.studio.query_one(Footer)
        palette = footer.query_one(".-command-palette")
        room = footer.region.right - palette.outer_size.width
        shown = [k for k in footer.query(FooterKey) if k.display and k is not palette]
        assert shown, "some keys are shown"
        for key in shown:
            assert key.region.width == key.virtual_region.width, f"{key.key} is cut"
            assert key.region.right <= room, f"{key.key} runs under the palette key"


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
async def test_at_small_sizes_the_roll_shows_rows_holding_the_selected_parts_notes(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """Issue 33: at 80x24 the roll had 5 rows, none holding a note of the part selected."""
    folder = write_session(tmp_path / "sessions", SESSION_IDS[0], studio_song(), prompt="x")
    app = make_studio(tmp_path)
    async with app.run_test(size=size) as pilot:
        app.studio.open_session(folder)
        await until(pilot, lambda: app.studio.session is not None)
        await pilot.pause()
        roll = app.studio.query_one(PianoRoll)
        await until(pilot, lambda: roll.model is not None and roll.size.height > 0)
        await pilot.pause()
        model = roll.model
        assert model is not None and roll.track is not None
        rows = roll.size.height - HEADER
        assert rows >= 5
        first = int(roll.scroll_offset.y)
        shown = range(first, min(first + rows, len(model.rows)))
        first_beat = roll.scroll_offset.x / roll.cells_per_beat
        last_beat = first_beat + roll.grid_width / roll.cells_per_beat
        sounding = [i for i in shown if any(model.notes_in(i, first_beat, last_beat))]
        assert sounding, (
            f"{roll.track.name}: rows {list(shown)}, beats {first_beat:g}-{last_beat:g} "
            "hold none of its notes"
        )
