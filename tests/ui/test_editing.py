"""Changing the open song from the studio: the prompt routes, undo/redo keys, the history pane,
the A/B comparison where the piano roll was, and failures said in one sentence.

These run the real pipeline (product stages) so every change is a real regeneration
written to a real session folder; only the MIDI player is a fake that records calls.
"""

from __future__ import annotations

import errno
import hashlib
from pathlib import Path
from typing import Any

import pytest
from textual.message import Message
from textual.notifications import Notify

from muse_tui.engine.registry import product_stages
from muse_tui.store.atomic import WriteFailed
from muse_tui.store.checkpoint import load_checkpoint
from muse_tui.tui.widgets.arrangement import ArrangementView
from muse_tui.tui.widgets.compare import CompareView, ProposalView
from muse_tui.tui.widgets.history import HistoryPane
from muse_tui.tui.widgets.piano_roll import PianoRoll
from tests.ui.harness import SESSION_IDS, Players, make_studio
from tests.ui.test_compose import type_prompt

# Each test composes a 32-bar song with the real stages (~5-10 s of CPU): full suite only.
pytestmark = pytest.mark.slow

SETTINGS = "approval_gates = []\ndefault_bars = 32\n"
PROMPT = "neo soul, late night, 85 bpm, in Eb minor"


def notices(messages: list[Message]) -> list[str]:
    return [m.notification.message for m in messages if isinstance(m, Notify)]


def errors(messages: list[Message]) -> list[str]:
    return [
        m.notification.message
        for m in messages
        if isinstance(m, Notify) and m.notification.severity == "error"
    ]


def logged(app: Any) -> str:
    """The notes pane as one line of text (its lines are wrapped to the pane)."""
    return " ".join(" ".join(strip.text.split()) for strip in app.studio.log_pane.lines)


