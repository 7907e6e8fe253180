"""Partial re-execution: the blast radius of a change, and regenerating only what it reaches.

A `Draft` is the session being changed. Direct edits touch it first; the
sensitivity map then says what depends on what was touched, two levels out,
and `regenerate` re-runs just those pieces of S2–S6 through the registry's
adapters, with the same seeds, so whatever is not reached stays byte-identical.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from muse_tui.compose.assembly import arrange_for_playback
from muse_tui.compose.edits import (
    EditError,
    Groove,
    filled,
    reswung,
    thinned,
    with_ghost_notes,
    without_ghost_notes,
)
from muse_tui.compose.harmony import generate_progression
from muse_tui.compose.parts import PART_DEPENDENCIES
from muse_tui.compose.parts.style import family_of, resolve_style
from muse_tui.compose.seeding import derive_rng
from muse_tui.compose.takes import intent_for_take, standing_edits, take_of
from muse_tui.compose.variation import EQ_KIND, retimed
from muse_tui.contracts import (
    Arrangement,
    ComposerPipeline,
    Cost,
    EffectChain,
    EnrichedProgression,
    ModificationTarget,
    PipelineIntent,
    Region,
    Section,
    SensitivityMap,
    SongState,
    default_sensitivity_map,
    new_id,
)
from muse_tui.knowledge.rhythm import rhythm_table
from muse_tui.knowledge.sound import effects_table

from .registry import arrangement_stage, plan_parts, sounds_stage
from .stages import StageContext

COST_ORDER: dict[Cost, int] = {"cheap": 0, "moderate": 1, "expensive": 2}
#: Sensitivity-map components that are tracks, and the roles they cover.
COMPONENT_ROLES: dict[str, frozenset[str]] = {
    "drums": frozenset({"drums", "percussion"}),
    "bass": frozenset({"bass", "sub_bass"}),
    "chords": frozenset({"chords", "keys", "pad", "arp", "texture"}),
    "lead": frozenset({"lead"}),
}
#: A regenerated component is itself a trigger for what is sensitive to it.
TRIGGER_OF = {"progression": "progression", "arrangement": "arrangement", "preset": "preset"}
KIT_FIRST = ("drums", "percussion")


@dataclass(frozen=True)
class Reach:
    """A component the change reaches: how far out, at which stage, for which track (or all)."""

    component: str
    depth: int
    stage: int
    cost: Cost
    scope: str | None = None
    via: str = ""


def blast_radius(
    triggers: Iterable[tuple[str, str | None]],
    sensitivity: SensitivityMap | None = None,
    *,
    max_depth: int = 2,
) -> list[Reach]:
    """What is sensitive to the triggers, then to what that regenerates, ordered by stage.

    A trigger is (what changed, a track id or None for the whole song); depth
    stops at `max_depth` so a change never cascades without end.
    """
    table = sensitivity or default_sensitivity_map()
    order = list(table)
    reached: dict[tuple[str, str | None], Reach] = {}
    frontier = list(dict.fromkeys(triggers))
    for depth in range(1, max_depth + 1):
        found: list[Reach] = []
        for trigger, scope in frontier:
            for name, entry in table.items():
                if trigger not in entry.sensitive_to:
                    continue
                if (name, scope) in reached or (name, None) in reached:
                    continue
                reach = Reach(
                    name, depth, entry.regeneration_stage, entry.regeneration_cost, scope, trigger
                )
                reached[(name, scope)] = reach
                found.append(reach)
        frontier = [(TRIGGER_OF[r.component], r.scope) for r in found if r.component in TRIGGER_OF]
        frontier += [("energy", r.scope) for r in found if r.component == "arrangement"]
    return sorted(reached.values(), key=lambda r: (r.stage, order.index(r.component)))


@dataclass
class Draft:
    """The session being changed: its song and intent, and what the edits asked for so far."""

    base: ComposerPipeline
    song: SongState
    intent: PipelineIntent
    clock: Callable[[], datetime]
    triggers: list[tuple[str, str | None]] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)  # track ids to rewrite from the generators
    handled: set[str] = field(default_factory=set)  # components the edits already changed
    sentences: list[str] = field(default_factory=list)
    aims: list[ModificationTarget] = field(default_factory=list)
    cost: Cost = "cheap"
    expensive_subject: str = ""
    retime_from: float | None = None

    @classmethod
    def of(cls, pipeline: ComposerPipeline, clock: Callable[[], datetime]) -> Draft:
        if pipeline.intent is None:
            raise EditError("this session has no intent yet; finish composing it first.")
        return cls(pipeline, pipeline.song_state, pipeline.intent, clock)

    def touch(self, label: str, cost: Cost) -> None:
        if label not in self.touched:
            self.touched.append(label)
        if COST_ORDER[cost] > COST_ORDER[self.cost]:
            self.cost = cost

    def rewrite(self, track_id: str) -> None:
        if track_id not in self.parts:
            self.parts.append(track_id)


@dataclass
class Targets:
    """What `regenerate` will do, worked out before asking the producer."""

    progression: bool = False
    arrangement: Arrangement | None = None  # the new one, when the form itself changes
    parts: list[str] = field(default_factory=list)
    presets: list[str] = field(default_factory=list)
    chains: dict[str, str] = field(default_factory=dict)  # track or bus id → what reached it
    labels: list[str] = field(default_factory=list)
    costs: list[Cost] = field(default_factory=list)


def plan_targets(draft: Draft, reaches: list[Reach]) -> Targets:
    """Concrete pieces for each reach; frozen parts reached only at depth 2 are kept."""
    song, targets = draft.song, Targets()
    frozen = frozen_tracks(draft.base, song)
    for reach in reaches:
        if reach.component in draft.handled:
            continue
        targets.costs.append(reach.cost)
        if reach.component == "progression":
            targets.progression = True
            _label(targets, "progression")
        elif reach.component == "arrangement":
            new = arrangement_stage(song, _context(draft, 3, 0)).song.arrangement
            if new is not None and not _same_shape(song.arrangement, new):
                targets.arrangement = new
                _label(targets, "arrangement")
        elif reach.component in COMPONENT_ROLES:
            for track in song.tracks:
                if track.role not in COMPONENT_ROLES[reach.component]:
                    continue
                if reach.scope not in (None, track.id) or track.id in draft.parts:
                    continue
                if track.id in frozen and reach.depth >= 2:
                    continue
                targets.parts.append(track.id)
                _label(targets, track_label(song, track.id))
        elif reach.component == "preset":
            for track in song.tracks:
                if reach.scope in (None, track.id) and not track.frozen:
                    targets.presets.append(track.id)
                    _label(targets, f"preset:{track_label(song, track.id)}")
        elif reach.component == "effectChain":
            for track in song.tracks:
                if reach.scope in (None, track.id):
                    targets.chains[track.id] = reach.via
                    _label(targets, f"effects:{track_label(song, track.id)}")
            for bus in song.buses if reach.scope is None else []:
                targets.chains[bus.id] = reach.via
                _label(targets, f"effects:{bus.name.lower()} bus")
    if targets.arrangement is not None:  # every part not frozen follows the new sections
        for track in song.tracks:
            if track.id not in frozen and track.id not in targets.parts + draft.parts:
                targets.parts.append(track.id)
                _label(targets, track_label(song, track.id))
    return targets


def regenerate(draft: Draft, targets: Targets) -> None:
    """Run the reached pieces of S2–S6 in stage order on the draft."""
    if targets.progression:
        draft.song = draft.song.model_copy(update={"progression": _progression(draft)})
    if targets.arrangement is not None:
        draft.song = draft.song.model_copy(update={"arrangement": targets.arrangement})
    rewrite = list(dict.fromkeys([*draft.parts, *targets.parts]))
    by_id = {t.id: t for t in draft.song.tracks}
    for track_id in sorted(rewrite, key=lambda i: by_id[i].role not in KIT_FIRST):
        rewrite_part(draft, track_id)
    if targets.presets or any(v == "genre" for v in targets.chains.values()):
        _sounds(draft, targets)
    if draft.retime_from is not None:
        _retime(draft, targets)
    assemble(draft, rewrite + targets.presets, everything=targets.arrangement is not None)


def rewrite_part(draft: Draft, track_id: str) -> None:
    """Write a track again from its generator, take and standing edits."""
    song = draft.song
    index = next(i for i, t in enumerate(song.tracks) if t.id == track_id)
    track = song.tracks[index]
    write = part_writer(draft, track.role)
    groove = groove_of(draft.intent, song, track.role)
    take = take_of(draft.intent.constraints, track.role)
    taken = {r.id for t in song.tracks if t.id != track_id for r in t.regions}
    regions: list[Region] = []
    for section in sections_of(song):
        kick = _kick_for(draft, section) if track.role in PART_DEPENDENCIES else None
        region = standing(write(section, kick), draft, track.role, section, groove)
        if take.density:
            steps, role = abs(take.density), track.role
            region = (
                thinned(region, steps, groove, role)
                if take.density < 0
                else filled(region, steps, groove, role)
            )
        if region.id in taken:  # a repeated section kind may hand back an id already in use
            region = region.model_copy(
                update={"id": new_id(derive_rng(song.seed, track.id, section.start_bar))}
            )
        taken.add(region.id)
        regions.append(region)
    tracks = list(song.tracks)
    tracks[index] = track.model_copy(update={"regions": regions})
    draft.song = song.model_copy(update={"tracks": tracks})


def part_writer(draft: Draft, role: str) -> Callable[[Section, Region | None], Region]:
    """S4's writer for one role, from the registry's plan, with the role's take."""
    take = take_of(draft.intent.constraints, role)
    intent = intent_for_take(draft.intent, take)
    ctx = _context(draft, 4, take.variant, intent)
    task = next((t for t in plan_parts(draft.song, ctx).tasks if t.role == role), None)
    if task is None:  # the genre's own line-up lacks this role: plan it alone
        alone = intent.model_copy(update={"roles": [role]})
        ctx = _context(draft, 4, take.variant, alone)
        task = plan_parts(draft.song, ctx).tasks[0]

    def write(section: Section, kick: Region | None) -> Region:
        return task.write_section(draft.song, ctx, section, {"drums": kick} if kick else {})

    return write


