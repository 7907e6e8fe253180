"""The product's stages: thin adapters from the engine's stage shape to the pure generators.

Each adapter reads the song and the context, calls `muse_tui.compose` (music) or
`muse_tui.store` (files), and returns the new song with the stage's output and
its one-line summary. No musical decision is made here.
"""

from __future__ import annotations

from dataclasses import replace

from muse_tui.compose.arrangement import arrange_for_intent, describe_arrangement
from muse_tui.compose.assembly import arrange_for_playback
from muse_tui.compose.critics import score_song, weakest_stage
from muse_tui.compose.expression import plan_expression
from muse_tui.compose.harmony import ProgressionError, describe_progression
from muse_tui.compose.intent import decompose
from muse_tui.compose.intent.structured import StructuredPromptError, merged_effects
from muse_tui.compose.iteration.section_edits import whole_song
from muse_tui.compose.parts import (
    PART_DEPENDENCIES,
    choose_tracks,
    summarize_part,
    with_register,
    write_part,
)
from muse_tui.compose.section_harmony import song_progression
from muse_tui.compose.seeding import derive_rng
from muse_tui.compose.sounds import apply_sounds, assign_sounds
from muse_tui.contracts import (
    COMMON_TIME,
    ArrangementOutput,
    AssemblyOutput,
    DurationRange,
    HarmonyOutput,
    IntentOutput,
    Meter,
    OutputOutput,
    PartsOutput,
    PipelineIntent,
    QualityGateConfig,
    Region,
    Section,
    SongState,
    SoundsOutput,
    Track,
    TrackGenerationResult,
    ValidationOutput,
    new_id,
)
from muse_tui.knowledge import SkillFileError
from muse_tui.knowledge.midi_setup import midi_port_hint
from muse_tui.store.progression_file import write_progression
from muse_tui.store.session_writer import write_session
from muse_tui.store.smf import write_song_midi

from .protocols import PlaybackUnavailable
from .stages import (
    PartsPlan,
    PartsStage,
    PartTask,
    QualityRewind,
    StageContext,
    StageFailure,
    StageRegistry,
    StageResult,
)


def product_stages() -> StageRegistry:
    """The real eight stages."""
    return {
        1: intent_stage,
        2: harmony_stage,
        3: arrangement_stage,
        4: PartsStage(plan=plan_parts, finish=finish_parts),
        5: sounds_stage,
        6: assembly_stage,
        7: validation_stage,
        8: output_stage,
    }


def _intent(ctx: StageContext) -> PipelineIntent:
    if ctx.intent is None:
        raise StageFailure(
            "DEPENDENCY_MISSING", "stage 1 has not produced an intent", recoverable=False
        )
    return ctx.intent


def intent_stage(song: SongState, ctx: StageContext) -> StageResult:
    """S1: the prompt (plus any answers) becomes an intent; the song takes its tempo and key."""
    prompt = ctx.prompt
    if genre := ctx.answers.get("genre"):
        prompt = f"{prompt}, {genre.replace('_', ' ')}"
    with ctx.tool("decompose"):
        try:
            result = decompose(prompt, meter=ctx.answers.get("meter"))
        except SkillFileError as exc:
            raise StageFailure(
                "DEPENDENCY_MISSING",
                f"a skill file is broken: {exc}",
                hint="fix the file or restore it from the repository",
                recoverable=False,
            ) from None
        except StructuredPromptError as exc:  # the sentence names the line; asking again won't help
            raise StageFailure("INVALID_INPUT", str(exc), recoverable=False) from None
    intent = result.intent.model_copy(update={"raw_prompt": ctx.prompt})
    # An explicit --bars wins over the prompt; the settings' default replaces only a length
    # S1 guessed (the prompt named none).
    guessed = "duration" in result.inferred_fields
    bars = ctx.answers.get("bars") or (ctx.answers.get("default_bars") if guessed else None)
    if bars:
        intent = intent.model_copy(update={"duration": DurationRange(min=int(bars), max=int(bars))})
    tempo = intent.tempo_analysis.bpm if intent.tempo_analysis else intent.tempo or song.tempo
    new = song.model_copy(
        update={
            "tempo": tempo,
            "key": intent.key or song.key,
            "mode": intent.mode or song.mode,
            "genre": intent.genre[0],
            "title": intent.song_title,
            **_time_of(intent),
        }
    )
    return StageResult(IntentOutput(intent=intent, reasons=result.reasons), new, result.summary)


