"""How one section hands over to the next: endings, fills into sections, controller ramps.

Every transition of `contracts.song.Transition` is decided here, once:

- `fade`: the last bars' velocities fall (`shape_ending`), a pad's expression
  (CC11, part of its playing) falls over `PAD_FADE_BARS` (`expression_fade`),
  and the volume (CC7) ramps down at assembly;
- `cut`: every part, drums included, goes silent for the last beat;
- `build`: the drums play the build fill and the mod wheel (CC1) rises;
- `filter_sweep`: the cutoff (CC74) closes over the last bars and opens on the
  next downbeat;
- otherwise a section that leads on ends on one of its drum family's fills.

Inside a section, a repeat's drop-out bar (`arrangement.repeats`) silences every
part but one for a bar before the last phrase (`drop_out`).

The transition ramps (CC7, CC1, CC74) are added at assembly only
(`transition_ramps`), never by the part writers: the arrangement owns
transitions, so a changed transition needs no regenerated part, and a track
never carries two ramps of one controller.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from muse_tui.contracts.song import ControlChange, Section, SongState, Track, Transition
from muse_tui.knowledge.rhythm import DrumTable, Fill

from .humanize import Draft

T = TypeVar("T")

#: A cut leaves the last beat of the section silent.
CUT_SILENT_BEATS = 1.0
#: A fade takes velocities down over this many bars, to this share at the end.
FADE_BARS = 4
FADE_TO = 0.45
#: A pad's expression falls over its last bars when its section fades.
PAD_FADE_BARS = 2
RAMP_STEP_BEATS = 0.5
_RAMP_NAMESPACE = uuid.UUID("6d5a0c8e-52f1-4a52-9a3e-6f1b2f0c7a11")


@dataclass(frozen=True)
class Ramp:
    """A controller sweep over a section's last bars, reset on the next downbeat."""

    controller: int
    start_value: int | None  # None: from the track's own volume
    end_value: int
    bars: int
    reset_value: int | None  # None: back to the track's own volume


#: fade: volume down over 2 bars; build: mod wheel up over 4; filter sweep: cutoff closes over 4.
TRANSITION_RAMPS: dict[Transition, Ramp] = {
    "fade": Ramp(controller=7, start_value=None, end_value=0, bars=2, reset_value=None),
    "build": Ramp(controller=1, start_value=0, end_value=127, bars=4, reset_value=0),
    "filter_sweep": Ramp(controller=74, start_value=64, end_value=0, bars=4, reset_value=64),
}


@dataclass(frozen=True)
class DrumEnding:
    """How the drums end a section: silent for its last beats, or a fill over its last bar."""

    silent_beats: float = 0.0
    fill: Fill | None = None


def drum_ending(
    transition: Transition,
    *,
    leads_on: bool,
    sparse: bool,
    family_fills: Sequence[str],
    drums: DrumTable,
    rng: random.Random,
    turn: int = 0,
) -> DrumEnding:
    """The drums' ending for a section's transition (`leads_on`: another section follows).

    `turn` is the section's repeat (0 the first time): a repeat ends on another
    fill of the family's list than the first time did (`turned`).
    """
    if transition == "cut":
        return DrumEnding(silent_beats=CUT_SILENT_BEATS)
    if transition == "build":
        return DrumEnding(fill=drums.fills[drums.build_fill])
    if leads_on and transition != "fade":
        options = [drums.fills[name] for name in family_fills]
        if sparse:
            options = [f for f in options if f.steps <= 4] or options
        return DrumEnding(fill=turned(options, rng.randrange(len(options)), turn))
    return DrumEnding()


def turned(options: Sequence[T], index: int, turn: int) -> T:
    """`options[index]` the first time; a repeat (`turn` ≥ 1) always gets another one.

    The shift skips a whole lap, so the fourth verse is not back on the first one's fill.
    """
    if turn == 0 or len(options) < 2:
        return options[index]
    return options[(index + 1 + (turn - 1) % (len(options) - 1)) % len(options)]


