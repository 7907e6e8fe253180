"""The jam's run loop: rounds with deadlines, members who keep their part when they miss one.

`Jam` holds the band between rounds. `next_round(line)` reads the producer's
line as directions, plans the round (`compose.jam`), then has each member who
replays write their part on a worker thread with a deadline. A member who
fails (raises) or misses the deadline keeps the part they played last and
says so; the round goes on with everyone else. Drummers play first so that a
bass on the kick reads this round's kick.

`keep(folder)` writes the loop now playing as an ordinary session, through the
product's own stages 5–8 (sounds, MIDI, critics, the session files), so
`muse-studio play`, MPC Beats and strict parsers take it like any other song.
"""

from __future__ import annotations

import concurrent.futures
import logging
from collections.abc import Callable
from pathlib import Path

from muse_tui.compose.jam import (
    RoundPlan,
    finish_round,
    plan_round,
    play_member,
    read_directives,
    read_line,
    start_jam,
)
from muse_tui.compose.jam.band import Player, failed_thought
from muse_tui.compose.jam.song import KEPT_BARS, round_song
from muse_tui.contracts import (
    ArrangementOutput,
    HarmonyOutput,
    PipelineConfig,
    PipelineIntent,
    Region,
    Section,
    SongState,
    Track,
    new_id,
)
from muse_tui.contracts.jam import Directive, JamRound, JamSession
from muse_tui.knowledge.jam import band_table
from muse_tui.store.progression_file import write_progression

from .orchestrator import Orchestrator, run_blocking
from .registry import finish_parts, product_stages
from .stages import PartsPlan, PartsStage, PartTask, StageContext, StageResult

log = logging.getLogger(__name__)


class Jam:
    """A band playing one loop, round after round, taking the producer's directions."""

    def __init__(
        self,
        prompt: str,
        seed: int = 0,
        *,
        player: Player = play_member,
        deadline_s: float | None = None,
        loop_bars: int | None = None,
    ) -> None:
        self._player = player
        self._deadline = deadline_s or band_table().round_deadline_seconds
        self._pool = _member_pool()
        intent, plan = start_jam(prompt, seed, loop_bars=loop_bars)
        first = self._play(intent, seed, plan, None)
        self.session = JamSession(prompt=prompt, seed=seed, intent=intent, round=first)

    @property
    def round(self) -> JamRound:
        return self.session.round

    def directives(self, line: str) -> list[Directive]:
        """What a line asks of the band (nothing understood: an empty list)."""
        return read_directives(line, band_table().members)

    def next_round(self, line: str = "") -> JamRound:
        """The next pass of the loop, after the directions in `line` (if any)."""
        directives, unread = read_line(line, band_table().members) if line.strip() else ([], [])
        plan = plan_round(self.session, directives, unread=unread)
        played = self._play(self.session.intent, self.session.seed, plan, self.session.round)
        self.session = self.session.model_copy(update={"round": played})
        return played

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> Jam:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _play(
        self, intent: PipelineIntent, seed: int, plan: RoundPlan, last: JamRound | None
    ) -> JamRound:
        """Each member who replays, in turn, with a deadline; the late and the failed hold."""
        parts: dict[str, Region | None] = {}
        kick = _drums_part(last)
        for member_plan in plan.playing():
            state = member_plan.state
            future = self._pool.submit(
                self._player,
                intent,
                plan.context,
                state,
                seed,
                plan.number,
                kick,
                member_plan.want,
            )
            try:
                part = future.result(timeout=self._deadline)
            except concurrent.futures.TimeoutError:
                log.warning("%s missed round %d's deadline", state.name, plan.number)
                part = None
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = _member_pool()  # the late member keeps the old one busy
            except Exception:  # a member's failure never stops the jam
                log.exception("%s failed in round %d", state.name, plan.number)
                part = None
            parts[state.id] = part
            if part is not None and state.track.is_drums:
                kick = part
        played = finish_round(plan, parts)
        return _with_failures(played, plan, last)

    def keep(self, folder: Path) -> Path:
        """The loop now playing as an ordinary session folder under `folder`; its path."""
        return keep_round(self.session, folder)


