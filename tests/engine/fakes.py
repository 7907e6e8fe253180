"""Fake stages for engine tests: small, deterministic, valid outputs; knobs to fail or stall.

They follow the real stages' contract (song in → StageResult out, seeded by the
context's RNG) so the engine is tested on its own terms: ordering, retries,
timeouts, gates, checkpoints, concurrency and resume.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from muse_tui.contracts import (
    Arrangement,
    ArrangementOutput,
    AssemblyOutput,
    EnrichedProgression,
    HarmonyOutput,
    IntentOutput,
    ManifestFile,
    Note,
    OutputOutput,
    PartsOutput,
    PatternSummary,
    PipelineIntent,
    ProgressionChord,
    QualityScore,
    Region,
    Section,
    SessionManifest,
    SongState,
    SoundsOutput,
    Track,
    TrackGenerationResult,
    ValidationOutput,
    new_id,
)
from muse_tui.engine.orchestrator import Orchestrator
from muse_tui.engine.protocols import PlaybackUnavailable, RecordingSink
from muse_tui.engine.stages import (
    PartsPlan,
    PartsStage,
    PartTask,
    StageContext,
    StageFailure,
    StageRegistry,
    StageResult,
)
from muse_tui.store.atomic import write_atomic

ROMAN = {"Cm": "i", "Ab": "VI", "Eb": "III", "Bb": "VII", "Fm": "iv", "Gm": "v"}
VOICINGS = {
    "Cm": [60, 63, 67],
    "Ab": [60, 63, 68],
    "Eb": [58, 63, 67],
    "Bb": [58, 62, 65],
    "Fm": [60, 65, 68],
    "Gm": [58, 62, 67],
}


@dataclass
class Knobs:
    """What to break, and how slowly to work. Counters are per stage number."""

    fail_first: dict[int, int] = field(default_factory=dict)  # stage → failures before success
    stall: dict[int, float] = field(default_factory=dict)  # stage → seconds to stall
    released: threading.Event = field(default_factory=threading.Event)  # ends every stall
    part_seconds: float = 0.0  # total time each part spends (spread over its sections)
    drums_fail: int = 0  # drum part failures before success
    calls: dict[int, int] = field(default_factory=dict)
    observed_kicks: dict[str, int | None] = field(default_factory=dict)  # bass: section → kicks
    #: role → [when its first section began writing, when its last one ended] (perf_counter)
    part_spans: dict[str, list[float]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def enter(self, stage: int) -> None:
        with self.lock:
            n = self.calls[stage] = self.calls.get(stage, 0) + 1
        if stage in self.stall:
            self.released.wait(self.stall[stage])
        if n <= self.fail_first.get(stage, 0):
            raise RuntimeError(f"injected failure {n} in stage {stage}")


def fake_registry(knobs: Knobs | None = None) -> StageRegistry:
    k = knobs or Knobs()

    def intent(song: SongState, ctx: StageContext) -> StageResult:
        k.enter(1)
        genre = ctx.answers.get("genre", "trap")
        intent = PipelineIntent(
            genre=[genre], tempo=140, key="C", mode="minor", raw_prompt=ctx.prompt
        )
        if "warm" in ctx.prompt and "genre" not in ctx.answers:
            from muse_tui.contracts import Ambiguity

            intent.ambiguities.append(
                Ambiguity(
                    field="genre",
                    reason="which genre is warm?",
                    options=["neo_soul", "lo_fi"],
                    severity="blocking",
                )
            )
        new = song.model_copy(update={"tempo": 140, "key": "C", "mode": "minor", "genre": genre})
        return StageResult(IntentOutput(intent=intent), new, f"{genre} in C minor at 140 BPM")

    def harmony(song: SongState, ctx: StageContext) -> StageResult:
        k.enter(2)
        rng = ctx.rng("progression")
        symbols = ["Cm", *rng.sample(["Ab", "Eb", "Bb", "Fm", "Gm"], 3)]
        progression = EnrichedProgression(
            key="C",
            mode="minor",
            variant=ctx.variant,
            chords=[
                ProgressionChord(symbol=s, roman=ROMAN[s], voicing=VOICINGS[s], beats=4)
                for s in symbols
            ],
        )
        write_atomic(ctx.session_dir / "progression" / "main.progression", progression.to_json())
        out = HarmonyOutput(
            progression=progression, progression_file_path="progression/main.progression"
        )
        summary = f"{len(symbols)}-chord progression in C minor ({' → '.join(symbols)})"
        return StageResult(out, song.model_copy(update={"progression": progression}), summary)

    def arrangement(song: SongState, ctx: StageContext) -> StageResult:
        k.enter(3)
        arr = Arrangement(
            template="fake",
            sections=[
                Section(name="Intro", kind="intro", start_bar=0, bars=4, energy=0.2),
                Section(name="Verse", kind="verse", start_bar=4, bars=4, energy=0.5),
                Section(name="Chorus", kind="chorus", start_bar=8, bars=4, energy=0.9),
                Section(name="Outro", kind="outro", start_bar=12, bars=4, energy=0.2),
            ],
        )
        out = ArrangementOutput(arrangement=arr)
        return StageResult(out, song.model_copy(update={"arrangement": arr}), "4 sections, 16 bars")

    def plan(song: SongState, ctx: StageContext) -> PartsPlan:
        k.enter(4)
        assert song.arrangement is not None
        rng = ctx.rng("ids")
        roles = [("drums", 9), ("bass", 1), ("chords", 2), ("lead", 3)]
        tasks = []
        for role, channel in roles:
            track = Track(id=new_id(rng), name=role.title(), role=role, channel=channel)
            waits = ("drums",) if role == "bass" else ()
            tasks.append(PartTask(track=track, write_section=section_writer(role), waits_for=waits))
        return PartsPlan(tasks=tasks, sections=song.arrangement.sections)

    def section_writer(role: str) -> Callable[..., Region]:
        def write_section(
            song: SongState, ctx: StageContext, section: Section, deps: dict[str, Region | None]
        ) -> Region:
            return write_part_section(role, song, ctx, section, deps)

        return write_section

    def write_part_section(
        role: str,
        song: SongState,
        ctx: StageContext,
        section: Section,
        deps: dict[str, Region | None],
    ) -> Region:
        sections = len(song.arrangement.sections) if song.arrangement else 1
        begun = time.perf_counter()
        time.sleep(k.part_seconds / sections)
        with k.lock:
            span = k.part_spans.setdefault(role, [begun, begun])
            span[1] = time.perf_counter()
        if role == "drums" and k.drums_fail > 0:
            with k.lock:
                k.drums_fail -= 1
            raise RuntimeError("drum machine jammed")
        if role == "bass":
            drums = deps.get("drums")
            k.observed_kicks[section.name] = (
                None if drums is None else sum(1 for n in drums.notes if n.pitch == 36)
            )
        rng = ctx.rng(f"{role}:{section.name}")
        pitch = 36 if role == "drums" else rng.randrange(48, 72)
        notes = [
            Note(pitch=pitch, velocity=rng.randrange(60, 120), start_beat=b, duration_beats=0.5)
            for b in range(0, section.bars * 4, 2)
        ]
        return Region(
            id=new_id(rng),
            name=f"{role} {section.name}",
            start_beat=section.start_bar * 4,
            length_beats=section.bars * 4,
            notes=notes,
        )

    def finish(song: SongState, ctx: StageContext, tracks: list[Track]) -> StageResult:
        results = [
            TrackGenerationResult(
                track_id=t.id,
                role=t.role,
                pattern=PatternSummary(note_count=len(t.notes), bars=16),
            )
            for t in tracks
        ]
        return StageResult(
            PartsOutput(tracks=results),
            song.model_copy(update={"tracks": tracks}),
            f"{len(tracks)} parts",
        )

    def sounds(song: SongState, ctx: StageContext) -> StageResult:
        k.enter(5)
        return StageResult(SoundsOutput(presets=[], effect_chains=[]), song, "no sounds (fake)")

    def assembly(song: SongState, ctx: StageContext) -> StageResult:
        k.enter(6)
        paths = []
        for track in song.tracks:
            rel = f"midi/{track.role}.mid"
            body = json.dumps([n.model_dump() for n in track.notes], sort_keys=True)
            write_atomic(ctx.session_dir / rel, body)
            paths.append(rel)
        write_atomic(ctx.session_dir / "midi/full-arrangement.mid", song.to_json())
        out = AssemblyOutput(
            assembled_file_path="midi/full-arrangement.mid", track_file_paths=paths
        )
        return StageResult(out, song, f"{len(paths)} tracks assembled")

    def validation(song: SongState, ctx: StageContext) -> StageResult:
        k.enter(7)
        score = QualityScore(
            harmony=0.8, rhythm=0.8, arrangement=0.8, vibe=0.8, composite=0.8, passed=True
        )
        return StageResult(
            ValidationOutput(quality_report=score, passed=True), song, "composite 0.80"
        )

    def output(song: SongState, ctx: StageContext) -> StageResult:
        k.enter(8)
        files = [
            ManifestFile(
                path=str(p.relative_to(ctx.session_dir)),
                type="midi",
                description="",
                size_bytes=p.stat().st_size,
            )
            for p in sorted((ctx.session_dir / "midi").glob("*.mid"))
        ]
        manifest = SessionManifest(
            session_id=ctx.pipeline.session_id,
            pipeline_id=ctx.pipeline.pipeline_id,
            created_at=ctx.pipeline.created_at,
            prompt=ctx.prompt,
            genre=song.genre,
            key=f"{song.key} {song.mode}",
            tempo=song.tempo,
            total_bars=16,
            track_count=len(song.tracks),
            files=files,
            muse_version="test",
        )
        write_atomic(ctx.session_dir / "manifest.json", manifest.to_json())
        played = False
        if ctx.config.enable_playback:
            if ctx.playback is None:
                raise StageFailure(
                    "MIDI_PORT_UNAVAILABLE",
                    "no MIDI output port",
                    hint="Install loopMIDI for MIDI playback.",
                )
            try:
                ctx.playback.start(song)
                played = True
            except PlaybackUnavailable as exc:
                raise StageFailure("MIDI_PORT_UNAVAILABLE", str(exc), hint=exc.hint) from exc
        return StageResult(
            OutputOutput(manifest=manifest, playback_initiated=played), song, "written"
        )

    return {
        1: intent,
        2: harmony,
        3: arrangement,
        4: PartsStage(plan=plan, finish=finish),
        5: sounds,
        6: assembly,
        7: validation,
        8: output,
    }


FIXED_CLOCK = datetime(2026, 11, 22, 2, 0, tzinfo=UTC)


def orchestrator(
    root: Path, knobs: Knobs | None = None, **kwargs: object
) -> tuple[Orchestrator, RecordingSink]:
    sink = RecordingSink()
    engine = Orchestrator(
        stages=fake_registry(knobs),
        sessions_root=root,
        sink=sink,
        clock=lambda: FIXED_CLOCK,
        **kwargs,
    )
    return engine, sink
