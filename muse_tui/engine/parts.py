"""Stage 4's concurrency: every part runs at once, section by section, on worker threads.

A part that waits for another (bass for drums) awaits that part's *same section*
only, so the bass of section 2 can be written while the drums of section 3 are.
A failed part releases its waiters with `None` instead of leaving them hanging.
"""

from __future__ import annotations

import asyncio

from muse_tui.contracts import Region, SongState, Track

from .stages import PartsPlan, PartTask, StageContext


class PartsFailed(Exception):
    """One or more parts failed; the message names each role and why."""


async def write_parts(song: SongState, ctx: StageContext, plan: PartsPlan) -> list[Track]:
    """Write every part of the plan concurrently and return the finished tracks in plan order."""
    loop = asyncio.get_running_loop()
    ready: dict[tuple[str, int], asyncio.Future[Region | None]] = {
        (task.role, i): loop.create_future()
        for task in plan.tasks
        for i in range(len(plan.sections))
    }
    roles = {task.role for task in plan.tasks}
    total = len(plan.tasks) * len(plan.sections) or 1
    done = 0

    async def write(task: PartTask) -> Track:
        nonlocal done
        regions: list[Region] = []
        try:
            for i, section in enumerate(plan.sections):
                deps: dict[str, Region | None] = {}
                for other in task.waits_for:
                    if other in roles:
                        deps[other] = await ready[(other, i)]
                region = await asyncio.to_thread(task.write_section, song, ctx, section, deps)
                regions.append(region)
                ready[(task.role, i)].set_result(region)
                done += 1
                ctx.progress(f"{task.track.name}: {section.name}", done / total)
        finally:
            for i in range(len(plan.sections)):  # release waiters of sections never written
                if not ready[(task.role, i)].done():
                    ready[(task.role, i)].set_result(None)
        return task.track.model_copy(update={"regions": regions})

    if not ctx.config.parallel_midi_generation:
        ordered = _dependencies_first(plan.tasks)
        return _in_plan_order(plan.tasks, [await write(t) for t in ordered])

    results = await asyncio.gather(*(write(t) for t in plan.tasks), return_exceptions=True)
    failures = [
        f"{task.role}: {result}"
        for task, result in zip(plan.tasks, results, strict=True)
        if isinstance(result, BaseException)
    ]
    if failures:
        raise PartsFailed("; ".join(failures))
    return [r for r in results if isinstance(r, Track)]


def _dependencies_first(tasks: list[PartTask]) -> list[PartTask]:
    """Sequential order in which no part comes before a part it waits for."""
    placed: list[PartTask] = []
    pending = list(tasks)
    while pending:
        ready_now = [
            t for t in pending if all(w not in {p.role for p in pending} for w in t.waits_for)
        ]
        nxt = ready_now[0] if ready_now else pending[0]  # a cycle: break it rather than hang
        placed.append(nxt)
        pending.remove(nxt)
    return placed


def _in_plan_order(tasks: list[PartTask], tracks: list[Track]) -> list[Track]:
    by_id = {t.id: t for t in tracks}
    return [by_id[task.track.id] for task in tasks]