def _time_of(intent: PipelineIntent) -> dict[str, object]:
    """The song's time signature and grouping (4/4 unless the prompt asked for a meter)."""
    meter = intent.meter or COMMON_TIME
    usual = Meter.parse(meter.label).grouping == meter.grouping
    return {"time_signature": meter.time_signature, "grouping": None if usual else meter.grouping}


def harmony_stage(song: SongState, ctx: StageContext) -> StageResult:
    """S2: the progression, written to `progression/main.progression`."""
    intent = _intent(ctx)
    with ctx.tool("generate_progression"):
        try:
            progression = song_progression(
                intent,
                ctx.rng("progression"),
                variant=ctx.variant,
                beats_per_bar=song.beats_per_bar,
                take=ctx.seed + ctx.variant,
            )
        except ProgressionError as exc:
            raise StageFailure(
                "INVALID_INPUT",
                str(exc),
                recoverable=False,
                hint="write chords like 'Cm Ab Eb Bb' or numerals like 'i VI III VII'",
            ) from None
    with ctx.tool("write_progression"):
        # Not synced: S8 writes the same file again, durably, with the rest of the session.
        written = write_progression(ctx.session_dir, progression, durable=False)
    output = HarmonyOutput(progression=progression, progression_file_path=written.path)
    return StageResult(
        output,
        song.model_copy(update={"progression": progression}),
        describe_progression(progression),
    )


def _song_tracks(ctx: StageContext) -> list[Track]:
    """The tracks of the song; S3 and S4 derive them from the same RNG so they agree."""
    return choose_tracks(_intent(ctx), derive_rng(ctx.seed, "tracks"))


def arrangement_stage(song: SongState, ctx: StageContext) -> StageResult:
    """S3: sections, energy and who plays when, for the tracks S4 will write."""
    intent = _intent(ctx)
    roles = [t.role for t in _song_tracks(ctx)]
    bars = (
        intent.duration.max
        if intent.duration and intent.duration.min == intent.duration.max
        else None
    )
    with ctx.tool("arrange"):
        arrangement = arrange_for_intent(
            intent,
            roles,
            ctx.rng("arrangement"),
            bars=bars,
            progression=song.progression,
            beats_per_bar=song.beats_per_bar,
        )
    new = song.model_copy(update={"arrangement": arrangement})
    return StageResult(
        ArrangementOutput(arrangement=arrangement), new, describe_arrangement(arrangement)
    )


def plan_parts(song: SongState, ctx: StageContext) -> PartsPlan:
    """S4's plan: one task per track, bass waiting for the drums of each section."""
    intent = _intent(ctx)
    if song.arrangement is None:
        sections = [whole_song(intent.duration.max if intent.duration else None)]
    else:
        sections = list(song.arrangement.sections)
    tasks = []
    band = _song_tracks(ctx)
    for track in band:
        role = track.role

        def write(
            s: SongState,
            c: StageContext,
            section: Section,
            deps: dict[str, Region | None],
            track: Track = track,
        ) -> Region:
            # Seeded by the section's kind, so the second chorus brings back the first one's
            # hook and groove; repeats develop from the arrangement (compose.arrangement.repeats).
            rng = c.rng(f"{track.role}:{section.kind}")
            region = write_part(track, s, intent, section, rng, deps.get("drums"), band)
            # Same music for the same kind of section, but every region keeps its own id.
            region_id = new_id(c.rng(f"{track.role}:region:{section.start_bar}"))
            return region.model_copy(update={"id": region_id})

        tasks.append(
            PartTask(track=track, write_section=write, waits_for=PART_DEPENDENCIES.get(role, ()))
        )
    return PartsPlan(tasks=tasks, sections=sections)