def _member_pool() -> concurrent.futures.ThreadPoolExecutor:
    """The one worker a member plays on (a new one after a member missed the deadline)."""
    return concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="jam-member")


def _drums_part(last: JamRound | None) -> Region | None:
    if last is None:
        return None
    drums = next((m for m in last.members if m.track.is_drums), None)
    return drums.part if drums is not None else None


def _with_failures(played: JamRound, plan: RoundPlan, last: JamRound | None) -> JamRound:
    """Failed members keep last round's part and say why (first round: an empty part)."""
    members = []
    for member in played.members:
        if member.change == "failed":
            before = last.member(member.id) if last is not None else None
            member = member.model_copy(
                update={
                    "part": before.part if before is not None else None,
                    "variant": before.variant if before is not None else member.variant,
                    "energy": before.energy if before is not None else member.energy,
                    "thought": failed_thought(plan, member.id),
                }
            )
        members.append(member)
    return played.model_copy(update={"members": members})


# --- keep this -------------------------------------------------------------------------------


def keep_round(session: JamSession, folder: Path) -> Path:
    """Write the loop through stages 5–8 into a new session under `folder`; its path."""
    song = round_song(session.prompt, session.seed, session.round, KEPT_BARS)
    stages = product_stages()
    real_intent = stages[1]

    def intent(s: SongState, ctx: StageContext) -> StageResult:
        result = real_intent(s, ctx)  # type: ignore[operator]
        kept = result.song.model_copy(
            update={"tempo": song.tempo, "key": song.key, "mode": song.mode}
        )
        return StageResult(result.output, kept, result.summary)

    def harmony(s: SongState, ctx: StageContext) -> StageResult:
        assert song.progression is not None
        written = write_progression(ctx.session_dir, song.progression, durable=False)
        output = HarmonyOutput(progression=song.progression, progression_file_path=written.path)
        chords = " ".join(c.symbol for c in song.progression.chords)
        return StageResult(output, s.model_copy(update={"progression": song.progression}), chords)

    def arrangement(s: SongState, ctx: StageContext) -> StageResult:
        assert song.arrangement is not None
        output = ArrangementOutput(arrangement=song.arrangement)
        summary = f"the jam's loop, {song.arrangement.total_bars} bars"
        return StageResult(output, s.model_copy(update={"arrangement": song.arrangement}), summary)

    def plan(s: SongState, ctx: StageContext) -> PartsPlan:
        assert song.arrangement is not None
        return PartsPlan(
            tasks=[PartTask(track=_empty(t), write_section=_placed(t)) for t in song.tracks],
            sections=list(song.arrangement.sections),
        )

    stages.update({1: intent, 2: harmony, 3: arrangement, 4: PartsStage(plan, finish_parts)})
    engine = Orchestrator(stages, folder)
    config = PipelineConfig(approval_gates=[])
    bars = str(song.arrangement.total_bars if song.arrangement else KEPT_BARS)
    pipeline = run_blocking(
        engine.run(session.prompt, seed=session.seed, config=config, answers={"bars": bars})
    )
    return folder / pipeline.session_id


def _empty(track: Track) -> Track:
    return track.model_copy(update={"regions": []})


def _placed(track: Track) -> Callable[..., Region]:
    """A section writer that hands back the kept loop's region for that section."""
    by_start = {r.start_beat: r for r in track.regions}

    def write(s: SongState, ctx: StageContext, section: Section, deps: object) -> Region:
        start = section.start_bar * s.beats_per_bar
        region = by_start.get(start)
        if region is None:
            length = section.bars * s.beats_per_bar
            region = Region(
                id=new_id(ctx.rng(f"{track.role}:{section.start_bar}")),
                name=f"{track.name} · {section.name}",
                start_beat=start,
                length_beats=length,
            )
        return region

    return write