def standing(region: Region, draft: Draft, role: str, section: Section, groove: Groove) -> Region:
    """The region with the producer's standing edits for this role and section applied."""
    for edit in standing_edits(draft.intent.constraints, role):
        if edit.section not in (None, section.kind):
            continue
        if edit.kind == "density":
            steps = round(abs(edit.value))
            region = (
                thinned(region, steps, groove, role)
                if edit.value < 0
                else filled(region, steps, groove, role)
            )
        elif edit.kind == "ghost_notes":
            if edit.value < 0:
                region = without_ghost_notes(region, role)
            elif role in ("drums", "bass", "sub_bass"):
                rng = derive_rng(draft.song.seed, "ghost", role, section.start_bar)
                region = with_ghost_notes(region, groove, role, rng)
        elif edit.kind == "swing":
            target = max(50.0, min(75.0, groove.swing + edit.value))
            region = reswung(region, groove.swing, target, groove.swing_unit)
    return region


def groove_of(intent: PipelineIntent, song: SongState, role: str) -> Groove:
    """Bar length and the swing the role's generator plays with."""
    take_intent = intent_for_take(intent, take_of(intent.constraints, role))
    table = rhythm_table()
    style = resolve_style(take_intent, table)
    return Groove(song.beats_per_bar, style.swing, family_of(style, table).swing_unit)


