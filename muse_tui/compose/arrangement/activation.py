"""Who plays in each section, resolved against the roles the song actually has.

The template names groups or roles in order of entry; then the rules a producer
expects are enforced whatever the template says: an intro has at most two
tracks, the last chorus, hook or drop has everyone (the earlier ones hold back
one colour part the section before them lacked, so the last one grows), a
break strips down from the section before it, and an outro takes tracks away
from the busiest section. A drumless section that comes back with the same
players gains one, where its rule allows. A verse carries a topline: the song's
lead (else its arp) plays in every verse, lower and quieter than in the hook.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from muse_tui.compose.arrangement.form import PEAK_KINDS
from muse_tui.contracts.song import SectionKind, TrackRole

INTRO_MAX_ROLES = 2
_BREAK_KINDS = frozenset({"break", "breakdown"})
_NOT_A_SHOWCASE = frozenset({"intro", "outro", "build", "break", "breakdown"})
#: Who carries a section when none of the roles it asks for exist in this song.
_STAND_IN_GROUPS = ("harmony", "top", "low", "rhythm")
#: The part an earlier peak holds back for the last one: a colour, never the hook or groove.
HELD_BACK: tuple[TrackRole, ...] = ("pad", "arp", "texture", "keys", "percussion")
#: Below this many roles every peak keeps the full band.
MIN_ROLES_TO_HOLD_BACK = 4
#: Who sings the verse's topline, the first the song has.
TOPLINE: tuple[TrackRole, ...] = ("lead", "arp")
#: Section kinds that carry a topline whatever the template lists.
_TOPLINE_KINDS = frozenset({"verse"})
#: Who joins a drumless section the second time round: a harmony bed, then the low end.
JOINS_A_REPEAT: tuple[TrackRole, ...] = (
    "pad",
    "keys",
    "chords",
    "bass",
    "sub_bass",
    "arp",
    "lead",
    "percussion",
)


def resolve_play(
    play: Sequence[str], roles: Sequence[TrackRole], groups: Mapping[str, Sequence[TrackRole]]
) -> list[TrackRole]:
    """The song's roles named by `play` (groups, roles or "all"), in order of entry."""
    wanted: list[TrackRole] = []
    for token in play:
        if token == "all":
            wanted.extend(roles)
        elif token in groups:
            wanted.extend(groups[token])
        else:
            wanted.append(token)  # type: ignore[arg-type]
    present = set(roles)
    return list(dict.fromkeys(r for r in wanted if r in present))


def plan_activation(
    kinds: Sequence[SectionKind],
    plays: Sequence[Sequence[str]],
    energies: Sequence[float],
    roles: Sequence[TrackRole],
    groups: Mapping[str, Sequence[TrackRole]],
) -> list[list[TrackRole]]:
    """The active roles of every section, listed in the song's track order."""
    showcases = _showcases(kinds, energies)
    stand_in = resolve_play(_STAND_IN_GROUPS, roles, groups)[:1]
    track_order = {role: i for i, role in enumerate(roles)}
    active: list[list[TrackRole]] = []
    last_of_kind = {kind: index for index, kind in enumerate(kinds)}
    for index, (kind, play) in enumerate(zip(kinds, plays, strict=True)):
        players = list(roles) if index in showcases else resolve_play(play, roles, groups)
        players = players or stand_in
        if kind in PEAK_KINDS and index != last_of_kind[kind]:
            players = _holding_back(players, active[-1] if active else [])
        most = len(roles)
        if kind == "intro":
            most = INTRO_MAX_ROLES
        elif kind in _BREAK_KINDS and active:
            most = max(1, len(active[-1]) - 1)
        elif kind == "outro" and active:
            most = max(1, max(len(a) for a in active) - 1)
        players = players[:most]
        if kind in _TOPLINE_KINDS:
            players = _with_topline(players, roles)
        first = next((a for k, a in zip(kinds, active, strict=False) if k == kind), None)
        if first is not None and "drums" not in players and set(players) == set(first):
            players = _joined(players, roles, most)
        active.append(sorted(players, key=track_order.__getitem__))
    return active


def _with_topline(players: list[TrackRole], roles: Sequence[TrackRole]) -> list[TrackRole]:
    """The players with the song's topline part, if it has one and it is not already in."""
    topline = next((r for r in TOPLINE if r in roles), None)
    if topline is None or topline in players:
        return players
    return [*players, topline]


def _joined(players: list[TrackRole], roles: Sequence[TrackRole], most: int) -> list[TrackRole]:
    """A drumless repeat that would play just as its first time did gains a part, room allowing.

    Without drums there is no fill to tell the second breakdown from the first.
    """
    joining = next((r for r in JOINS_A_REPEAT if r in roles and r not in players), None)
    return [*players, joining] if joining is not None and len(players) < most else players


def _holding_back(players: list[TrackRole], before: Sequence[TrackRole]) -> list[TrackRole]:
    """The players less one colour part, saved for the last peak to add.

    Only a part the section before did not have is saved: a chorus that dropped
    the verse's strings would land thinner than the verse, not lift.
    """
    if len(players) < MIN_ROLES_TO_HOLD_BACK:
        return players
    held = next((role for role in HELD_BACK if role in players and role not in before), None)
    return [role for role in players if role != held]


def _showcases(kinds: Sequence[SectionKind], energies: Sequence[float]) -> set[int]:
    """The sections where everyone plays: the peaks, or the hottest section of a peak-less form."""
    peaks = {i for i, kind in enumerate(kinds) if kind in PEAK_KINDS}
    if peaks:
        return peaks
    candidates = [i for i, kind in enumerate(kinds) if kind not in _NOT_A_SHOWCASE]
    candidates = candidates or list(range(len(kinds)))
    return {max(candidates, key=lambda i: energies[i])}
