"""The pipeline's stage records kept in step with an edited song (the notes and TUI read them)."""

from __future__ import annotations

from muse_tui.compose.parts import summarize_part
from muse_tui.contracts import (
    ArrangementOutput,
    ComposerPipeline,
    HarmonyOutput,
    PartsOutput,
    PresetAssignment,
    SongState,
    SoundsOutput,
    StageRecord,
    TrackGenerationResult,
)


def synced_stages(pipeline: ComposerPipeline, song: SongState, text: str) -> dict[int, StageRecord]:
    """Stage records whose outputs show the edited song (the notes and the TUI read them)."""
    stages = dict(pipeline.stages)

    def with_output(stage: int, output: object) -> None:
        if stage in stages:
            stages[stage] = stages[stage].model_copy(update={"output": output})

    out2 = stages[2].output if 2 in stages else None
    if isinstance(out2, HarmonyOutput) and song.progression is not None:
        with_output(2, out2.model_copy(update={"progression": song.progression}))
    if (
        isinstance(stages[3].output if 3 in stages else None, ArrangementOutput)
        and song.arrangement
    ):
        with_output(3, ArrangementOutput(arrangement=song.arrangement))
    out4 = stages[4].output if 4 in stages else None
    if isinstance(out4, PartsOutput):
        before = {r.track_id: r for r in out4.tracks}
        unchanged = {t.id for t in pipeline.song_state.tracks if t in song.tracks}
        results = []
        for track in song.tracks:
            old = before.get(track.id)
            if old is not None and track.id in unchanged:
                results.append(old)  # summarising a part is costly; only changed ones are redone
                continue
            pattern = summarize_part(track, song.beats_per_bar)
            fresh = TrackGenerationResult(track_id=track.id, role=track.role, pattern=pattern)
            if old is not None:  # the register S4 chose and why stays its record
                chosen = old.pattern
                kept = {"written_range": chosen.written_range, "range_rule": chosen.range_rule}
                pattern = pattern.model_copy(update=kept)
            results.append(old.model_copy(update={"pattern": pattern}) if old else fresh)
        with_output(4, PartsOutput(tracks=results))
    out5 = stages[5].output if 5 in stages else None
    if isinstance(out5, SoundsOutput):
        chosen = {a.track_id: a for a in out5.presets}
        presets = []
        for track in song.tracks:
            old = chosen.get(track.id)
            if track.preset is None:
                continue
            if old is not None and old.preset == track.preset:
                presets.append(old)
            else:
                why = f"Chosen in the studio: “{text}”." if text else "Chosen in the studio."
                presets.append(
                    PresetAssignment(
                        track_id=track.id, preset=track.preset, confidence=1.0, reasoning=why
                    )
                )
        chains = [t.effect_chain for t in song.tracks if t.effect_chain]
        chains += [b.effect_chain for b in song.buses if b.effect_chain]
        with_output(5, SoundsOutput(presets=presets, effect_chains=chains))
    return stages