def sections_of(song: SongState) -> list[Section]:
    """The arrangement's sections, or one section over the whole song when there is none."""
    if song.arrangement is not None:
        return list(song.arrangement.sections)
    end = max((r.end_beat for t in song.tracks for r in t.regions), default=0.0)
    bars = max(1, round(end / song.beats_per_bar))
    return [Section(name="Song", kind="loop", start_bar=0, bars=bars, energy=0.6)]


def assemble(draft: Draft, track_ids: Iterable[str], *, everything: bool = False) -> None:
    """S6 for the touched tracks (and any sharing their channel): who plays where, ramps."""
    song = draft.song
    wanted = set(track_ids)
    if everything:
        draft.song = arrange_for_playback(song)
        return
    if not wanted:
        return
    channels = {t.channel for t in song.tracks if t.id in wanted}
    subset = [t for t in song.tracks if t.id in wanted or t.channel in channels]
    arranged = {
        t.id: t for t in arrange_for_playback(song.model_copy(update={"tracks": subset})).tracks
    }
    tracks = [arranged.get(t.id, t) for t in song.tracks]
    draft.song = song.model_copy(update={"tracks": tracks})


def frozen_tracks(pipeline: ComposerPipeline, song: SongState) -> set[str]:
    """Tracks frozen by the producer, or all of them when the parts were approved at a gate."""
    record = pipeline.stages.get(4)
    approved = (
        4 in pipeline.config.approval_gates and record is not None and record.status == "completed"
    )
    return {t.id for t in song.tracks if t.frozen or approved}


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


