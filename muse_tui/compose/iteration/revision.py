"""The song being changed: what every edit family reads and returns, and how parts are named.

A `Revision` is the working copy of one change request: the song and intent as
they stand, plus what the edits asked for so far (what they trigger on the
sensitivity map, what they touched, which parts to write again, what they
cost, the sentences the producer reads). Each family's `apply` returns a new
revision; the engine plans and regenerates from the last one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from muse_tui.contracts import Cost, ModificationTarget, PipelineIntent, Section, SongState, Track

COST_ORDER: dict[Cost, int] = {"cheap": 0, "moderate": 1, "expensive": 2}
#: Where "the chords" of a song live when it has no track by that name, and so on.
ROLE_FALLBACKS = {
    "chords": ("keys", "pad", "arp"), "keys": ("chords", "pad"),
    "pad": ("texture", "chords", "keys"), "bass": ("sub_bass",), "sub_bass": ("bass",),
    "drums": ("percussion",), "lead": ("arp",),
}  # fmt: skip
#: Sensitivity-map components that are tracks, and the roles they cover.
COMPONENT_ROLES: dict[str, frozenset[str]] = {
    "drums": frozenset({"drums", "percussion"}),
    "bass": frozenset({"bass", "sub_bass"}),
    "chords": frozenset({"chords", "keys", "pad", "arp", "texture"}),
    "lead": frozenset({"lead"}),
}


class EditError(ValueError):
    """An edit that cannot be made; the message is one sentence a producer reads."""


@dataclass
class Revision:
    """The song and intent being changed, and what the edits asked for so far."""

    song: SongState
    intent: PipelineIntent
    triggers: list[tuple[str, str | None]] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)  # track ids to rewrite from the generators
    handled: set[str] = field(default_factory=set)  # components the edits already changed
    sentences: list[str] = field(default_factory=list)
    aims: list[ModificationTarget] = field(default_factory=list)
    cost: Cost = "cheap"
    expensive_subject: str = ""
    retime_from: float | None = None
    fills: list[Section] = field(default_factory=list)  # bars a section edit opened, to write

    def fork(self) -> Revision:
        """A copy whose lists the next edit may extend without touching this one."""
        return replace(
            self,
            triggers=list(self.triggers),
            touched=list(self.touched),
            parts=list(self.parts),
            handled=set(self.handled),
            sentences=list(self.sentences),
            aims=list(self.aims),
            fills=list(self.fills),
        )

    def touch(self, label: str, cost: Cost) -> None:
        if label not in self.touched:
            self.touched.append(label)
        if COST_ORDER[cost] > COST_ORDER[self.cost]:
            self.cost = cost

    def rewrite(self, track_id: str) -> None:
        if track_id not in self.parts:
            self.parts.append(track_id)

    def aim(self, component: str, path: str, operation: str, **parameters: object) -> None:
        """Note what the request targets, for the modification record."""
        kind = operation if operation in ("replace", "remove") else "adjust"
        self.aims.append(
            ModificationTarget(
                component=component, path=path, operation=kind, parameters=parameters
            )  # type: ignore[arg-type]
        )

    @property
    def voicing_style(self) -> str:
        return self.intent.genre_dna.voicing_style if self.intent.genre_dna else "close"


def tracks_for(
    song: SongState, role: str | None, *, needed: str = "", track: int | None = None
) -> list[int]:
    """The indices of the tracks a role names (or every track); its stand-ins when it is absent.

    A track named by its number (`track`, 1-based: "track 2") is that track alone.
    """
    if track is not None:
        return [numbered(song, track)]
    if role is None:
        if needed:
            raise EditError(f"say which part to {needed}, e.g. “{needed} the bass”.")
        return list(range(len(song.tracks)))
    for wanted in (role, *ROLE_FALLBACKS.get(role, ())):
        found = [i for i, t in enumerate(song.tracks) if t.role == wanted]
        if found:
            return found
    have = listed([track_label(song, t.id) for t in song.tracks]) or "no tracks"
    raise EditError(f"there is no {role.replace('_', ' ')} in this song (it has {have}).")


def numbered(song: SongState, track: int) -> int:
    """The index of the song's track `track` (1-based, as a producer counts them)."""
    if not 1 <= track <= len(song.tracks):
        have = listed([f"{i + 1} {t.name}" for i, t in enumerate(song.tracks)])
        raise EditError(f"there is no track {track}; the song has {len(song.tracks)} ({have}).")
    return track - 1


def is_part(component: str) -> bool:
    """Whether a sensitivity-map component is played by tracks (drums, bass, chords, lead)."""
    return component in COMPONENT_ROLES


def covers(component: str, track: Track) -> bool:
    """Whether a sensitivity-map component ("bass", "chords"…) is played by this track."""
    return track.role in COMPONENT_ROLES.get(component, frozenset())


def track_label(song: SongState, track_id: str) -> str:
    """A track as a producer names it: its role, numbered when two share one."""
    track = next(t for t in song.tracks if t.id == track_id)
    same = [t.id for t in song.tracks if t.role == track.role]
    role = track.role.replace("_", " ")
    return role if len(same) == 1 else f"{role} {same.index(track_id) + 1}"


def component_labels(song: SongState) -> list[str]:
    """Every musical component of the song, by label."""
    labels = ["progression"] if song.progression else []
    labels += ["arrangement"] if song.arrangement else []
    return labels + [track_label(song, t.id) for t in song.tracks]


def listed(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"
