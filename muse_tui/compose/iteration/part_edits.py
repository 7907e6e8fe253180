"""Part edits: simpler, busier, ghost notes, swing, kept as standing edits and re-applied.

`apply` records the producer's wish in the intent and marks the parts to write
again; `standing` applies every standing edit to a freshly written region, so
the wish holds however often the part is regenerated.
"""

from __future__ import annotations

from muse_tui.compose.parts.style import family_of, resolve_style
from muse_tui.compose.requests import Edit
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import PipelineIntent, Region, Section, SongState, StandingEdit, Take
from muse_tui.knowledge.rhythm import rhythm_table

from .note_edits import Groove, filled, reswung, thinned, with_ghost_notes, without_ghost_notes
from .revision import EditError, Revision, listed, track_label, tracks_for
from .section_edits import check_section
from .takes import ALL_PARTS, intent_for_take, standing_edits, take_of, with_standing_edit

SWING_STEP = 6.0  # MPC swing percent per "more swing"
SWING_LIMITS = (50.0, 75.0)  # straight to the MPC's heaviest swing
PART_EDITS = {
    "simpler": ("density", -1.0),
    "busier": ("density", 1.0),
    "ghost_notes": ("ghost_notes", 1.0),
    "no_ghost_notes": ("ghost_notes", -1.0),
    "more_swing": ("swing", SWING_STEP),
    "less_swing": ("swing", -SWING_STEP),
}
GHOSTED = ("drums", "bass", "sub_bass")  # the parts ghost notes suit


def handles(edit: Edit) -> bool:
    return edit.operation in PART_EDITS


def apply(revision: Revision, edit: Edit) -> Revision:
    """The revision with the edit kept as a standing edit and the parts it names marked."""
    revision = revision.fork()
    kind, value = PART_EDITS[edit.operation]
    song, scope = revision.song, edit.scope
    role = scope.role
    if kind == "ghost_notes" and role is None:
        role = "drums" if any(t.role == "drums" for t in song.tracks) else "bass"
    indices = tracks_for(song, role)
    if kind == "ghost_notes" and value > 0:
        for i in indices:
            if song.tracks[i].role not in GHOSTED:
                raise EditError("ghost notes suit the drums and the bass.")
    section = scope.section
    check_section(song, section)
    roles = sorted({song.tracks[i].role for i in indices}) if role is not None else [ALL_PARTS]
    intent = revision.intent
    for name in roles:
        edit_kept = StandingEdit(role=name, kind=kind, value=value, section=section)  # type: ignore[arg-type]
        intent = with_standing_edit(intent, edit_kept)
    revision.intent = intent
    for i in indices:
        track = song.tracks[i]
        revision.rewrite(track.id)
        revision.touch(track_label(song, track.id), "moderate")
        revision.aim(
            track.role, f"tracks[{i}].regions", "adjust", edit=edit.operation, section=section
        )
    where = f" in the {section.replace('_', '-')}" if section else ""
    who = listed([track_label(song, song.tracks[i].id) for i in indices])
    revision.sentences.append(f"{edit.operation.replace('_', ' ').capitalize()}: {who}{where}.")
    return revision


def standing(
    region: Region, intent: PipelineIntent, seed: int, role: str, section: Section, groove: Groove
) -> Region:
    """The region with the producer's standing edits for this role and section applied."""
    for edit in standing_edits(intent, role):
        if edit.section not in (None, section.kind):
            continue
        if edit.kind == "density":
            region = _densified(region, edit.value, groove, role)
        elif edit.kind == "ghost_notes":
            if edit.value < 0:
                region = without_ghost_notes(region, role)
            elif role in GHOSTED:
                rng = derive_rng(seed, "ghost", role, section.start_bar)
                region = with_ghost_notes(region, groove, role, rng)
        elif edit.kind == "swing":
            low, high = SWING_LIMITS
            target = max(low, min(high, groove.swing + edit.value))
            region = reswung(region, groove.swing, target, groove.swing_unit)
    return region


def with_take_density(region: Region, take: Take, groove: Groove) -> Region:
    """The region thinned or filled by the steps its take asks for."""
    return _densified(region, take.density, groove, take.role) if take.density else region


def _densified(region: Region, value: float, groove: Groove, role: str) -> Region:
    steps = round(abs(value))
    if value < 0:
        return thinned(region, steps, groove, role)
    return filled(region, steps, groove, role)


def groove_of(intent: PipelineIntent, song: SongState, role: str) -> Groove:
    """Bar length and the swing the role's generator plays with."""
    take_intent = intent_for_take(intent, take_of(intent, role))
    table = rhythm_table()
    style = resolve_style(take_intent, table)
    return Groove(song.beats_per_bar, style.swing, family_of(style, table).swing_unit)


def writes_first(role: str) -> bool:
    """Whether a part is written before the others (they lock to its kick)."""
    return role in rhythm_table().tracks.kit_roles
