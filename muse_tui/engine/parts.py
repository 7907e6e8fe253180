"""Stage 4's concurrency: every part runs at once on its own thread, section by section.

A part that waits for another (bass for drums) waits for that part's *same
section* only, so the bass of section 2 is written while the drums of section 3
are. A failed part releases its waiters with `None` instead of leaving them
hanging, and an abandoned stage (timeout, cancel) releases everyone.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from muse_tui.contracts import Region, SongState, Track

from .stages import PartsPlan, PartTask, StageContext

#: How often a waiting part checks whether the stage was abandoned, in seconds.
_POLL = 0.05


class PartsFailed(Exception):
    """One or more parts failed; the message names each role and why."""


class _Abandoned(Exception):
    """The stage stopped waiting for this part (it timed out or was cancelled)."""


@dataclass
class _Section:
    """One part's region for one section, once written (or None if it never will be)."""

    done: threading.Event = field(default_factory=threading.Event)
    region: Region | None = None

    def publish(self, region: Region | None) -> None:
        if not self.done.is_set():
            self.region = region
            self.done.set()


async def write_parts(song: SongState, ctx: StageContext, plan: PartsPlan) -> list[Track]:
    """Write every part of the plan and return the finished tracks in plan order."""
    sections = {
        (task.role, i): _Section() for task in plan.tasks for i in range(len(plan.sections))
    }
    roles = {task.role for task in plan.tasks}
    total = len(plan.tasks) * len(plan.sections) or 1
    abandoned = threading.Event()
    counter = threading.Lock()
    done = [0]

    def await_section(role: str, i: int) -> Region | None:
        slot = sections[(role, i)]
        while not slot.done.wait(_POLL):
            if abandoned.is_set():
                raise _Abandoned
        return slot.region

    def write(task: PartTask) -> Track:
        regions: list[Region] = []
        try:
            for i, section in enumerate(plan.sections):
                deps = {w: await_section(w, i) for w in task.waits_for if w in roles}
                region = task.write_section(song, ctx, section, deps)
                regions.append(region)
                sections[(task.role, i)].publish(region)
                with counter:
                    done[0] += 1
                    fraction = done[0] / total
                ctx.progress(f"{task.track.name}: {section.name}", fraction)
        finally:
            for i in range(len(plan.sections)):  # release waiters of sections never written
                sections[(task.role, i)].publish(None)
        return task.track.model_copy(update={"regions": regions})

    # A pool of its own, one thread per part: a part waiting for another must never
    # hold the only worker the other one needs.
    parallel = ctx.config.parallel_midi_generation
    pool = ThreadPoolExecutor(
        max_workers=len(plan.tasks) if parallel else 1, thread_name_prefix="part"
    )
    loop = asyncio.get_running_loop()
    try:
        if parallel:
            futures = [loop.run_in_executor(pool, write, task) for task in plan.tasks]
            results = await asyncio.gather(*futures, return_exceptions=True)
        else:
            by_id: dict[str, Track | BaseException] = {}
            for task in _dependencies_first(plan.tasks):
                try:
                    by_id[task.track.id] = await loop.run_in_executor(pool, write, task)
                except Exception as exc:
                    by_id[task.track.id] = exc
            results = [by_id[task.track.id] for task in plan.tasks]
    except BaseException:
        abandoned.set()  # timed out or cancelled: waiting threads stop waiting
        raise
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    failures = [
        f"{task.role}: {str(result) or type(result).__name__}"  # a bare assert says its kind
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
        waiting_on = {p.role for p in pending}
        ready = [t for t in pending if not any(w in waiting_on for w in t.waits_for)]
        nxt = ready[0] if ready else pending[0]  # a cycle: break it rather than hang
        placed.append(nxt)
        pending.remove(nxt)
    return placed