def shape_ending(
    transition: Transition, notes: list[Draft], length: float, beats_per_bar: float, *, kit: bool
) -> list[Draft]:
    """A pitched part's ending: a fade takes velocity down; a cut silences the last beat.

    A kit's cut is its `drum_ending`, made before its fills are chosen.
    """
    if transition == "fade":
        fade_from = max(0.0, length - FADE_BARS * beats_per_bar)
        span = length - fade_from
        for note in notes:
            if note.start > fade_from:
                note.velocity *= 1 - (1 - FADE_TO) * (note.start - fade_from) / span
    if transition == "cut" and not kit:
        silence = length - CUT_SILENT_BEATS
        kept = []
        for note in notes:
            if note.start < silence - 1e-6:
                note.duration = min(note.duration, silence - note.start)
                kept.append(note)
        return kept
    return notes


#: When a part enters a build, as a share of its length: the drums' roll starts it
#: alone, the harmony joins a quarter in, the top line halfway, so the build thickens.
BUILD_ENTRIES: dict[str, float] = {
    "chords": 0.25,
    "keys": 0.25,
    "pad": 0.25,
    "lead": 0.5,
    "arp": 0.5,
    "texture": 0.5,
}


def build_entry_bar(section: Section, role: str) -> int:
    """The bar of a build at which `role` comes in (0 outside builds and for the rhythm)."""
    if section.kind != "build":
        return 0
    return int(section.bars * BUILD_ENTRIES.get(role, 0.0))


def drop_out(notes: list[Draft], bar: int | None, beats_per_bar: float) -> list[Draft]:
    """Rest through `bar` (None: no drop-out): notes in it go, notes ringing into it stop."""
    if bar is None:
        return notes
    return rest(notes, bar * beats_per_bar, (bar + 1) * beats_per_bar)


def rest(notes: list[Draft], begin: float, end: float) -> list[Draft]:
    """Silence beats `begin`–`end`: notes starting there go, notes ringing into it stop."""
    kept = []
    for note in notes:
        if begin - 1e-6 <= note.start < end - 1e-6:
            continue
        if note.start < begin < note.end:
            note.duration = begin - note.start
        kept.append(note)
    return kept


def expression_fade(
    transition: Transition, length: float, beats_per_bar: float
) -> tuple[float, float] | None:
    """Where a pad's expression falls in a fading section (start, end in beats), else None."""
    if transition != "fade":
        return None
    return max(0.0, length - PAD_FADE_BARS * beats_per_bar), length


def transition_ramps(song: SongState, track: Track, channel: int) -> list[ControlChange]:
    """The controller ramps this track plays at the end of the sections it is active in."""
    if song.arrangement is None:
        return []
    sections = song.arrangement.sections
    events: list[ControlChange] = []
    for index, section in enumerate(sections):
        ramp = TRANSITION_RAMPS.get(section.transition)
        if ramp is None or track.role not in section.active_roles:
            continue
        following = sections[index + 1] if index + 1 < len(sections) else None
        events.extend(_ramp(ramp, section, following, track, channel, song))
    events.sort(key=lambda cc: cc.beat)
    return events


def ramp_region_id(track_id: str) -> str:
    """The stable id of the region holding a track's transition ramps."""
    return str(uuid.uuid5(_RAMP_NAMESPACE, track_id))


def _ramp(
    ramp: Ramp,
    section: Section,
    following: Section | None,
    track: Track,
    channel: int,
    song: SongState,
) -> list[ControlChange]:
    begin, end = song.section_span(section)
    start = max(begin, end - ramp.bars * song.section_meter(section).beats_per_bar)
    first = track.volume if ramp.start_value is None else ramp.start_value
    steps = max(2, round((end - start) / RAMP_STEP_BEATS))
    events = [
        ControlChange(
            beat=start + i * (end - start) / steps,
            controller=ramp.controller,
            value=round(first + (ramp.end_value - first) * i / (steps - 1)),
            channel=channel,
        )
        for i in range(steps)
    ]
    if following is not None:
        reset = track.volume if ramp.reset_value is None else ramp.reset_value
        events.append(
            ControlChange(beat=end, controller=ramp.controller, value=reset, channel=channel)
        )
    return events
