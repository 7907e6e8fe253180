"""A/B alternatives for one element of the song: generated, scored, ranked, cached, picked.

What each option (A … E) means and how it is made lives in
`compose.iteration.options` and `compose.iteration.variants`; here the sets
are kept. No two variants are the same take: a near-duplicate is generated
again, one retry further, until it differs. Sets live in
`ComposerPipeline.alternatives`, so they survive a checkpoint and a resume
without being generated again.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path

from muse_tui.compose.iteration.history import intent_changes, song_changes
from muse_tui.compose.iteration.options import (
    LABELS,
    AlternativesError,
    Candidate,
    Slot,
    batch_lift,
)
from muse_tui.compose.iteration.revision import COST_ORDER
from muse_tui.compose.iteration.scores import content_hash
from muse_tui.compose.iteration.takes import with_take
from muse_tui.compose.iteration.variants import (
    element_content,
    make_variant,
    put_variant,
    variant_notes,
)
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import (
    Alternative,
    AlternativeElement,
    AlternativeSet,
    ArrangementElement,
    ComposerPipeline,
    EffectChainElement,
    PresetElement,
    ProgressionElement,
    Take,
    Track,
    TrackElement,
    new_id,
)
from muse_tui.contracts.editing import AlternativesResult, ModifySongResult
from muse_tui.store.checkpoint import write_checkpoint
from muse_tui.store.transaction import session_change

from .commit import apply_draft, utc_now
from .planning import blast_radius, plan_targets
from .regenerate import Draft, assemble, regenerate, rewrite_part

Clock = Callable[[], datetime]
MAX_ATTEMPTS = 4  # retries, each with the dials (and then the density) moved further
__all__ = [
    "AlternativesError",
    "element_for",
    "generate_alternatives",
    "select_alternative",
    "variant_notes",
    "variant_tracks",
]


def element_for(pipeline: ComposerPipeline, spec: str) -> AlternativeElement:
    """`progression`, `arrangement`, `track:ROLE`, `preset:ROLE` or `effects:ROLE` as an element."""
    kind, _, role = spec.partition(":")
    if kind in ("progression", "arrangement") and not role:
        return ProgressionElement() if kind == "progression" else ArrangementElement()
    track = pipeline.song_state.track(role) if role else None
    if track is None:
        have = ", ".join(t.role for t in pipeline.song_state.tracks) or "none"
        raise AlternativesError(f"there is no {role or 'track'} to vary (tracks: {have}).")
    if kind == "track":
        return TrackElement(track_id=track.id, role=track.role)
    if kind == "preset":
        return PresetElement(track_id=track.id)
    if kind in ("effects", "effect_chain"):
        return EffectChainElement(track_id=track.id)
    raise AlternativesError(
        f"{spec!r} is not an element: use progression, arrangement, track:ROLE…"
    )


def generate_alternatives(
    pipeline: ComposerPipeline,
    element: AlternativeElement,
    count: int = 3,
    *,
    batch: int = 0,
    session_dir: Path | None = None,
    clock: Clock = utc_now,
) -> AlternativesResult:
    """Variants of one element, best first; a cached set still matching the song is reused."""
    count = max(2, min(5, count))
    cached = _cached(pipeline, element)
    if cached is not None and batch == 0 and len(cached.variants) >= count:
        return AlternativesResult(
            alternative_set=cached,
            pipeline=pipeline,
            comparison_text=comparison_text(cached),
            reused=True,
        )
    lift = batch_lift(batch)
    write = partial(_written, pipeline)
    candidates: list[Candidate] = []
    for slot in range(count):
        found = _distinct(
            lambda attempt, slot=slot: make_variant(
                pipeline, element, Slot(slot, lift, attempt, batch), write
            ),
            candidates,
        )
        if found is not None:
            candidates.append(found)
    if not candidates:
        raise AlternativesError("there is nothing to vary here yet.")
    variants = [
        Alternative(
            label=LABELS[i],
            description=c.description,
            data=c.data,
            score=c.score,
            parameter_delta=c.delta,
            content_hash=c.hash,
        )
        for i, c in enumerate(candidates)
    ]
    current = content_hash(element_content(pipeline, element))
    variants.sort(key=lambda v: (-v.score, v.label))
    in_use = next((i for i, v in enumerate(variants) if v.content_hash == current), 0)
    seed = pipeline.song_state.seed
    alt_set = AlternativeSet(
        id=new_id(
            derive_rng(seed, "alternatives", len(pipeline.alternatives), element.type, batch)
        ),
        element=element,
        variants=variants,
        selected_index=in_use,
        generated_at=clock().isoformat(),
        batch=batch,
    )
    kept = [s for s in pipeline.alternatives if not (s.element == element and s.batch == batch)]
    updated = pipeline.model_copy(update={"alternatives": [*kept, alt_set]})
    if session_dir is not None:
        with session_change(session_dir):  # under the lock, refused if a rival wrote since
            write_checkpoint(session_dir, updated)
    return AlternativesResult(
        alternative_set=alt_set, pipeline=updated, comparison_text=comparison_text(alt_set)
    )


def select_alternative(
    pipeline: ComposerPipeline,
    set_id: str,
    index: int,
    *,
    session_dir: Path | None = None,
    clock: Clock = utc_now,
) -> ModifySongResult:
    """Put one variant in the song: downstream parts regenerate, history records it."""
    alt_set = next((s for s in pipeline.alternatives if s.id == set_id), None)
    if alt_set is None:
        raise AlternativesError("that set of alternatives is gone; generate new ones.")
    if not 0 <= index < len(alt_set.variants):
        raise AlternativesError(
            f"there are {len(alt_set.variants)} variants, no number {index + 1}."
        )
    variant = alt_set.variants[index]
    draft, what = _placed_variant(Draft.of(pipeline, clock), alt_set.element, variant)
    targets = plan_targets(draft, blast_radius(draft.triggers))
    regenerate(draft, targets)
    chosen = alt_set.model_copy(update={"selected_index": index})
    sets = [chosen if s.id == set_id else s for s in pipeline.alternatives]
    base = pipeline.model_copy(update={"alternatives": sets})
    changes = song_changes(pipeline.song_state, draft.song) + intent_changes(
        pipeline.intent, draft.intent
    )
    text = f"Use option {variant.label} for {what}"
    regenerated = [*draft.touched, *targets.labels]
    if not changes:
        if session_dir is not None:
            with session_change(session_dir):
                write_checkpoint(session_dir, base)
        return ModifySongResult(
            status="no_change",
            song_state=base.song_state,
            pipeline=base,
            summary=f"Option {variant.label} is what {what} already plays.",
        )
    cost = max([draft.cost, *targets.costs], key=COST_ORDER.__getitem__)
    return apply_draft(
        base,
        draft,
        text,
        changes,
        regenerated,
        cost,
        session_dir=session_dir,
        summary=f"{text}: {variant.description}.",
        agent="alternatives",
        clock=clock,
    )


async def try_something_different(
    pipeline: ComposerPipeline, *, session_dir: Path | None = None, clock: Clock = utc_now
) -> ModifySongResult:
    """The next variant of the latest set; past the last, a new batch with the dials raised."""
    if not pipeline.alternatives:
        made = generate_alternatives(
            pipeline, ProgressionElement(), session_dir=session_dir, clock=clock
        )
        pipeline, alt_set = made.pipeline, made.alternative_set
    else:
        alt_set = pipeline.alternatives[-1]
    following = alt_set.selected_index + 1
    if following >= len(alt_set.variants):
        made = generate_alternatives(
            pipeline,
            alt_set.element,
            len(alt_set.variants),
            batch=alt_set.batch + 1,
            session_dir=session_dir,
            clock=clock,
        )
        pipeline, alt_set, following = made.pipeline, made.alternative_set, 0
    return select_alternative(pipeline, alt_set.id, following, session_dir=session_dir, clock=clock)


def comparison_text(alt_set: AlternativeSet) -> str:
    """The variants as a producer reads them: label, score, how each differs."""
    lines = []
    for i, v in enumerate(alt_set.variants):
        mark = " (in use)" if i == alt_set.selected_index else ""
        lines.append(f"Option {v.label} (score {v.score:.2f}){mark}: {v.description}")
    return "\n".join(lines)


def variant_tracks(pipeline: ComposerPipeline, alt_set: AlternativeSet, index: int) -> list[Track]:
    """The tracks that would sound different with this variant in place, for auditioning."""
    variant = alt_set.variants[index]
    draft, _ = _placed_variant(Draft.of(pipeline, utc_now), alt_set.element, variant)
    regenerate(draft, plan_targets(draft, blast_radius(draft.triggers)))
    before = {t.id: t for t in pipeline.song_state.tracks}
    return [t for t in draft.song.tracks if before.get(t.id) != t]


def _placed_variant(
    draft: Draft, element: AlternativeElement, variant: Alternative
) -> tuple[Draft, str]:
    """The draft with the variant in place (a part re-assembled where it plays), and what for."""
    draft, what = put_variant(draft, element, variant)
    if isinstance(element, TrackElement):
        assemble(draft, [element.track_id])
    return draft, what


def _written(pipeline: ComposerPipeline, track_id: str, take: Take) -> Track:
    """The track written again with `take` (and the song's standing edits), assembled."""
    draft = Draft.of(pipeline, utc_now)
    draft.intent = with_take(draft.intent, take)
    rewrite_part(draft, track_id)
    assemble(draft, [track_id])
    found = draft.song.track(track_id)
    assert found is not None
    return found


def _cached(pipeline: ComposerPipeline, element: AlternativeElement) -> AlternativeSet | None:
    """The latest set for this element, if the song still plays one of its variants."""
    current = content_hash(element_content(pipeline, element))
    for alt_set in reversed(pipeline.alternatives):
        if alt_set.element == element:
            return alt_set if any(v.content_hash == current for v in alt_set.variants) else None
    return None


def _distinct(make: Callable[[int], Candidate | None], taken: list[Candidate]) -> Candidate | None:
    """A candidate unlike those taken; each retry raises the dials a little more."""
    last = None
    for attempt in range(MAX_ATTEMPTS):
        candidate = make(attempt)
        if candidate is None:
            return None
        if all(candidate.hash != t.hash for t in taken):
            last = candidate
            if all(candidate.distance_to(t) >= candidate.minimum for t in taken):
                return candidate
    return last
