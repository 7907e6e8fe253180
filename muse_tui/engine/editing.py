"""Change requests on a finished song: the request, the gate, the commit, undo, redo, files.

`modify` makes the direct edits (`compose.iteration`), plans what the
sensitivity map reaches two levels out (`engine.planning`), regenerates only
that (`engine.regenerate`), records every atomic change, and rewrites only the
files whose content moved. A component frozen by the producer or approved at a gate is kept
when it is reached only at the second level. Expensive changes (key, tempo,
genre) ask the `ApprovalGate` first, saying what will be regenerated and what stays.
"""

from __future__ import annotations

from pathlib import Path

from muse_tui.compose.iteration.apply import apply_edit
from muse_tui.compose.iteration.history import applied, intent_changes, song_changes
from muse_tui.compose.iteration.revision import (
    COST_ORDER,
    EditError,
    component_labels,
    listed,
)
from muse_tui.compose.iteration.scoped_edits import confine, resolve
from muse_tui.compose.iteration.vague import vague_answer
from muse_tui.compose.requests import ChangeRequest
from muse_tui.compose.seeding import derive_rng
from muse_tui.contracts import (
    Ambiguity,
    Change,
    ComposerPipeline,
    Cost,
    HistoryEntry,
    ModificationRequest,
    SensitivityMap,
    new_id,
)
from muse_tui.contracts.editing import ModifySongResult, UndoResult

from .alternatives import try_something_different
from .commit import Clock, apply_draft, utc_now, write_changed_files
from .planning import Reach, blast_radius, plan_targets
from .protocols import ApprovalGate, AutoApprove
from .regenerate import Draft, regenerate
from .routing import route
from .stage_records import synced_stages


async def modify(
    pipeline: ComposerPipeline,
    said: str | ChangeRequest,
    *,
    session_dir: Path | None = None,
    gate: ApprovalGate | None = None,
    clock: Clock = utc_now,
    sensitivity: SensitivityMap | None = None,
) -> ModifySongResult:
    """Carry out a change request on the session's song; praise and questions change nothing.

    "undo"/"redo" and "try something different" are understood too. Files are
    rewritten only when `session_dir` is given. `said` is the line as typed, or as
    `engine.routing.route` already read it.
    """
    if isinstance(said, str):
        routed = route(said, session_open=True)
        if routed.kind == "question":  # "why did you pick Eb minor?" asks; it changes nothing
            return _unchanged(pipeline, "question", routed.request.text)
        said = routed.request
    request = said
    text = request.text
    if request.kind in ("undo", "redo"):
        step = undo if request.kind == "undo" else redo
        done = step(pipeline, request.steps, session_dir=session_dir)
        return _from_undo(done)
    if request.kind == "try_again":
        return await try_something_different(pipeline, session_dir=session_dir, clock=clock)
    if request.kind == "vague" and pipeline.intent is not None:  # a question back, no change
        answer = vague_answer(pipeline.song_state, pipeline.intent)
        return _unchanged(pipeline, "vague", text, answer.sentence)
    if request.kind != "change":
        return _unchanged(pipeline, request.kind, text)

    try:
        draft = Draft.of(pipeline, clock)
        for edit in request.edits:
            draft = apply_edit(draft, edit)
    except EditError as exc:
        return _unchanged(pipeline, "no_change", text, str(exc))
    reaches = blast_radius(draft.triggers, sensitivity)
    targets = plan_targets(draft, reaches)
    cost = max([draft.cost, *targets.costs], key=COST_ORDER.__getitem__)
    regenerated = [*draft.touched, *targets.labels]
    kept = [c for c in component_labels(draft.song) if c not in regenerated]
    modification = _modification(pipeline, request.text, draft, reaches, cost)
    if cost == "expensive" and not await _confirmed(gate, draft, regenerated, kept):
        return ModifySongResult(
            status="declined",
            song_state=pipeline.song_state,
            pipeline=pipeline,
            request=modification,
            preserved_components=component_labels(pipeline.song_state),
            cost=cost,
            summary="Left as it was.",
        )
    regenerate(draft, targets)
    resolved = [resolve(pipeline.song_state, e) for e in request.edits]
    draft.song = confine(pipeline.song_state, draft.song, resolved)  # nothing outside the scope
    changes = song_changes(pipeline.song_state, draft.song)
    changes += intent_changes(pipeline.intent, draft.intent)
    if not changes:
        return _unchanged(pipeline, "no_change", text, "That is how it already is.")
    summary = f"{' '.join(draft.sentences)} {_regenerated_sentence(regenerated, kept)}".strip()
    return apply_draft(
        pipeline,
        draft,
        text,
        changes,
        regenerated,
        cost,
        session_dir=session_dir,
        summary=summary,
        clock=clock,
        request=modification,
        kept=kept,
    )


def undo(
    pipeline: ComposerPipeline, steps: int = 1, *, session_dir: Path | None = None
) -> UndoResult:
    """Revert the last `steps` changes, newest first; their entries stay, marked undone."""
    history = list(pipeline.song_state.history)
    active = [i for i, e in enumerate(history) if not e.undone]
    chosen = list(reversed(active[-max(1, steps) :]))
    return _replay(pipeline, history, chosen, undoing=True, session_dir=session_dir)


