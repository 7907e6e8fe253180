"""The piano roll: one track (or its selected section) on a bar/beat grid, drawn line by line.

A `ScrollView` on Textual's line API: only the lines on screen are drawn, and
each line only visits the notes in view, so big parts scroll as fast as small
ones. The ruler and the note names stay put while the grid scrolls.

Two lines head the grid: the song's sections as alternating bands, named at
their first bar and numbered at every other, and the track's recurring motifs
(A, A', B… from `compose.melody.recurrence`), whose notes take the motif's
colour, so the form and the hook coming back read at a glance.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.color import Color
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from .line_style import StyledOncePerRepaint

if TYPE_CHECKING:
    from muse_tui.compose.melody.recurrence import MotifMark
    from muse_tui.contracts import Section, Track

    from .roll_model import RollForm, RollModel

ZOOMS = (1, 2, 4, 8)  # cells per beat
SHADES = (0.4, 0.6, 0.8, 1.0)  # note colour strength by velocity quarter
START_MARK = "▏"
MOTIF_LABEL = "motifs"
HEADER = 2  # lines above the grid: the sections with bar numbers, then the motifs
#: Motif colours, A first; a motif's notes and its letter take the same one.
MOTIF_COLOURS = ("#4fb8d8", "#e8a33d", "#c77ddb", "#7cc66b", "#e0675c")
MOTIF_RUN = "─"


class PianoRoll(StyledOncePerRepaint, ScrollView, can_focus=True):
    """The selected track's notes; arrows scroll, + and − zoom, f follows the playhead."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1, 0)", "Scroll", show=False, id="roll.left",
                tooltip="Scroll back one beat"),
        Binding("right", "move(1, 0)", "Scroll", show=False, id="roll.right",
                tooltip="Scroll forward one beat"),
        Binding("shift+left", "move_bars(-1)", "Bar back", show=False, id="roll.bar_back",
                tooltip="Scroll back one bar"),
        Binding("shift+right", "move_bars(1)", "Bar on", show=False, id="roll.bar_forward",
                tooltip="Scroll forward one bar"),
        Binding("up", "move(0, -1)", "Up", show=False, id="roll.up",
                tooltip="Scroll up a semitone"),
        Binding("down", "move(0, 1)", "Down", show=False, id="roll.down",
                tooltip="Scroll down a semitone"),
        Binding("pageup", "move(0, -12)", "Octave up", show=False, id="roll.page_up",
                tooltip="Scroll up an octave"),
        Binding("pagedown", "move(0, 12)", "Octave down", show=False, id="roll.page_down",
                tooltip="Scroll down an octave"),
        Binding("home", "edge(0)", "Start", show=False, id="roll.start",
                tooltip="Go to the start of the track"),
        Binding("end", "edge(1)", "End", show=False, id="roll.end",
                tooltip="Go to the end of the track"),
        Binding("plus,equals_sign", "zoom(1)", "Zoom in", id="roll.zoom_in",
                tooltip="Show more detail: more cells per beat"),
        Binding("minus", "zoom(-1)", "Zoom out", id="roll.zoom_out",
                tooltip="Show more bars: fewer cells per beat"),
        Binding("f", "follow", "Follow", id="roll.follow",
                tooltip="Keep the playhead in view while auditioning"),
    ]  # fmt: skip

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "piano-roll--white-key",
        "piano-roll--black-key",
        "piano-roll--label",
        "piano-roll--label-black",
        "piano-roll--beat",
        "piano-roll--bar",
        "piano-roll--note",
        "piano-roll--playhead",
        "piano-roll--ruler",
        "piano-roll--section",
        "piano-roll--band",
    }

    DEFAULT_CSS = """
    PianoRoll > .piano-roll--band { background: $secondary 25%; color: $foreground; }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        # Built with the first track (`set_track`): the empty roll needs neither.
        self.model: RollModel | None = None
        self.form: RollForm | None = None
        self.track: Track | None = None
        self.section: Section | None = None
        self.beats_per_bar = 4.0
        self.zoom = 1  # index into ZOOMS
        self.playhead_beat: float | None = None
        self.follow = True
        self._styles: dict[str, Style] | None = None
        self._label_width = 5
        self._centre_pending = False
        self._pending_x: float | None = None

    @property
    def cells_per_beat(self) -> int:
        return ZOOMS[self.zoom]

    @property
    def grid_width(self) -> int:
        return max(self.size.width - self._label_width, 1)

    def set_track(
        self, track: Track | None, *, beats_per_bar: float, total_beats: float,
        section: Section | None = None, sections: Sequence[Section] = (),
        bar_beat: Callable[[int], float] | None = None,
    ) -> None:  # fmt: skip
        """Show a track; with a section, scroll to it and mark it on the ruler. `sections` are
        the song's, drawn as bands along the top."""
        from .roll_model import RollForm, RollModel

        changed = track is not self.track or self.model is None
        self.track, self.section, self.beats_per_bar = track, section, beats_per_bar
        if changed:
            drums = bool(track and track.is_drums)
            self.zoom = 2 if drums else 1  # sixteenths for drums, eighths for the rest
            notes = track.notes if track else []
            self.model = RollModel(notes, drums=drums, total_beats=total_beats)
            self.form = RollForm(
                sections, notes, drums=drums, beats_per_bar=beats_per_bar,
                total_beats=self.model.total_beats, bar_beat=bar_beat,
            )  # fmt: skip
            labels = [len(r.label) for r in self.model.rows]
            if self.form.motifs:  # the motif lane's name takes the label column too
                labels.append(len(MOTIF_LABEL) - 1)
            self._label_width = min(max(labels, default=3) + 2, 16)
        self._resize()
        x = None
        if section is not None:
            start = bar_beat(section.start_bar) if bar_beat else section.start_bar * beats_per_bar
            x = start * self.cells_per_beat
        if changed:
            # Scroll once the new rows are laid out: before that the scroll range is the
            # old track's, and the height may be unknown (0 on a busy machine, where the
            # track can arrive before the first layout). The busiest row is centred.
            self._pending_x = x
            self._centre_pending = True
            self.call_after_refresh(self._centre)
        else:
            self.scroll_to(x=x, animate=False, immediate=True)
        self.refresh()

    def _centre(self) -> None:
        if not self._centre_pending or self.model is None or not self.size.height:
            return  # already centred, or the next resize will do it
        self._centre_pending = False
        y = max(self.model.busiest_row() - (self.size.height - 1) // 2, 0)
        self.scroll_to(x=self._pending_x, y=y, animate=False, immediate=True)

    def on_resize(self) -> None:
        self._centre()

    def set_playhead(self, beat: float | None) -> None:
        if beat == self.playhead_beat:
            return
        self.playhead_beat = beat
        if beat is not None and self.follow:
            col = int(beat * self.cells_per_beat)
            first = int(self.scroll_offset.x)
            if not first <= col < first + self.grid_width - 2:
                self.scroll_to(x=col, animate=False, immediate=True)
        self.refresh()

    def _resize(self) -> None:
        if self.model is None:  # nothing shown yet: the next track sizes the roll
            return
        cols = int(self.model.total_beats * self.cells_per_beat) + 1
        self.virtual_size = Size(cols + self._label_width, len(self.model.rows) + HEADER)

    # ── actions ─────────────────────────────────────────────────────────────

    def action_move(self, beats: int, rows: int) -> None:
        x = self.scroll_offset.x + beats * self.cells_per_beat
        self.scroll_to(x=x, y=self.scroll_offset.y + rows, animate=False, immediate=True)

    def action_move_bars(self, bars: int) -> None:
        x = self.scroll_offset.x + bars * self.beats_per_bar * self.cells_per_beat
        self.scroll_to(x=x, animate=False, immediate=True)

    def action_edge(self, end: int) -> None:
        self.scroll_to(x=self.max_scroll_x if end else 0, animate=False, immediate=True)

    def action_zoom(self, step: int) -> None:
        zoom = min(max(self.zoom + step, 0), len(ZOOMS) - 1)
        if zoom == self.zoom:
            return
        left_beat = self.scroll_offset.x / self.cells_per_beat
        self.zoom = zoom
        self._resize()
        self.scroll_to(x=left_beat * self.cells_per_beat, animate=False, immediate=True)
        self.refresh()

    def action_follow(self) -> None:
        self.follow = not self.follow
        self.notify(f"Follow playhead {'on' if self.follow else 'off'}.", timeout=2)

    # ── drawing ─────────────────────────────────────────────────────────────

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None

    def _style_table(self) -> dict[str, Style]:
        if self._styles is None:
            get = self.get_component_rich_style
            base = self.rich_style
            names = (
                "white-key", "black-key", "label", "label-black", "beat", "bar", "note", "band",
            )  # fmt: skip
            styles = {name: base + get(f"piano-roll--{name}") for name in names}
            styles["playhead"] = get("piano-roll--playhead")
            styles["ruler"] = base + get("piano-roll--ruler")
            styles["section"] = styles["ruler"] + get("piano-roll--section")
            styles["band0"] = styles["ruler"]
            styles["band1"] = styles["ruler"] + Style(bgcolor=styles["band"].bgcolor)
            note = Color.from_rich_color(styles["note"].bgcolor)
            panel = Color.from_rich_color(styles["ruler"].bgcolor)
            for index, hexa in enumerate(MOTIF_COLOURS):
                motif = Color.parse(hexa)
                styles[f"motif{index}"] = Style(
                    color=motif.rich_color, bgcolor=panel.blend(motif, 0.2).rich_color, bold=True
                )
            for key in ("white-key", "black-key"):
                row = styles[key]
                ground = Color.from_rich_color(row.bgcolor)
                styles[f"bar-{key}"] = row + Style(color=styles["bar"].color)
                styles[f"beat-{key}"] = row + Style(color=styles["beat"].color)
                for level, shade in enumerate(SHADES):
                    colour = ground.blend(note, shade).rich_color
                    styles[f"note{level}-{key}"] = Style(bgcolor=colour, color=ground.rich_color)
                for index, hexa in enumerate(MOTIF_COLOURS):
                    colour = ground.blend(Color.parse(hexa), 0.85).rich_color
                    styles[f"motif{index}-{key}"] = Style(bgcolor=colour, color=ground.rich_color)
            self._styles = styles
        return self._styles

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if self.track is None:  # the empty studio's roll: no need for the note colours yet
            text = "The selected track's notes show here." if y == 0 else ""
            return Strip([Segment(text.ljust(width)[:width], self.rich_style)], width)
        styles = self._style_table()
        if y == 0:
            return self._ruler(styles, width)
        if y == 1:
            return self._motif_lane(styles, width)
        row_index = int(self.scroll_offset.y) + y - HEADER
        if row_index >= len(self.model.rows):
            return Strip.blank(width, self.rich_style)
        row = self.model.rows[row_index]
        key = "black-key" if row.black else "white-key"
        label_style = styles["label-black" if row.black else "label"]
        label = row.label[: self._label_width - 1].rjust(self._label_width - 1) + " "
        cpb = self.cells_per_beat
        first = int(self.scroll_offset.x)
        count = self.grid_width
        bar_cells = int(self.beats_per_bar * cpb)
        chars = [" "] * count
        cell_styles = [styles[key]] * count
        for i in range(count):
            col = first + i
            if col % bar_cells == 0:
                chars[i], cell_styles[i] = START_MARK, styles[f"bar-{key}"]
            elif col % cpb == 0:
                chars[i], cell_styles[i] = START_MARK, styles[f"beat-{key}"]
        for start, end, velocity in self.model.notes_in(
            row_index, first / cpb, (first + count) / cpb
        ):
            a, b = columns(start, end, cpb)
            note_style = styles[f"note{min(velocity // 32, 3)}-{key}"]
            if (mark := self.form.motif_at(start)) is not None:
                note_style = styles[f"{self._motif_style(mark)}-{key}"]
            for col in range(max(a, first), min(b, first + count)):
                chars[col - first], cell_styles[col - first] = " ", note_style
            if first <= a < first + count:
                chars[a - first] = START_MARK
        if self.playhead_beat is not None:
            col = int(self.playhead_beat * cpb) - first
            if 0 <= col < count:
                cell_styles[col] = cell_styles[col] + styles["playhead"]
        return Strip([Segment(label, label_style), *_runs(chars, cell_styles)], width)

    def _ruler(self, styles: dict[str, Style], width: int) -> Strip:
        """The sections as alternating bands, each named at its first bar; bar numbers between."""
        cpb = self.cells_per_beat
        first, count = int(self.scroll_offset.x), self.grid_width
        bar_cells = int(self.beats_per_bar * cpb)
        name = self.track.role if self.track else "no track"
        chars = [" "] * count
        cell_styles = [styles["ruler"]] * count
        section = self.section
        written = -1  # the last cell a name or number was written to
        for i in range(count):
            col = first + i
            beat = col / cpb
            band = self.form.band_at(beat)
            if band is not None:
                cell_styles[i] = styles[f"band{band.index % 2}"]
            if (
                section
                and section.start_bar * self.beats_per_bar
                <= beat
                < section.end_bar * self.beats_per_bar
            ):
                cell_styles[i] = styles["section"]
            if i <= written:
                continue
            text = ""
            if band is not None and col == round(band.start * cpb):
                text = f"{band.name} {col // bar_cells + 1}"
            elif col % bar_cells == 0:
                text = str(col // bar_cells + 1)
            elif i == 0 and band is not None:
                text = band.name  # the section scrolled into from the left keeps its name
            for j, ch in enumerate(text):
                if i + j < count:
                    chars[i + j] = ch
            written = i + len(text)
        if self.playhead_beat is not None:
            col = int(self.playhead_beat * cpb) - first
            if 0 <= col < count:
                # On a name or number it marks the cell's colour: a ▼ there split "15" as "1▼".
                if chars[col] == " ":
                    chars[col] = "▼"
                cell_styles[col] = cell_styles[col] + styles["playhead"]
        label = name[: self._label_width - 1].ljust(self._label_width)
        return Strip([Segment(label, styles["ruler"]), *_runs(chars, cell_styles)], width)

    def _motif_lane(self, styles: dict[str, Style], width: int) -> Strip:
        """Each recurring motif's occurrences: its letter, then a line to where it ends."""
        cpb = self.cells_per_beat
        first, count = int(self.scroll_offset.x), self.grid_width
        chars = [" "] * count
        cell_styles = [styles["ruler"]] * count
        for mark in self.form.motifs:
            a, b = columns(mark.start, mark.end, cpb)
            style = styles[self._motif_style(mark)]
            for col in range(max(a, first), min(b - 1, first + count)):
                chars[col - first], cell_styles[col - first] = MOTIF_RUN, style
            for j, ch in enumerate(mark.letter):
                if first <= a + j < min(b - 1, first + count):
                    chars[a + j - first] = ch
        # Cut to the column, as every label is: longer, it pushed the lane onto the border.
        label = (MOTIF_LABEL if self.form.motifs else "")[: self._label_width - 1]
        label = label.ljust(self._label_width)
        return Strip([Segment(label, styles["ruler"]), *_runs(chars, cell_styles)], width)

    def _motif_style(self, mark: MotifMark) -> str:
        """The style name of a motif's colour (A's, B's…), cycling past the palette."""
        return f"motif{self.form.family_index(mark) % len(MOTIF_COLOURS)}"


def _runs(chars: list[str], styles: list[Style]) -> list[Segment]:
    """Join neighbouring cells of the same style into one segment each."""
    segments: list[Segment] = []
    start = 0
    for i in range(1, len(chars) + 1):
        if i == len(chars) or styles[i] is not styles[start]:
            segments.append(Segment("".join(chars[start:i]), styles[start]))
            start = i
    return segments


def columns(start: float, end: float, cells_per_beat: int) -> tuple[int, int]:
    """The cells a note covers at a zoom: at least one, touching notes stay apart."""
    first = int(start * cells_per_beat + 1e-9)
    last = max(first + 1, math.ceil(end * cells_per_beat - 1e-6))
    return first, last
