"""Part edits: simpler, busier, ghost notes, swing, harder hits, hat rolls, 808 slides, half
and double time, fills, builds, a part resting in a section; kept as standing edits.

`apply` records the producer's wish in the intent and marks the parts to write
again; `standing` applies every standing edit to a freshly written region, so
the wish holds however often the part is regenerated.
"""

from __future__ import annotations

from dataclasses import replace

from muse_tui.compose.parts.style import family_of, resolve_style
from muse_tui.compose.requests import Edit
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import PipelineIntent, Region, Section, SongState, StandingEdit, Take
from muse_tui.knowledge.rhythm import rhythm_table
from muse_tui.knowledge.swing import swing_table, swung

from .groove_edits import (
    accented,
    double_timed,
    half_timed,
    silenced,
    with_build,
    with_fill,
    with_hat_rolls,
    with_slides,
)
from .note_edits import Groove, filled, reswung, thinned, with_ghost_notes, without_ghost_notes
from .revision import ROLE_FALLBACKS, EditError, Revision, listed, track_label, tracks_for
from .scoped_edits import scoped_region
from .section_edits import check_section
from .takes import ALL_PARTS, intent_for_take, standing_edits, take_of, with_standing_edit

PART_EDITS = {
    "simpler": ("density", -1.0),
    "busier": ("density", 1.0),
    "ghost_notes": ("ghost_notes", 1.0),
    "no_ghost_notes": ("ghost_notes", -1.0),
    "more_swing": ("swing", 1.0),  # steps of `skills/rhythm/swing.json`
    "less_swing": ("swing", -1.0),
    "harder": ("accent", 1.0),
    "softer_hits": ("accent", -1.0),
    "hat_rolls": ("hat_rolls", 1.0),
    "slides": ("slides", 1.0),
    "half_time": ("feel", -1.0),
    "double_time": ("feel", 1.0),
    "fills": ("fills", 1.0),
    "build": ("build", 1.0),
    "tacet": ("tacet", 1.0),
}
#: Several standing edits at once: what "more energy" means to a producer.
BUNDLES: dict[str, tuple[tuple[str, str | None], ...]] = {
    "more_energy": (("busier", "drums"), ("harder", "drums"), ("busier", "bass")),
    "less_energy": (("simpler", None), ("softer_hits", "drums")),
}
#: Mix words that, said of one section, make a part rest there (or play again).
RESTING = {"mute": 1.0, "remove_track": 1.0, "unmute": -1.0}
GHOSTED = ("drums", "bass", "sub_bass")  # the parts ghost notes suit
#: The part a groove edit means when the request names none ("half time" is the drums').
DEFAULT_ROLE = {
    "accent": "drums", "hat_rolls": "drums", "feel": "drums", "fills": "drums",
    "build": "drums", "slides": "sub_bass", "ghost_notes": "drums",
}  # fmt: skip
SUITS = {
    "hat_rolls": ("drums",), "feel": ("drums", "percussion"), "fills": ("drums",),
    "build": ("drums",), "slides": ("bass", "sub_bass"), "accent": ("drums", "percussion"),
}  # fmt: skip
#: How the summary names an edit, where its operation name does not read well.
SAID = {
    "harder": "Harder hits", "softer_hits": "Softer hits", "slides": "Slides",
    "tacet": "Resting", "unmute": "Playing again", "build": "Snare build",
    "fills": "Fills at the section ends",
}  # fmt: skip
#: Standing edits of a narrow scope, played note by note on the region again.
SCOPED = ("level", "octave", "rest")
#: A busier kit that gained less than this share of notes already had every 16th hat.
FULL_HATS = 1.05
#: A build leads into these sections.
LIFTS = ("chorus", "drop", "hook")


def handles(edit: Edit) -> bool:
    resting = edit.operation in RESTING and edit.scope.section is not None
    known = edit.operation in PART_EDITS or edit.operation in BUNDLES
    return known or resting


def apply(revision: Revision, edit: Edit) -> Revision:
    """The revision with the edit kept as a standing edit and the parts it names marked."""
    if edit.operation in BUNDLES:
        for operation, role in BUNDLES[edit.operation]:
            scope = replace(edit.scope, role=edit.scope.role or role)
            if _plays(revision.song, scope.role):
                revision = apply(revision, Edit(operation, scope))  # type: ignore[arg-type]
        return revision
    revision = revision.fork()
    if edit.operation in RESTING:  # "drop the drums in the intro", "bring them back in the intro"
        kind, value = "tacet", RESTING[edit.operation]
        edit = Edit("tacet" if value > 0 else "unmute", edit.scope)
    else:
        kind, value = PART_EDITS[edit.operation]
    if kind == "swing":
        value *= swing_table().step  # kept in MPC swing percent
    song, scope = revision.song, edit.scope
    role = scope.role
    if role is None and kind in DEFAULT_ROLE:
        role = DEFAULT_ROLE[kind]
        if kind == "ghost_notes" and not any(t.role == "drums" for t in song.tracks):
            role = "bass"
    if kind == "tacet" and role is None:
        raise EditError("say which part rests there, e.g. “drop the drums in the intro”.")
    indices = tracks_for(song, role)
    if kind == "ghost_notes" and value > 0:
        for i in indices:
            if song.tracks[i].role not in GHOSTED:
                raise EditError("ghost notes suit the drums and the bass.")
    if kind in SUITS and not any(song.tracks[i].role in SUITS[kind] for i in indices):
        raise EditError(f"{edit.operation.replace('_', ' ')} suit the {listed(list(SUITS[kind]))}.")
    section = scope.section
    if kind == "fills" and edit.value == "before" and section:
        section = _section_before(song, section)  # "a fill before the chorus"
    if kind == "build":
        _check_lift(song, section)
    else:
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
    if kind == "build":
        where = f" into the {section.replace('_', '-')}" if section else " into every lift"
    who = listed([track_label(song, song.tracks[i].id) for i in indices])
    said = SAID.get(edit.operation, edit.operation.replace("_", " ").capitalize())
    revision.sentences.append(f"{said}: {who}{where}.")
    return revision


