"""Partial re-execution: regenerating only what a change reaches, through the stage adapters.

A `Draft` is the session being changed (a `Revision` plus the pipeline it came
from and the clock). `regenerate` re-runs just the planned pieces of S2–S6
with the same seeds, so whatever is not reached stays byte-identical; parts
are written again with their take and standing edits (`compose.iteration`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from muse_tui.compose.assembly import arrange_for_playback
from muse_tui.compose.iteration.chain_edits import keep_tone, retimed
from muse_tui.compose.iteration.note_edits import Groove
from muse_tui.compose.iteration.part_edits import (
    groove_of,
    standing,
    with_take_density,
    writes_first,
)
from muse_tui.compose.iteration.revision import EditError, Revision
from muse_tui.compose.iteration.section_edits import sections_of
from muse_tui.compose.iteration.structure_edits import fill_region
from muse_tui.compose.iteration.takes import intent_for_take, take_of
from muse_tui.compose.parts import PART_DEPENDENCIES
from muse_tui.compose.section_harmony import song_progression
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import (
    Arrangement,
    ComposerPipeline,
    Cost,
    EnrichedProgression,
    PipelineIntent,
    Region,
    Section,
    Take,
    new_id,
)
from muse_tui.knowledge.sound import effects_table

from .registry import plan_parts, sounds_stage
from .stages import StageContext


@dataclass(kw_only=True)
class Draft(Revision):
    """The session being changed: a revision, the pipeline it started from, and the clock."""

    base: ComposerPipeline
    clock: Callable[[], datetime]

    @classmethod
    def of(cls, pipeline: ComposerPipeline, clock: Callable[[], datetime]) -> Draft:
        if pipeline.intent is None:
            raise EditError("this session has no intent yet; finish composing it first.")
        return cls(song=pipeline.song_state, intent=pipeline.intent, base=pipeline, clock=clock)


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


def regenerate(draft: Draft, targets: Targets) -> None:
    """Run the reached pieces of S2–S6 in stage order on the draft."""
    if targets.progression:
        draft.song = draft.song.model_copy(update={"progression": _progression(draft)})
    if targets.arrangement is not None:
        draft.song = draft.song.model_copy(update={"arrangement": targets.arrangement})
    by_id = {t.id: t for t in draft.song.tracks}
    # A track the same request removed ("half-time no drums") has no part left to write.
    rewrite = [t for t in dict.fromkeys([*draft.parts, *targets.parts]) if t in by_id]
    for track_id in sorted(rewrite, key=lambda i: not writes_first(by_id[i].role)):
        rewrite_part(draft, track_id)
    if targets.presets or any(v == "genre" for v in targets.chains.values()):
        _sounds(draft, targets)
    if draft.retime_from is not None:
        _retime(draft, targets)
    write_fills(draft)
    assemble(draft, rewrite + targets.presets, everything=targets.arrangement is not None)


def rewrite_part(draft: Draft, track_id: str) -> None:
    """Write a track again from its generator, take and standing edits."""
    song = draft.song
    index = next(i for i, t in enumerate(song.tracks) if t.id == track_id)
    track = song.tracks[index]
    write = part_writer(draft, track.role)
    groove = groove_of(draft.intent, song, track.role)
    take = take_of(draft.intent, track.role)
    taken = {r.id for t in song.tracks if t.id != track_id for r in t.regions}
    regions: list[Region] = []
    sections = sections_of(song)
    following = [s.kind for s in sections[1:]] + [None]
    for section, after in zip(sections, following, strict=True):
        region = _written(draft, track.role, write, section, after, groove, take)
        if region.id in taken:  # a repeated section kind may hand back an id already in use
            region = region.model_copy(
                update={"id": new_id(derive_rng(song.seed, track.id, section.start_bar))}
            )
        taken.add(region.id)
        regions.append(region)
    tracks = list(song.tracks)
    tracks[index] = track.model_copy(update={"regions": regions})
    draft.song = song.model_copy(update={"tracks": tracks})


def write_fills(draft: Draft) -> None:
    """Bars a section edit opened (a new section, a longer one's tail), written by every part.

    A build leads into the section that starts where the opened bars end.
    """
    for section in draft.fills:
        after = next(
            (s.kind for s in sections_of(draft.song) if s.start_bar == section.end_bar), None
        )
        for track in draft.song.tracks:
            write = part_writer(draft, track.role)
            groove = groove_of(draft.intent, draft.song, track.role)
            take = take_of(draft.intent, track.role)
            region = _written(draft, track.role, write, section, after, groove, take)
            draft.song = fill_region(draft.song, track.id, region)


def _written(
    draft: Draft,
    role: str,
    write: Callable[[Section, Region | None], Region],
    section: Section,
    following: str | None,
    groove: Groove,
    take: Take,
) -> Region:
    """One section of a part as written, with its standing edits and its take's density."""
    kick = _kick_for(draft, section) if role in PART_DEPENDENCIES else None
    region = standing(
        write(section, kick), draft.intent, draft.song.seed, role, section, groove, following
    )
    return with_take_density(region, take, groove)


def part_writer(draft: Draft, role: str) -> Callable[[Section, Region | None], Region]:
    """S4's writer for one role, from the registry's plan, with the role's take."""
    take = take_of(draft.intent, role)
    intent = intent_for_take(draft.intent, take)
    ctx = stage_context(draft, 4, take.variant, intent)
    task = next((t for t in plan_parts(draft.song, ctx).tasks if t.role == role), None)
    if task is None:  # the genre's own line-up lacks this role: plan it alone
        alone = intent.model_copy(update={"roles": [role]})
        ctx = stage_context(draft, 4, take.variant, alone)
        task = plan_parts(draft.song, ctx).tasks[0]

    def write(section: Section, kick: Region | None) -> Region:
        return task.write_section(draft.song, ctx, section, {"drums": kick} if kick else {})

    return write


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


def stage_context(
    draft: Draft, stage: int, variant: int, intent: PipelineIntent | None = None
) -> StageContext:
    """The context a stage adapter runs in for the draft (its seeds, config, a view of it)."""
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
    ctx = stage_context(draft, 2, 0)
    return song_progression(
        draft.intent,
        ctx.rng("progression"),
        variant=0,
        beats_per_bar=draft.song.beats_per_bar,
        take=ctx.seed,
    )


def _kick_for(draft: Draft, section: Section) -> Region | None:
    """The drums of the section to lock to: the song's, or (where they rest) the written ones."""
    drums = next((t for t in draft.song.tracks if t.role == "drums"), None)
    if drums is None:
        return None
    start = draft.song.bar_beat(section.start_bar)
    region = next((r for r in drums.regions if abs(r.start_beat - start) < 1e-6), None)
    if region is not None and region.notes:
        return region
    return part_writer(draft, "drums")(section, None)


def _sounds(draft: Draft, targets: Targets) -> None:
    """S5 for the reached tracks: new presets, rebuilt chains keeping the producer's tone EQ."""
    fresh = sounds_stage(draft.song, stage_context(draft, 5, 0)).song
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
            update["effect_chain"] = keep_tone(track.effect_chain, new[track.id].effect_chain)
        tracks.append(track.model_copy(update=update) if update else track)
    buses = draft.song.buses
    if (
        any(v == "genre" for k, v in targets.chains.items() if k in {b.id for b in buses})
        or not buses
    ):
        buses = fresh.buses
    draft.song = draft.song.model_copy(update={"tracks": tracks, "buses": buses})


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
