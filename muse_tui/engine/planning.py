"""Planning a change: what the sensitivity map says it reaches, and the concrete pieces to redo.

`blast_radius` follows the map two levels out from what the edits triggered;
`plan_targets` turns each reach into tracks, presets and chains, keeping a part
frozen by the producer (or approved at a gate) when it is reached only at the
second level. Nothing is regenerated here: the plan is what the producer is
asked to confirm.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from muse_tui.compose.iteration.revision import covers, is_part, track_label
from muse_tui.compose.iteration.section_edits import same_shape
from muse_tui.contracts import (
    ComposerPipeline,
    Cost,
    SensitivityMap,
    SongState,
)
from muse_tui.knowledge import sensitivity_map

from .regenerate import Draft, Targets, stage_context
from .registry import arrangement_stage

#: A regenerated component is itself a trigger for what is sensitive to it.
TRIGGER_OF = {"progression": "progression", "arrangement": "arrangement", "preset": "preset"}


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
    table = sensitivity or sensitivity_map()
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
            new = arrangement_stage(song, stage_context(draft, 3, 0)).song.arrangement
            if new is not None and not same_shape(song.arrangement, new):
                targets.arrangement = new
                _label(targets, "arrangement")
        elif is_part(reach.component):
            for track in song.tracks:
                if not covers(reach.component, track):
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


def frozen_tracks(pipeline: ComposerPipeline, song: SongState) -> set[str]:
    """Tracks frozen by the producer, or all of them when the parts were approved at a gate."""
    record = pipeline.stages.get(4)
    approved = (
        4 in pipeline.config.approval_gates and record is not None and record.status == "completed"
    )
    return {t.id for t in song.tracks if t.frozen or approved}


def _label(targets: Targets, label: str) -> None:
    if label not in targets.labels:
        targets.labels.append(label)