def _same_shape(old: Arrangement | None, new: Arrangement) -> bool:
    """Sections of the same kinds and lengths: the form still fits, so it is kept."""
    if old is None:
        return False
    return [(s.kind, s.bars) for s in old.sections] == [(s.kind, s.bars) for s in new.sections]


def _label(targets: Targets, label: str) -> None:
    if label not in targets.labels:
        targets.labels.append(label)


def _context(
    draft: Draft, stage: int, variant: int, intent: PipelineIntent | None = None
) -> StageContext:
    pipeline = draft.base.model_copy(
        update={"intent": intent or draft.intent, "song_state": draft.song}
    )
    return StageContext(
        stage=stage,
        seed=draft.song.seed,
        variant=variant,
        attempt=1,
        config=pipeline.config,
        pipeline=pipeline,
        session_dir=Path("."),  # the adapters used here write nothing
        clock=draft.clock,
    )


def _progression(draft: Draft) -> EnrichedProgression:
    ctx = _context(draft, 2, 0)
    return generate_progression(
        draft.intent, ctx.rng("progression"), variant=0, beats_per_bar=draft.song.beats_per_bar
    )


def _kick_for(draft: Draft, section: Section) -> Region | None:
    """The drums of the section to lock to: the song's, or (where they rest) the written ones."""
    drums = next((t for t in draft.song.tracks if t.role == "drums"), None)
    if drums is None:
        return None
    start = section.start_bar * draft.song.beats_per_bar
    region = next((r for r in drums.regions if abs(r.start_beat - start) < 1e-6), None)
    if region is not None and region.notes:
        return region
    return part_writer(draft, "drums")(section, None)


def _sounds(draft: Draft, targets: Targets) -> None:
    """S5 for the reached tracks: new presets, rebuilt chains keeping the producer's tone EQ."""
    fresh = sounds_stage(draft.song, _context(draft, 5, 0)).song
    new = {t.id: t for t in fresh.tracks}
    tracks = []
    for track in draft.song.tracks:
        update: dict[str, object] = {}
        if track.id in targets.presets:
            source = new[track.id]
            update |= {
                "preset": source.preset,
                "program": source.program,
                "drum_kit": source.drum_kit,
            }
        if targets.chains.get(track.id) == "genre" and not track.frozen:
            update["effect_chain"] = _keep_tone(track.effect_chain, new[track.id].effect_chain)
        tracks.append(track.model_copy(update=update) if update else track)
    buses = draft.song.buses
    if (
        any(v == "genre" for k, v in targets.chains.items() if k in {b.id for b in buses})
        or not buses
    ):
        buses = fresh.buses
    draft.song = draft.song.model_copy(update={"tracks": tracks, "buses": buses})


def _keep_tone(old: EffectChain | None, new: EffectChain | None) -> EffectChain | None:
    eq = next((e for e in old.effects if e.kind == EQ_KIND), None) if old else None
    if new is None or eq is None:
        return new
    return new.model_copy(update={"effects": [eq, *(e for e in new.effects if e.kind != EQ_KIND)]})


def _retime(draft: Draft, targets: Targets) -> None:
    """Tempo-synced effect times follow the new tempo; everything else in the chain stays."""
    old, bpm, table = draft.retime_from or draft.song.tempo, draft.song.tempo, effects_table()
    tracks = [
        t.model_copy(update={"effect_chain": retimed(t.effect_chain, old, bpm, table)})
        if t.effect_chain and t.id in targets.chains
        else t
        for t in draft.song.tracks
    ]
    buses = [
        b.model_copy(update={"effect_chain": retimed(b.effect_chain, old, bpm, table)})
        if b.effect_chain and b.id in targets.chains
        else b
        for b in draft.song.buses
    ]
    draft.song = draft.song.model_copy(update={"tracks": tracks, "buses": buses})