def _plays(song: SongState, role: str | None) -> bool:
    """Whether the song has the role (or a stand-in for it); None is every part."""
    wanted = (role, *ROLE_FALLBACKS.get(role, ())) if role else ()
    return role is None or any(t.role in wanted for t in song.tracks)


def _section_before(song: SongState, kind: str) -> str:
    """The kind of section that leads into the first section of `kind`."""
    kinds = [s.kind for s in song.arrangement.sections] if song.arrangement else []
    if kind not in kinds[1:]:
        raise EditError(f"nothing comes before a {kind.replace('_', '-')} in this song.")
    return kinds[kinds.index(kind, 1) - 1]


def _check_lift(song: SongState, target: str | None) -> None:
    """A build needs a section to lead into: the one named, or a chorus, drop or hook."""
    kinds = [s.kind for s in song.arrangement.sections] if song.arrangement else []
    wanted = (target,) if target else LIFTS
    if not any(k in wanted for k in kinds[1:]):
        into = (target or "chorus, drop or hook").replace("_", "-")
        raise EditError(f"there is no {into} in this song for a build to lead into.")


def standing(
    region: Region,
    intent: PipelineIntent,
    seed: int,
    role: str,
    section: Section,
    groove: Groove,
    following: str | None = None,
) -> Region:
    """The region with the producer's standing edits for this role and section applied.

    `following` is the kind of the next section: a build plays in the section
    before the one it leads into (the edit's section, or any chorus, drop or hook).
    """
    for edit in standing_edits(intent, role):
        if edit.kind == "build":
            if edit.value > 0 and following in ((edit.section,) if edit.section else LIFTS):
                region = with_build(region, groove)
            continue
        if edit.section not in (None, section.kind):
            continue
        if edit.kind in SCOPED:
            region = scoped_region(region, edit, groove.beats_per_bar)
        elif edit.kind == "density":
            region = _densified(region, edit.value, groove, role)
        elif edit.kind == "ghost_notes":
            if edit.value < 0:
                region = without_ghost_notes(region, role)
            elif role in GHOSTED:
                rng = derive_rng(seed, "ghost", role, section.start_bar)
                region = with_ghost_notes(region, groove, role, rng)
        elif edit.kind == "swing":
            target = swung(groove.swing, edit.value)
            region = reswung(region, groove.swing, target, groove.swing_unit)
        else:
            region = _grooved(region, edit.kind, edit.value, groove, role)
    return region


def _grooved(region: Region, kind: str, value: float, groove: Groove, role: str) -> Region:
    """The feel edits: accents, hat rolls, 808 slides, half/double time, fills, resting."""
    if kind == "tacet":
        return silenced(region) if value > 0 else region
    if kind == "accent":
        return accented(region, value) if role in SUITS["accent"] else region
    if kind == "feel" and role in SUITS[kind] and value:
        return half_timed(region, groove) if value < 0 else double_timed(region, groove)
    if value <= 0 or role not in SUITS[kind]:
        return region
    if kind == "hat_rolls":
        return with_hat_rolls(region, groove)
    if kind == "slides":
        return with_slides(region)
    return with_fill(region, groove, beats=min(2, round(value)))  # fills


def with_take_density(region: Region, take: Take, groove: Groove) -> Region:
    """The region thinned or filled by the steps its take asks for."""
    return _densified(region, take.density, groove, take.role) if take.density else region


def _densified(region: Region, value: float, groove: Groove, role: str) -> Region:
    steps = round(abs(value))
    if value < 0:
        return thinned(region, steps, groove, role)
    busier = filled(region, steps, groove, role)
    if role in SUITS["hat_rolls"] and len(busier.notes) < len(region.notes) * FULL_HATS:
        return with_hat_rolls(busier, groove)  # the 16ths are all there: busier hats roll
    return busier


def groove_of(intent: PipelineIntent, song: SongState, role: str) -> Groove:
    """Bar length and the swing the role's generator plays with."""
    take_intent = intent_for_take(intent, take_of(intent, role))
    table = rhythm_table()
    style = resolve_style(take_intent, table)
    return Groove(song.beats_per_bar, style.swing, family_of(style, table).swing_unit)


def writes_first(role: str) -> bool:
    """Whether a part is written before the others (they lock to its kick)."""
    return role in rhythm_table().tracks.kit_roles
