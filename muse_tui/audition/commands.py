"""What the UI asks of the player thread: small immutable commands sent on its queue."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from muse_tui.audition.ports import OutputPort
from muse_tui.audition.schedule import Part
from muse_tui.contracts import SongState


@dataclass(frozen=True, slots=True)
class Load:
    song: SongState
    parts: tuple[Part, ...]
    alternatives: dict[str, tuple[Part, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Play:
    from_beat: float | None  # None: from where it stopped
    until_beat: float | None = None


@dataclass(frozen=True, slots=True)
class Stop:
    pass


@dataclass(frozen=True, slots=True)
class Loop:
    beats: tuple[float, float] | None


@dataclass(frozen=True, slots=True)
class Mute:
    track_id: str
    on: bool


@dataclass(frozen=True, slots=True)
class Solo:
    track_id: str
    on: bool


@dataclass(frozen=True, slots=True)
class PlayOnly:
    track_id: str | None


@dataclass(frozen=True, slots=True)
class Switch:
    """Play `part` in place of its track from the next bar line (None: the song's own part).

    With `at_loop_end`, from where the loop wraps instead (a jam's parts change there).
    """

    track_id: str
    part: Part | None
    at_loop_end: bool = False


@dataclass(frozen=True, slots=True)
class SetTempo:
    """The tempo from the next beat (with `at_loop_end`, from where the loop wraps)."""

    bpm: float
    at_loop_end: bool = False


@dataclass(frozen=True, slots=True)
class Panic:
    pass


@dataclass(frozen=True, slots=True)
class UsePort:
    port: OutputPort | None
    error: str | None = None  # why there is no port (it failed to open)


@dataclass(frozen=True, slots=True)
class Sync:
    done: threading.Event


@dataclass(frozen=True, slots=True)
class Close:
    pass


@dataclass(frozen=True, slots=True)
class Together:
    """Commands carried out as one, with no event played between them (a jam's round: its
    tempo and every changed part land on the same boundary, or all on the next one)."""

    commands: tuple[Command, ...]


Command = (
    Load
    | Play
    | Stop
    | Loop
    | Mute
    | Solo
    | PlayOnly
    | Switch
    | SetTempo
    | Panic
    | UsePort
    | Sync
    | Close
    | Together
)