def redo(
    pipeline: ComposerPipeline, steps: int = 1, *, session_dir: Path | None = None
) -> UndoResult:
    """Re-apply undone changes, oldest first (only those no newer change has replaced)."""
    history = list(pipeline.song_state.history)
    trailing: list[int] = []
    for i in range(len(history) - 1, -1, -1):
        if not history[i].undone:
            break
        trailing.insert(0, i)
    chosen = trailing[: max(1, steps)]
    return _replay(pipeline, history, chosen, undoing=False, session_dir=session_dir)


def _replay(
    pipeline: ComposerPipeline,
    history: list[HistoryEntry],
    chosen: list[int],
    *,
    undoing: bool,
    session_dir: Path | None,
) -> UndoResult:
    if not chosen:
        what = "undo" if undoing else "redo"
        return UndoResult(
            status="nothing",
            song_state=pipeline.song_state,
            pipeline=pipeline,
            summary=f"Nothing to {what}.",
        )
    song, intent = pipeline.song_state, pipeline.intent
    changes: list[Change] = []
    for i in chosen:
        song, intent = applied(song, intent, history[i].changes, undo=undoing)
        history[i] = history[i].model_copy(update={"undone": undoing})
        changes += history[i].changes
    song = song.model_copy(update={"history": history})
    text = "undo" if undoing else "redo"
    updated = pipeline.model_copy(
        update={
            "song_state": song,
            "intent": intent,
            "stages": synced_stages(pipeline, song, text),
        }
    )
    files = write_changed_files(session_dir, updated, changes) if session_dir else []
    entries = [history[i] for i in chosen]
    regenerated = list(dict.fromkeys(c for e in entries for c in e.regenerated))
    said = "; ".join(f"“{e.user_text}”" for e in entries)
    verb = "Undid" if undoing else "Redid"
    return UndoResult(
        status="undone" if undoing else "redone",
        song_state=song,
        pipeline=updated,
        entries=entries,
        regenerated_components=regenerated,
        updated_files=files,
        summary=f"{verb} {said}.",
    )


async def _confirmed(
    gate: ApprovalGate | None, draft: Draft, regenerated: list[str], kept: list[str]
) -> bool:
    what = draft.expensive_subject or "this"
    parts = [c for c in regenerated if ":" not in c]
    stays = [c for c in kept if c != "arrangement"] or kept
    redone = listed(["the " + parts[0], *parts[1:]]) if parts else "the sounds"
    sentence = f"{what[0].upper()}{what[1:]} will regenerate {redone}."
    if stays:
        kept_text = listed(stays)
        verb = "stays" if len(stays) == 1 else "stay"
        sentence += f" {kept_text[0].upper()}{kept_text[1:]} {verb}."
    question = Ambiguity(
        field="confirm_change",
        reason=f"{sentence} Proceed?",
        options=["yes", "no"],
        default_value="yes",
        severity="blocking",
    )
    answer = await (gate or AutoApprove()).ask(question)
    return answer is not None and answer.strip().lower() in ("yes", "y", "ok", "proceed")


def _modification(
    pipeline: ComposerPipeline, text: str, draft: Draft, reaches: list[Reach], cost: Cost
) -> ModificationRequest:
    seed = pipeline.song_state.seed
    return ModificationRequest(
        id=new_id(derive_rng(seed, "request", len(pipeline.song_state.history), text)),
        user_text=text,
        targets=draft.aims,
        blast_radius=list(dict.fromkeys(r.component for r in reaches)),
        estimated_cost=cost,
        confirmation_required=cost == "expensive",
    )


def _regenerated_sentence(regenerated: list[str], kept: list[str]) -> str:
    parts = [c for c in regenerated if ":" not in c]
    if not parts:
        return (
            "No MIDI regenerated."
            if any(c.startswith("effects:") or c.startswith("preset:") for c in regenerated)
            else ""
        )
    kept_parts = [c for c in kept if c not in ("progression", "arrangement")]
    tail = f"; kept {listed(kept_parts)}" if kept_parts else ""
    return f"Regenerated {listed(parts)}{tail}."


def _unchanged(
    pipeline: ComposerPipeline, kind: str, text: str, why: str | None = None
) -> ModifySongResult:
    replies = {
        "praise": "Glad it works. Nothing changed.",
        "question": "That is a question, so nothing changed; `muse-studio ask` answers it.",
        "unclear": "I could not tell what to change; try “make the bass simpler” "
        "or “3rd chord darker”.",
    }
    status = "not_understood" if kind == "unclear" else "no_change"
    return ModifySongResult(
        status=status,
        song_state=pipeline.song_state,
        pipeline=pipeline,
        preserved_components=component_labels(pipeline.song_state),
        summary=why or replies.get(kind, "Nothing changed."),
    )


def _from_undo(done: UndoResult) -> ModifySongResult:
    return ModifySongResult(
        status=done.status if done.status != "nothing" else "no_change",
        song_state=done.song_state,
        pipeline=done.pipeline,
        regenerated_components=done.regenerated_components,
        updated_files=done.updated_files,
        summary=done.summary,
    )
