"""The arrangement pane: sections as blocks across bars, a lane per track, the energy arc."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ..session import OpenSong, follow_open_song
from .labels import role_label
from .line_style import StyledOncePerRepaint

if TYPE_CHECKING:
    from muse_tui.contracts import BarMap, Section, SongState, Track

LABEL = 11
SPARK = " ▁▂▃▄▅▆▇█"


NO_SONG = "No song yet: type a prompt and press enter."


def fitted(name: str, width: int) -> str:
    """A section's name in `width` cells: whole, else its initials and number ("Hook 2" → "H2"),
    which keep repeats apart where a cut name would not ("Hoo", "Hoo"); an unnumbered name
    is cut ("Outr")."""
    if len(name) <= width:
        return name
    words = name.split()
    if len(words) > 1 and words[-1].isdigit():
        initials = "".join(w[0] for part in words[:-1] for w in part.split("-")).upper()
        short = initials + words[-1]
        if len(short) <= width:
            return short
    return name[: max(width, 0)]


def bars_played(track: Track, bars: BarMap, total_bars: int) -> list[bool]:
    """Which bars the track sounds in (bars placed through the song's meter changes)."""
    played = [False] * total_bars
    for note in track.notes:
        first = bars.bar_at(note.start_beat)
        last = bars.bar_at(note.end_beat - 1e-6)
        for bar in range(max(first, 0), min(last, total_bars - 1) + 1):
            played[bar] = True
    return played


class ArrangementView(StyledOncePerRepaint, Widget, can_focus=True):
    """Sections, energy and lanes; left/right pick a section, up/down a track."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "section(-1)", "Section", id="arrangement.section_previous",
                tooltip="Select the previous section", show=False),
        Binding("right", "section(1)", "Section", id="arrangement.section_next",
                tooltip="Select the next section", show=False),
        Binding("up", "track(-1)", "Track", id="arrangement.track_previous",
                tooltip="Select the track above", show=False),
        Binding("down", "track(1)", "Track", id="arrangement.track_next",
                tooltip="Select the track below", show=False),
    ]  # fmt: skip

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "arrangement--label",
        "arrangement--ruler",
        "arrangement--section-a",
        "arrangement--section-b",
        "arrangement--selected",
        "arrangement--energy",
        "arrangement--rest",
        "arrangement--playhead",
        "arrangement--focus-lane",
    }

    section_index: reactive[int] = reactive(0)
    track_index: reactive[int] = reactive(0)

    class Selected(Message):
        """The selected section or track changed."""

        def __init__(self, section: Section | None, track: Track | None) -> None:
            super().__init__()
            self.section = section
            self.track = track

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.song: SongState | None = None
        self.playhead_bar: float | None = None
        self.marks: dict[str, str] = {}  # track id → "M", "S", "▶"
        self.looped: str | None = None
        self._played: list[list[bool]] = []
        #: What the pane says with no song: how to start one, or how to resume a stopped run.
        self.empty_text = NO_SONG

    @property
    def sections(self) -> list[Section]:
        return self.song.arrangement.sections if self.song and self.song.arrangement else []

    @property
    def tracks(self) -> list[Track]:
        return self.song.tracks if self.song else []

    @property
    def total_bars(self) -> int:
        return self.song.arrangement.total_bars if self.song and self.song.arrangement else 0

    @property
    def section(self) -> Section | None:
        return self.sections[self.section_index] if self.sections else None

    @property
    def track(self) -> Track | None:
        return self.tracks[self.track_index] if self.tracks else None

    def on_mount(self) -> None:
        follow_open_song(self, self._open_song)

    def _open_song(self, old: OpenSong | None, new: OpenSong | None) -> None:
        if new is None:
            return
        if not new.edited:
            self.empty_text = new.stopped_sentence or NO_SONG
            self.set_song(new.song)
        elif old is None or new.song is not old.song:
            self.set_song(new.song, keep_place=True)  # the same song, changed

    def set_song(self, song: SongState | None, *, keep_place: bool = False) -> None:
        """Show a song; `keep_place` (the same song, changed) keeps the selection and marks."""
        self.song = song
        if song is None:
            self._played = []
        else:
            self._played = [bars_played(t, song.bar_map, self.total_bars) for t in self.tracks]
        if keep_place:
            self.section_index = min(self.section_index, max(len(self.sections) - 1, 0))
            self.track_index = min(self.track_index, max(len(self.tracks) - 1, 0))
        else:
            self.section_index, self.track_index = 0, self._first_heard()
            self.playhead_bar, self.marks, self.looped = None, {}, None
        self.refresh(layout=True)
        self.post_message(self.Selected(self.section, self.track))

    def _first_heard(self) -> int:
        """The first track that plays in the first section: the roll opens on notes, not rests."""
        first = self.sections[0] if self.sections else None
        if first is None:
            return 0
        bars = range(first.start_bar, first.end_bar)
        for index, played in enumerate(self._played):
            if any(b < len(played) and played[b] for b in bars):
                return index
        return 0

    def set_playhead(self, bar: float | None) -> None:
        if bar != self.playhead_bar:
            self.playhead_bar = bar
            self.refresh()

    def set_marks(self, marks: dict[str, str], looped: str | None) -> None:
        self.marks, self.looped = marks, looped
        self.refresh()

    def action_section(self, step: int) -> None:
        if self.sections:
            self.section_index = (self.section_index + step) % len(self.sections)
            self.post_message(self.Selected(self.section, self.track))

    def action_track(self, step: int) -> None:
        if self.tracks:
            self.track_index = (self.track_index + step) % len(self.tracks)
            self.post_message(self.Selected(self.section, self.track))

    def watch_section_index(self) -> None:
        self.refresh()

    def watch_track_index(self) -> None:
        self.refresh()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 3 + max(len(self.tracks), 1)

    # ── drawing ─────────────────────────────────────────────────────────────

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"arrangement--{name}")

    def _background(self, name: str) -> Style:
        """Only the background of a component style: an overlay that keeps the cell's colour."""
        return Style(bgcolor=self._style(name).bgcolor)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        grid = max(width - LABEL, 1)
        if not self.sections:
            text = self.empty_text if y == 0 else ""
            return Strip([Segment(text.ljust(width)[:width], self.rich_style)])
        total = self.total_bars
        bar_at = [min(int(c * total / grid), total - 1) for c in range(grid + 1)]
        if y == 0:
            label, cells = "bar", self._ruler(bar_at, grid)
        elif y == 1:
            label, cells = "section", self._section_cells(bar_at, grid)
        elif y == 2:
            label, cells = "energy", self._energy_cells(bar_at, grid)
        elif y - 3 < len(self.tracks):
            label, cells = self._lane(y - 3, bar_at, grid)
        else:
            return Strip.blank(width, self.rich_style)
        return self._strip(label, cells, bar_at, width, lane=y - 3)

    def _strip(
        self, label: str, cells: list[tuple[str, Style]], bar_at: list[int], width: int, lane: int
    ) -> Strip:
        base = self.rich_style
        label_style = base + self._style("label")
        if lane == self.track_index and lane >= 0:
            label_style += self._style("selected")
        segments = [Segment(label[: LABEL - 1].ljust(LABEL), label_style)]
        section = self.section
        playhead = None
        if self.playhead_bar is not None and self.total_bars:
            playhead = min(int(self.playhead_bar * len(cells) / self.total_bars), len(cells) - 1)
        for col, (char, style) in enumerate(cells):
            style = base + style
            if section and lane >= 0 and section.start_bar <= bar_at[col] < section.end_bar:
                style += self._background("focus-lane")
            if col == playhead:
                style += self._background("playhead")
            segments.append(Segment(char, style))
        return Strip(Segment.simplify(segments), width).crop_extend(0, width, base)

    def _ruler(self, bar_at: list[int], grid: int) -> list[tuple[str, Style]]:
        style = self._style("ruler")
        chars = [" "] * grid
        step = next((s for s in (1, 2, 4, 8, 16, 32, 64) if s * grid / self.total_bars >= 4), 128)
        for col in range(grid):
            # A column can span more than one bar: the bar a number is due at may be any of them.
            first = bar_at[col - 1] + 1 if col else 0
            bar = next((b for b in range(first, bar_at[col] + 1) if b % step == 0), None)
            if bar is not None:
                number = str(bar + 1)
                if all(c == " " for c in chars[max(col - 1, 0) : col + len(number)]):
                    chars[col : col + len(number)] = list(number)
        return [(c, style) for c in chars[:grid]]

    def _section_cells(self, bar_at: list[int], grid: int) -> list[tuple[str, Style]]:
        cells: list[tuple[str, Style]] = []
        for index, section in enumerate(self.sections):
            cols = [c for c in range(grid) if section.start_bar <= bar_at[c] < section.end_bar]
            if not cols or cols[0] != len(cells):
                continue
            style = self._style("section-a" if index % 2 == 0 else "section-b")
            if index == self.section_index:
                style += self._style("selected")
            name = fitted(section.name, len(cols) - 1)
            name += " ⟲" if self.looped == section.name else ""
            text = (" " + name)[: len(cols)].ljust(len(cols))
            cells.extend((ch, style) for ch in text)
        return cells + [(" ", Style())] * (grid - len(cells))

    def _energy_cells(self, bar_at: list[int], grid: int) -> list[tuple[str, Style]]:
        arc = self.song.arrangement.energy_arc if self.song and self.song.arrangement else []
        energy = arc or [s.energy for s in self.sections for _ in range(s.bars)]
        style = self._style("energy")
        return [(SPARK[round(energy[bar_at[c]] * (len(SPARK) - 1))], style) for c in range(grid)]

    def _lane(self, index: int, bar_at: list[int], grid: int) -> tuple[str, list]:
        track = self.tracks[index]
        played = self._played[index]
        mark = self.marks.get(track.id, "")
        colour = Style(color=track.color)
        rest = self._style("rest")
        cells = []
        for col in range(grid):
            bars = range(bar_at[col], max(bar_at[col + 1], bar_at[col] + 1))
            plays = any(played[b] for b in bars if b < len(played))
            cells.append(("━", colour) if plays else ("·", rest))
        label = f"{mark or ' '}{role_label(track.role, LABEL - 2)}"
        return label, cells
