"""A studio built for tests: fake stages, a fixed clock, seed and ids, a fake MIDI player.

Nothing here opens a real MIDI port or watches files, spinners stand still and
stage timings are normalised, so two runs paint the same screen.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from muse_tui.audition import Playhead
from muse_tui.contracts import STAGE_NAMES, PipelineEvent, SongState
from muse_tui.engine.protocols import EventSink
from muse_tui.engine.stages import StageContext, StageRegistry, StageResult
from muse_tui.tui.app import StudioApp
from muse_tui.tui.auditioning import AuditionUnavailable
from muse_tui.tui.config import BUNDLED_THEMES, StudioConfig
from tests.engine.fakes import FIXED_CLOCK, Knobs, fake_registry

SESSION_IDS = ("session-20261122-abc123", "session-20261122-abc124", "session-20261122-abc125")
PORTS = ["IAC Driver Bus 1", "loopMIDI Port"]


class FakePlayer:
    """Records what the studio asked for; the test sets where the playhead is."""

    def __init__(self, port_name: str | None = "IAC Driver Bus 1") -> None:
        self.calls: list[tuple[Any, ...]] = []
        self._status = "stopped"
        self._port = port_name
        self.position = (0, 0.0)
        self.song: SongState | None = None

    def load(self, song: SongState) -> None:
        self.song = song
        self._status = "stopped"
        self.calls.append(("load", song.title))

    def play(self, from_bar: int | None = 0, to_bar: int | None = None) -> None:
        self._status = "playing"
        self.position = (from_bar or 0, 0.0)
        self.calls.append(("play", from_bar))

    def stop(self) -> None:
        self._status = "stopped"
        self.calls.append(("stop",))

    def loop(self, start_bar: int | None, end_bar: int | None = None) -> None:
        self.calls.append(("loop", start_bar, end_bar))

    def mute(self, role_or_id: str, on: bool = True) -> None:
        self.calls.append(("mute", role_or_id, on))

    def solo(self, role_or_id: str, on: bool = True) -> None:
        self.calls.append(("solo", role_or_id, on))

    def play_only(self, role_or_id: str | None) -> None:
        self.calls.append(("play_only", role_or_id))

    def set_alternative(self, role_or_id: str, alternative: Any) -> None:
        notes = None if alternative is None else len(alternative.notes)
        self.calls.append(("set_alternative", role_or_id, notes))

    @contextlib.contextmanager
    def together(self) -> Iterator[None]:
        """The calls inside are recorded between a "together" and an "apart"."""
        self.calls.append(("together",))
        yield
        self.calls.append(("apart",))

    def close(self, timeout: float = 5.0) -> None:
        self._status = "closed"
        self.calls.append(("close",))

    @property
    def playhead(self) -> Playhead:
        bar, beat = self.position
        playing = self._status == "playing"
        song_beat = bar * 4 + beat
        return Playhead(bar, beat, song_beat * 60 / 140, playing, 140.0, song_beat)

    @property
    def status(self) -> str:
        return self._status

    @property
    def pending(self) -> bool:
        return False  # a fake carries out every call at once

    @property
    def last_error(self) -> str | None:
        return None

    @property
    def port_name(self) -> str | None:
        return self._port


@dataclass
class Players:
    """Hands out FakePlayers and remembers them; `unavailable` simulates a machine without MIDI."""

    unavailable: bool = False
    opened: list[FakePlayer] = field(default_factory=list)

    def __call__(self, port_name: str | None) -> FakePlayer:
        if self.unavailable:
            raise AuditionUnavailable("No MIDI system is running: start JACK or load snd-seq.")
        player = FakePlayer(port_name or "muse-studio")
        self.opened.append(player)
        return player

    @property
    def last(self) -> FakePlayer:
        return self.opened[-1]


class SteadyTimings:
    """Stage durations as fixed numbers, so the tracker reads the same on every run."""

    def __init__(self, inner: EventSink) -> None:
        self.inner = inner

    def emit(self, event: PipelineEvent) -> None:
        if event.kind == "stage_completed":
            event = event.model_copy(update={"duration_ms": 100.0 * event.stage + 20})
        elif event.kind == "pipeline_finished":
            event = event.model_copy(update={"duration_ms": 1234.0})
        self.inner.emit(event)


@dataclass
class Hold:
    """Holds a stage until released (or the app shuts down): a run caught in the middle."""

    stage: int
    released: threading.Event = field(default_factory=threading.Event)
    entered: threading.Event = field(default_factory=threading.Event)

    def wrap(self, registry: StageRegistry) -> StageRegistry:
        inner = registry[self.stage]

        def held(song: SongState, ctx: StageContext) -> StageResult:
            ctx.progress("placing sections", 0.4)
            self.entered.set()
            self.released.wait(timeout=30)
            return inner(song, ctx)  # type: ignore[operator,return-value]

        return {**registry, self.stage: held}


class HarnessStudio(StudioApp):
    """The studio, releasing any held stage as it closes so worker threads end."""

    holds: list[Hold]

    def on_unmount(self) -> None:
        for hold in self.holds:
            hold.released.set()
        super().on_unmount()


def make_studio(
    tmp_path: Path,
    *,
    knobs: Knobs | None = None,
    hold: Hold | None = None,
    players: Players | None = None,
    registry: Callable[[], StageRegistry] | None = None,
    settings: str | None = None,
    **overrides: Any,
) -> HarnessStudio:
    """A deterministic studio writing under `tmp_path`; `settings` is settings.toml's text."""
    settings_path = tmp_path / "config" / "settings.toml"
    if settings is not None:
        settings_path.parent.mkdir(parents=True, exist_ok=True)
        settings_path.write_text(settings, encoding="utf-8")
    ids = itertools.cycle(SESSION_IDS)

    def stages() -> StageRegistry:
        built = registry() if registry else fake_registry(knobs)
        return hold.wrap(built) if hold else built

    config = StudioConfig(
        stages=stages,
        sessions_root=tmp_path / "sessions",
        settings_path=settings_path,
        clock=lambda: FIXED_CLOCK,
        monotonic=lambda: 100.0,
        seed=7,
        session_ids=lambda: next(ids),
        open_player=players if players is not None else Players(),
        list_ports=lambda: list(PORTS),
        themes_dirs=(BUNDLED_THEMES,),
        watch=False,
        animate=False,
        sink_wrapper=SteadyTimings,
    )
    for key, value in overrides.items():
        setattr(config, key, value)
    app = HarnessStudio(config)
    app.holds = [hold] if hold else []
    return app