def finish_parts(song: SongState, ctx: StageContext, tracks: list[Track]) -> StageResult:
    results = [
        TrackGenerationResult(
            track_id=t.id,
            role=t.role,
            pattern=with_register(summarize_part(t, song.beats_per_bar), t.role, ctx.intent),
        )
        for t in tracks
    ]
    notes = sum(r.pattern.note_count for r in results)
    summary = f"{len(tracks)} parts, {notes} notes ({', '.join(t.name for t in tracks)})"
    return StageResult(
        PartsOutput(tracks=results), song.model_copy(update={"tracks": tracks}), summary
    )


def sounds_stage(song: SongState, ctx: StageContext) -> StageResult:
    """S5: a sound and an effect chain for every track, and the shared reverb bus."""
    with ctx.tool("assign_sounds"):
        plan = assign_sounds(song, _intent(ctx), ctx.rng("sounds"))
        plan = replace(
            plan,
            effect_chains=merged_effects(
                plan.effect_chains, song.tracks, _intent(ctx).effect_requests, song.tempo
            ),
        )
    new = apply_sounds(song, plan)
    effects = sum(len(chain.effects) for chain in plan.effect_chains)
    summary = f"{len(plan.presets)} sounds, {effects} effects" + (
        f", {len(plan.buses)} shared bus" if plan.buses else ""
    )
    output = SoundsOutput(presets=plan.presets, effect_chains=plan.effect_chains)
    return StageResult(output, new, summary)


def assembly_stage(song: SongState, ctx: StageContext) -> StageResult:
    """S6: the arranged song as one SMF plus one file per track."""
    asked = ctx.intent.expression_requests if ctx.intent is not None else []
    playable = arrange_for_playback(plan_expression(song, asked))
    with ctx.tool("write_song_midi"):
        # Synced by S6's own durable checkpoint, on the writer's thread while S7 works.
        files = write_song_midi(
            ctx.session_dir, playable, arranged=True, durable=False, drum_map=ctx.config.drum_map
        )
    paths = [f.path for f in files]
    full = next((p for p in paths if p.endswith("full-arrangement.mid")), paths[0])
    output = AssemblyOutput(
        assembled_file_path=full, track_file_paths=[p for p in paths if p != full]
    )
    bars = playable.arrangement.total_bars if playable.arrangement else 0
    summary = f"{len(playable.tracks)} tracks, {bars} bars → {full}"
    return StageResult(
        output, playable, summary, unsynced=tuple(ctx.session_dir / p for p in paths)
    )


def validation_stage(song: SongState, ctx: StageContext) -> StageResult:
    """S7: the critics' scores; with the quality gate on, a weak song goes back for another take."""
    config = ctx.config.quality_gate_config or QualityGateConfig()
    with ctx.tool("score_song"):
        score = score_song(song, ctx.intent, config)
    if ctx.config.enable_quality_gate and not score.passed:
        raise QualityRewind(
            weakest_stage(score), "; ".join(score.notes) or "the song scored too low"
        )
    summary = (
        f"composite {score.composite:.2f} (harmony {score.harmony:.2f}, rhythm {score.rhythm:.2f}, "
        f"arrangement {score.arrangement:.2f}, vibe {score.vibe:.2f})"
    )
    return StageResult(ValidationOutput(quality_report=score, passed=score.passed), song, summary)


def output_stage(song: SongState, ctx: StageContext) -> StageResult:
    """S8: the session folder, and playback when asked for."""
    with ctx.tool("write_session"):
        assembled = ctx.pipeline.stages.get(6)
        manifest = write_session(
            ctx.session_dir,
            ctx.pipeline.model_copy(update={"song_state": song}),
            midi_written=assembled is not None and assembled.status == "completed",
            state_written=ctx.config.enable_checkpoints,
        )
    played = False
    if ctx.config.enable_playback:
        if ctx.playback is None:
            raise StageFailure(
                "MIDI_PORT_UNAVAILABLE",
                "there is no MIDI output port to play through",
                hint=midi_port_hint(),
                recoverable=False,
            )
        try:
            ctx.playback.start(song)
            played = True
        except PlaybackUnavailable as exc:
            raise StageFailure(
                "MIDI_PORT_UNAVAILABLE", str(exc), hint=exc.hint, recoverable=False
            ) from None
    summary = f"{len(manifest.files)} files in {ctx.session_dir.name}" + (
        ", playing" if played else ""
    )
    return StageResult(OutputOutput(manifest=manifest, playback_initiated=played), song, summary)
