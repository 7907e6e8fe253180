"""The piano roll shows the form and the hook coming back: section bands, motif letters, tints."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App, ComposeResult

from muse_tui.contracts import Arrangement, Section, SongState
from muse_tui.tui.widgets.arrangement import ArrangementView, fitted
from muse_tui.tui.widgets.labels import role_label
from muse_tui.tui.widgets.mini_roll import MiniRoll
from muse_tui.tui.widgets.piano_roll import MOTIF_RUN, PianoRoll
from muse_tui.tui.widgets.roll_model import RollForm
from tests.ui.harness import SESSION_IDS, make_studio, write_session
from tests.ui.songs import SECTIONS, studio_song


def lead_form() -> RollForm:
    song = studio_song()
    lead = next(t for t in song.tracks if t.role == "lead")
    return RollForm(SECTIONS, lead.notes, drums=False, beats_per_bar=4.0, total_beats=96)


def test_sections_are_bands_found_by_beat_in_turn() -> None:
    form = lead_form()

    assert [(b.name, b.start, b.end, b.index) for b in form.bands] == [
        ("Intro", 0, 16, 0),
        ("Verse", 16, 48, 1),
        ("Hook", 48, 80, 2),
        ("Outro", 80, 96, 3),
    ]
    assert form.band_at(47.9).name == "Verse" and form.band_at(48).name == "Hook"
    assert form.band_at(96) is None


def test_the_hooks_first_and_last_units_share_a_letter() -> None:
    # The test lead rotates a six-note figure by one note a bar: the unit of bars 13-14
    # comes back in bars 19-20, the two between are heard once.
    form = lead_form()

    assert [(m.start, m.end, m.letter) for m in form.motifs] == [(48, 56, "A"), (72, 80, "A")]
    assert form.motif_at(50) is form.motifs[0] and form.motif_at(60) is None
    assert form.family_index(form.motifs[1]) == 0


def test_drums_have_bands_and_no_motifs() -> None:
    song = studio_song()
    drums = next(t for t in song.tracks if t.role == "drums")
    form = RollForm(SECTIONS, drums.notes, drums=True, beats_per_bar=4.0, total_beats=96)

    assert len(form.bands) == 4 and form.motifs == []


@pytest.fixture(autouse=True)
def in_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)


async def open_lead_hook(pilot) -> None:
    folder = write_session(Path("sessions"), SESSION_IDS[0], studio_song(), prompt="x")
    await pilot.pause()
    pilot.app.studio.open_session(folder)
    await pilot.pause()
    pilot.app.studio.query_one(ArrangementView).focus()
    # The song opens on its chords, the first part heard in the intro; the lead is next.
    await pilot.press("right", "right", "down")
    await pilot.pause()


async def test_the_studio_roll_names_the_section_and_letters_the_hook() -> None:
    app = make_studio(Path("."), sessions_root=Path("sessions"))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_lead_hook(pilot)
        roll = app.studio.query_one(PianoRoll)
        ruler, lane = (roll.render_line(y).text for y in (0, 1))

    assert roll.track is not None and roll.track.role == "lead"
    assert "Hook 13" in ruler
    assert lane.startswith("motifs A") and lane.count("A" + MOTIF_RUN) == 2
    # Before, "motifs" was wider than the label column and pushed the lane onto the border.
    assert len(lane) == len(ruler)


def test_the_studio_roll_with_the_hook_lettered(snap_compare) -> None:
    app = make_studio(Path("."), sessions_root=Path("sessions"))
    assert snap_compare(app, terminal_size=(120, 40), run_before=open_lead_hook)


@pytest.mark.parametrize(
    ("name", "width", "shown"),
    [
        ("Verse 1", 9, "Verse 1"),
        ("Hook 1", 3, "H1"),  # was "Hoo", the same as the next hook's
        ("Pre-Chorus 2", 5, "PC2"),
        ("Intro", 2, "In"),
        ("Outro", 4, "Outr"),
    ],
)
def test_a_section_name_too_long_for_its_block_keeps_its_number(
    name: str, width: int, shown: str
) -> None:
    assert fitted(name, width) == shown


async def test_the_arrangement_ruler_numbers_every_step_when_a_column_holds_two_bars() -> None:
    """Before, 64 bars in 35 columns read "1 17 33 41 57": a number due at a bar no column
    started on (9, 25, 49) was left out."""

    class _View(App[None]):
        def compose(self) -> ComposeResult:
            yield ArrangementView()

    song = SongState(
        arrangement=Arrangement(
            template="x",
            sections=[Section(name="A", kind="verse", start_bar=0, bars=64, energy=0.5)],
        )
    )
    app = _View()
    async with app.run_test(size=(35 + 11, 10)) as pilot:
        view = app.query_one(ArrangementView)
        view.set_song(song)
        await pilot.pause()
        numbers = view.render_line(0).text.split()[1:]
    assert numbers == ["1", "9", "17", "25", "33", "41", "49", "57"]


class RollAlone(App[None]):
    def compose(self) -> ComposeResult:
        yield PianoRoll(id="roll")


async def test_a_track_set_before_the_first_layout_is_centred_once_the_roll_has_its_size() -> None:
    # On a busy machine the studio can hand the roll its track before the first layout,
    # when the roll's height is still 0; the busiest row must still end up centred.
    song = studio_song()
    lead = next(t for t in song.tracks if t.role == "lead")
    app = RollAlone()
    async with app.run_test(size=(100, 20)) as pilot:
        roll = app.query_one(PianoRoll)
        settled = PianoRoll()
        await app.mount(settled)
        settled.set_track(lead, beats_per_bar=4.0, total_beats=96)  # height still 0 here
        await pilot.pause()
        assert settled.size.height > 0
        roll.set_track(lead, beats_per_bar=4.0, total_beats=96)  # laid out: the reference
        await pilot.pause()
        assert settled.size.height == roll.size.height
        assert settled.scroll_offset.y == roll.scroll_offset.y > 0


async def test_the_playhead_on_a_bar_number_leaves_the_number_whole() -> None:
    """Before, the playhead's ▼ was drawn over the ruler's cell: passing bar 15 it read "1▼"
    (and "▼5"), the number split under the playhead. On a number it marks the cell's colour."""
    lead = next(t for t in studio_song().tracks if t.role == "lead")
    app = RollAlone()
    async with app.run_test(size=(100, 20)) as pilot:
        roll = app.query_one(PianoRoll)
        roll.set_track(lead, beats_per_bar=4.0, total_beats=96)
        await pilot.pause()
        cpb = roll.cells_per_beat
        roll.scroll_to(x=14 * 4 * cpb - 4, animate=False, immediate=True)
        await pilot.pause()
        for cell in (0, 1):  # under the "1", then under the "5" of bar 15
            roll.set_playhead(14 * 4 + cell / cpb)
            ruler = roll.render_line(0)
            assert "15" in ruler.text.split(), ruler.text
            col = roll._label_width + int((14 * 4 + cell / cpb) * cpb) - int(roll.scroll_offset.x)
            marked = ruler.crop(col, col + 1)
            playhead = roll.get_component_rich_style("piano-roll--playhead")
            assert marked.text == "15"[cell]
            assert next(iter(marked)).style.bgcolor == playhead.bgcolor
        roll.set_playhead(14 * 4 + 2.5)  # between the numbers: the ▼ itself
        assert "▼" in roll.render_line(0).text