SUMMARIES = {
    1: "uk garage in C minor at 140 BPM",
    2: "4-chord progression in C minor (Cm → Ab → Eb → Bb)",
    3: "4 sections, 24 bars (uk_garage)",
    4: "4 parts",
    5: "4 presets, 2 effect chains",
    6: "5 MIDI files",
    7: "composite 0.82 (passed)",
    8: "session written",
}


def write_session(
    root: Path, session_id: str, song: SongState, *, prompt: str, finished: bool = True
) -> Path:
    """A session folder as a run leaves it: the checkpoint, and the manifest when it finished."""
    from muse_tui.contracts import ComposerPipeline, SessionManifest, StageRecord, new_id
    from muse_tui.store.atomic import write_atomic
    from muse_tui.store.checkpoint import write_checkpoint

    last = 8 if finished else 3
    stamp = FIXED_CLOCK.isoformat()
    pipeline = ComposerPipeline(
        pipeline_id=new_id(random.Random(session_id)),
        session_id=session_id,
        raw_prompt=prompt,
        status="completed" if finished else "cancelled",
        song_state=song,
        created_at=stamp,
        updated_at=stamp,
        stages={
            n: StageRecord(
                stage=n, name=name, status="completed", summary=SUMMARIES[n], duration_ms=90.0 * n
            )
            for n, name in STAGE_NAMES.items()
            if n <= last
        },
        total_duration_ms=2345.0,
    )
    pipeline.recovery.last_successful_stage = last
    folder = root / session_id
    write_checkpoint(folder, pipeline)
    if finished:
        manifest = SessionManifest(
            session_id=session_id,
            pipeline_id=pipeline.pipeline_id,
            created_at=stamp,
            prompt=prompt,
            genre=song.genre,
            key=f"{song.key} {song.mode}",
            tempo=song.tempo,
            total_bars=24,
            track_count=len(song.tracks),
            files=[],
            muse_version="test",
        )
        write_atomic(folder / "manifest.json", manifest.to_json())
    return folder


async def until(pilot: Any, condition: Callable[[], object], timeout: float = 10.0) -> None:
    """Let the app run until `condition()` holds; fail after `timeout` seconds, never hang."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting after {timeout} s for {condition}")
        await pilot.pause(0.01)