def digests(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha1(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*.mid"))
    }


async def settle(pilot: Any) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def say(pilot: Any, text: str) -> None:
    """Type a line in the prompt and wait until what it started has finished."""
    await type_prompt(pilot, text)
    await settle(pilot)


async def change(pilot: Any, text: str) -> None:
    """Ask for a change that regenerates a part (it is proposed), then accept it from the keys."""
    await say(pilot, text)
    await pilot.press("escape", "enter")  # out of the prompt to the proposal; enter accepts
    await settle(pilot)


async def composed(pilot: Any) -> Path:
    """Compose PROMPT in the studio and leave the focus outside the prompt."""
    await say(pilot, PROMPT)
    await pilot.press("escape")
    folder = pilot.app.sessions_root() / SESSION_IDS[0]
    assert (folder / "manifest.json").is_file()
    return folder


def studio(tmp_path: Path, players: Players | None = None) -> Any:
    return make_studio(tmp_path, registry=product_stages, settings=SETTINGS, players=players)


async def test_a_length_in_the_prompt_beats_the_default_bars(tmp_path: Path) -> None:
    app = studio(tmp_path)  # default_bars = 32
    async with app.run_test(size=(140, 44)) as pilot:
        await say(pilot, "lofi hip hop, rainy, 16 bars")
        assert app.studio.song.arrangement.total_bars == 16


async def test_a_change_in_the_prompt_regenerates_only_what_it_reaches(tmp_path: Path) -> None:
    players = Players()
    app = studio(tmp_path, players)
    messages: list[Message] = []
    async with app.run_test(size=(140, 44), message_hook=messages.append) as pilot:
        folder = await composed(pilot)
        history = app.studio.query_one(HistoryPane)
        assert history.display and history.entries == []
        before, song = digests(folder), app.studio.song
        await pilot.press("space")  # playing while the change lands
        assert players.last.status == "playing"

        await change(pilot, "Bass too busy, simplify")

        after = digests(folder)
        moved = {name for name in after if after[name] != before[name]}
        assert moved == {"midi/bass.mid", "midi/full-arrangement.mid"}
        entry = app.studio.pipeline.song_state.history[-1]
        assert entry.user_text == "Bass too busy, simplify" and not entry.undone
        assert [e.id for e in history.entries] == [entry.id]
        assert load_checkpoint(folder).song_state.history[-1].id == entry.id  # saved, not shown
        assert "Regenerated bass; kept drums" in logged(app)
        # The player took the changed song and carried on playing.
        assert players.last.song == app.studio.song and players.last.status == "playing"
        assert app.studio.song.track("bass") != song.track("bass")
        assert app.studio.song.track("drums") == song.track("drums")
        assert errors(messages) == []


async def test_undo_and_redo_keys_put_the_files_back(tmp_path: Path) -> None:
    app = studio(tmp_path)
    async with app.run_test(size=(140, 44)) as pilot:
        folder = await composed(pilot)
        original = digests(folder)
        song = app.studio.song
        await change(pilot, "Bass too busy, simplify")
        changed = digests(folder)
        assert changed != original

        await pilot.press("escape", "ctrl+z")
        await settle(pilot)
        assert digests(folder) == original
        assert app.studio.song.tracks == song.tracks
        assert app.studio.pipeline.song_state.history[-1].undone
        assert app.studio.query_one(HistoryPane).entries[0].undone

        await pilot.press("ctrl+y")
        await settle(pilot)
        assert digests(folder) == changed
        assert not app.studio.pipeline.song_state.history[-1].undone

        app.studio.query_one(HistoryPane).focus()
        await pilot.press("u")  # the pane's own key
        await settle(pilot)
        assert digests(folder) == original


async def test_an_expensive_change_is_proposed_and_discard_keeps_the_song(tmp_path: Path) -> None:
    app = studio(tmp_path)
    async with app.run_test(size=(140, 44)) as pilot:
        folder = await composed(pilot)
        original, drums = digests(folder), app.studio.song.track("drums")
        await say(pilot, "change the key to D minor")
        summary = str(app.studio.query_one(ProposalView).query(".variant-description")[1].render())
        assert summary.startswith("Moved the song to D minor.") and "kept drums" in summary
        await pilot.press("escape", "d")
        await settle(pilot)
        assert digests(folder) == original
        assert app.studio.song.key == "Eb" and app.studio.pipeline.song_state.history == []
        assert "Discarded the proposal “change the key to D minor”" in logged(app)

        await change(pilot, "change the key to D minor")
        assert app.studio.song.key == "D"
        assert app.studio.song.track("drums") == drums  # its file moves only by the key signature
        assert digests(folder)["midi/bass.mid"] != original["midi/bass.mid"]
        assert app.studio.query_one("TransportBar").state.key == "D minor"  # type: ignore[attr-defined]


async def test_praise_changes_nothing_and_a_new_song_prompt_composes(tmp_path: Path) -> None:
    app = studio(tmp_path)
    async with app.run_test(size=(140, 44)) as pilot:
        await composed(pilot)
        await say(pilot, "The bass sounds great")
        assert app.studio.pipeline.song_state.history == []
        assert "Glad it works. Nothing changed." in logged(app)

        await say(pilot, "dark trap, 140, key of Am")
        assert app.studio.session_dir.name == SESSION_IDS[1]
        assert app.studio.song.genre == "trap"


async def test_compare_hear_pick_and_new_batch(tmp_path: Path) -> None:
    players = Players()
    app = studio(tmp_path, players)
    async with app.run_test(size=(140, 44)) as pilot:
        folder = await composed(pilot)
        view = app.studio.query_one(ArrangementView)
        view.focus()
        roles = [t.role for t in view.tracks]  # from the lane the song opened on
        await pilot.press(*["down"] * ((roles.index("bass") - view.track_index) % len(roles)))
        bass = view.track
        assert bass is not None and bass.role == "bass"
        await pilot.press("a")
        await settle(pilot)
        compare = app.studio.query_one(CompareView)
        assert compare.has_focus and not app.studio.query_one(PianoRoll).display
        alt_set = compare.alt_set
        assert alt_set.element.type == "track" and len(alt_set.variants) == 3

        await pilot.press("2")  # the second variant replaces the bass from the next bar
        player = players.last
        switched = [c for c in player.calls if c[0] == "set_alternative"]
        assert switched and switched[-1][1] == bass.id and switched[-1][2] > 0
        assert player.status == "playing"  # it started so there is something to hear
        await pilot.press("0")
        assert player.calls[-1] == ("set_alternative", bass.id, None)

        await pilot.press("n")  # a new batch, dials raised
        await settle(pilot)
        assert app.studio.query_one(CompareView).alt_set.batch == 1

        await pilot.press("right", "enter")  # use the highlighted variant
        await settle(pilot)
        assert not app.studio.query(CompareView) and app.studio.query_one(PianoRoll).display
        entry = app.studio.pipeline.song_state.history[-1]
        assert entry.agent == "alternatives" and entry.user_text.endswith("for the bass")
        saved = load_checkpoint(folder)
        assert saved.song_state.track("bass") == app.studio.song.track("bass")
        assert len(saved.alternatives) == 2  # both batches cached for resume


async def test_escape_closes_the_comparison_and_the_song_plays_its_own(tmp_path: Path) -> None:
    players = Players()
    app = studio(tmp_path, players)
    async with app.run_test(size=(140, 44)) as pilot:
        await composed(pilot)
        await pilot.press("a")  # the first track: drums
        await settle(pilot)
        # Another take: a variant that is not what the song plays (that one has no tracks
        # to switch to). The options are listed in the view's order, keys 1, 2, 3.
        takes = app.studio.comparing.comparison.tracks
        other = next(n for n, tracks in enumerate(takes) if tracks)
        await pilot.press(str(other + 1))
        await pilot.press("escape")
        await pilot.pause()
        assert not app.studio.query(CompareView)
        assert players.last.calls[-1][0] == "set_alternative" and players.last.calls[-1][2] is None
        assert app.studio.pipeline.song_state.history == []


async def test_a_failed_write_is_one_sentence_and_the_song_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = studio(tmp_path)
    messages: list[Message] = []
    async with app.run_test(size=(140, 44), message_hook=messages.append) as pilot:
        folder = await composed(pilot)
        song = app.studio.song

        def full_disk(*args: object, **kwargs: object) -> list[str]:
            raise WriteFailed(
                errno.ENOSPC, "No space left on device: could not write midi/bass.mid"
            )

        monkeypatch.setattr("muse_tui.engine.commit.write_changed_files", full_disk)
        await say(pilot, "Bass too busy, simplify")
        assert errors(messages) == [
            "No space left on device: could not write midi/bass.mid; the song on "
            "screen is as it was. Free some space, then try again."
        ]
        assert app.studio.song == song and app.studio.pipeline.song_state.history == []
        assert load_checkpoint(folder).song_state.history == []


async def test_without_a_session_the_edit_keys_stay_quiet(tmp_path: Path) -> None:
    app = studio(tmp_path)
    messages: list[Message] = []
    async with app.run_test(size=(140, 44), message_hook=messages.append) as pilot:
        await pilot.press("escape", "ctrl+z", "a")
        await pilot.pause()
        assert not any(pane.display for pane in app.studio.query(HistoryPane))
        assert not app.studio.query(CompareView)
        assert notices(messages) == []  # the keys are off, not refused with a message


async def test_an_unclear_line_says_how_to_start_a_new_song(tmp_path: Path) -> None:
    app = studio(tmp_path)
    async with app.run_test(size=(140, 44)) as pilot:
        await composed(pilot)
        await say(pilot, "stopped one")
        assert app.studio.session_dir.name == SESSION_IDS[0]  # still the same song
        assert "For a new song instead, start with “new song:”." in logged(app)


async def test_the_palette_offers_undo_and_every_element_to_compare(tmp_path: Path) -> None:
    app = studio(tmp_path)
    async with app.run_test(size=(140, 44)) as pilot:
        await composed(pilot)
        await change(pilot, "Bass too busy, simplify")
        await pilot.press("escape", "ctrl+p")
        await pilot.press(*"alternatives for the progression", "enter")
        await settle(pilot)
        assert app.studio.query_one(CompareView).alt_set.element.type == "progression"
        await pilot.press("escape", "ctrl+p", *"undo: bass", "enter")
        await settle(pilot)
        assert app.studio.pipeline.song_state.history[-1].undone


# ── pictures ────────────────────────────────────────────────────────────────
def snap_studio(tmp_path: Path) -> Any:
    return make_studio(
        Path("."), registry=product_stages, settings=SETTINGS, sessions_root=Path("sessions")
    )


async def quiet(pilot: Any) -> None:
    """No toasts in a snapshot: each lives 4 s, so whether one shows would depend on the load."""
    pilot.app.clear_notifications()
    await pilot.pause()


async def compose_and_change(pilot: Any) -> None:
    await pilot.pause()
    await composed(pilot)
    await change(pilot, "Bass too busy, simplify")
    await pilot.press("escape")  # out of the prompt, where an accepted change leaves the focus
    await quiet(pilot)


def test_the_studio_after_a_change(
    snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert snap_compare(
        snap_studio(tmp_path), run_before=compose_and_change, terminal_size=(140, 44)
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "size", [(80, 24), (100, 30), (140, 40)], ids=["80x24", "100x30", "140x40"]
)
def test_the_studio_after_a_change_at_the_sizes_producers_use(
    snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """At 80×24 the notes show the change's result whole; the history its newest change."""
    monkeypatch.chdir(tmp_path)
    assert snap_compare(snap_studio(tmp_path), run_before=compose_and_change, terminal_size=size)


def test_the_studio_comparing_bass_lines(
    snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    async def compare_the_bass(pilot: Any) -> None:
        await compose_and_change(pilot)
        view = pilot.app.studio.query_one(ArrangementView)
        view.action_track(-view.track_index)  # the first lane (drums); the bass is next
        await pilot.press("down", "a")  # the bass lane, then its alternatives
        await settle(pilot)
        await pilot.press("2")
        await quiet(pilot)

    assert snap_compare(snap_studio(tmp_path), run_before=compare_the_bass, terminal_size=(140, 44))


async def test_at_80x24_the_notes_keep_four_lines_beside_the_history(tmp_path: Path) -> None:
    """Before, at 80×24 with three changes in the History pane, the notes had 3 lines (2 with
    a longer entry): an edit's result or an answer could not be read. The history shows its
    newest change until it has the focus, then opens to its last changes."""
    app = studio(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await composed(pilot)
        await change(pilot, "Bass too busy, simplify")
        await say(pilot, "make the bass louder")
        await say(pilot, "make the drums quieter")
        history, log = app.studio.query_one(HistoryPane), app.studio.log_pane
        assert len(history.entries) == 3
        # The last exchange, from "» make the drums quieter" to its result, is on screen whole.
        lines = [strip.text for strip in log.lines]
        asked = max(i for i, line in enumerate(lines) if line.lstrip().startswith("»"))
        exchange = lines[asked:]
        assert len(exchange) >= 4 and log.content_region.height >= len(exchange), (
            log.content_region,
            exchange,
        )
        history.focus()
        await pilot.pause()
        assert history.content_region.height >= 4  # browsing the changes: it has the rows
        await pilot.press("tab")
        await pilot.pause()
        assert log.content_region.height >= 4