@pytest.mark.parametrize(
    ("role", "width", "shown"),
    [("percussion", 9, "perc"), ("percussion", 10, "percussion"), ("sub_bass", 8, "sub_bass"),
     ("sub_bass", 7, "sub"), ("drums", 3, "dru")],
)  # fmt: skip
def test_a_role_too_long_for_its_column_is_shortened_not_cut(
    role: str, width: int, shown: str
) -> None:
    assert role_label(role, width) == shown


async def test_the_arrangement_and_the_gates_roll_name_percussion_perc() -> None:
    """Before, the arrangement's lane read "percussio" and the parts gate's "percussi"."""

    class _View(App[None]):
        def compose(self) -> ComposeResult:
            yield ArrangementView()

    song = studio_song()
    drums = next(t for t in song.tracks if t.role == "drums")
    song = song.model_copy(
        update={"tracks": [*song.tracks, drums.model_copy(update={"role": "percussion"})]}
    )
    app = _View()
    async with app.run_test(size=(100, 20)) as pilot:
        view = app.query_one(ArrangementView)
        view.set_song(song)
        await pilot.pause()
        lanes = [view.render_line(y).text[:11] for y in range(3, 3 + len(song.tracks))]
        assert lanes[-1].split() == ["perc"], lanes
        roll = MiniRoll(song.tracks[-1], 64)
        await app.mount(roll)
        await pilot.pause()
        assert roll.render_line(0).text[:9].split() == ["perc"]
